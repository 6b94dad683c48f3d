//! The throughput chart, natively: what it draws (through a recording backend) and which seconds
//! of the engine's metrics it shows.

mod common;

use common::recorder::{rgb, Drawn};
use ratelimit_playground::chart::theme::ChartTheme;
use ratelimit_playground::chart::throughput::{draw_throughput, BucketCounts, ChartStyle, ThroughputWindow};
use ratelimit_playground::sim::{Rate, Scenario, SimTime, Simulation};

fn steady(admitted: u64, rejected: u64, seconds: u32) -> ThroughputWindow {
    let buckets =
        (0..seconds).map(|s| BucketCounts { start_secs: f64::from(s), width_secs: 1.0, admitted, rejected }).collect();
    ThroughputWindow { end_secs: 60.0, width_secs: 60.0, buckets, ..ThroughputWindow::default() }
}

fn record(data: &ThroughputWindow, theme: ChartTheme) -> Drawn {
    common::recorder::record(|root| draw_throughput(root, data, &ChartStyle { theme, scale: 1.0 }).expect("draw"))
}

#[test]
fn admitted_is_one_solid_line_over_a_fill_and_rejected_is_dashed() {
    let theme = ChartTheme::LIGHT;
    let r = record(&steady(5, 3, 30), theme);
    let solid = |c| r.marks.iter().filter(|m| m.rgb == rgb(c) && !m.filled && m.alpha == 1.0).count();
    // Legend sample + the series: one continuous path each.
    assert_eq!(solid(theme.admitted), 2, "admitted should be one solid path plus its legend sample");
    assert!(
        r.marks.iter().any(|m| m.rgb == rgb(theme.admitted) && m.filled && m.alpha < 0.5),
        "no fill under admitted"
    );
    // Dashes: many short paths (3 of them in the legend).
    assert!(solid(theme.rejected) > 20, "rejected should be drawn as many dashes, got {}", solid(theme.rejected));
}

#[test]
fn chart_is_labelled_with_a_legend_and_axis_title() {
    let r = record(&steady(5, 3, 30), ChartTheme::DARK);
    for label in ["admitted / s", "rejected / s", "simulated time", "now", "-30 s"] {
        assert!(r.texts.iter().any(|t| t == label), "missing {label:?} in {:?}", r.texts);
    }
    assert!(r.marks.iter().any(|m| m.filled && m.rgb == rgb(ChartTheme::DARK.background)), "background not filled");
}

#[test]
fn empty_window_still_draws_axes_without_error() {
    let r = record(
        &ThroughputWindow { end_secs: 60.0, width_secs: 60.0, ..ThroughputWindow::default() },
        ChartTheme::LIGHT,
    );
    assert!(r.texts.iter().any(|t| t == "0"), "y axis should start at 0: {:?}", r.texts);
}

#[test]
fn window_holds_the_last_sixty_completed_seconds() {
    let sc = Scenario { rate: Rate::from_per_sec(8.0), refill: Rate::from_per_sec(5.0), ..Scenario::default() };
    let mut sim = Simulation::new(&sc);
    sim.step_until(SimTime::from_secs_f64(90.5));
    let window = ThroughputWindow::from_metrics(sim.metrics(), sim.now(), 60);

    assert_eq!((window.end_secs, window.width_secs), (90.0, 60.0));
    assert_eq!(window.buckets.len(), 60);
    assert_eq!(window.buckets[0].start_secs, 30.0);
    assert_eq!(window.buckets[59].start_secs, 89.0);
    let last = window.buckets[59];
    assert_eq!(last.admitted + last.rejected, 8, "8 requests arrive each second");
    assert!((4..=6).contains(&last.admitted), "about refill (5/s) admitted in steady state: {last:?}");
}

#[test]
fn window_grows_with_the_run_in_ten_second_steps_and_counts_quiet_seconds_as_zero() {
    let sc = Scenario { rate: Rate::from_per_sec(0.2), ..Scenario::default() };
    let mut sim = Simulation::new(&sc);
    sim.step_until(SimTime::from_secs_f64(12.0));
    let window = ThroughputWindow::from_metrics(sim.metrics(), sim.now(), 60);

    // 12 s run: the axis spans 20 s, not 60, so the data fills most of the chart (issue #15).
    assert_eq!((window.end_secs, window.width_secs), (12.0, 20.0));
    assert_eq!(window.buckets.len(), 12, "one bucket per completed second, quiet ones included");
    let total: u64 = window.buckets.iter().map(|b| b.admitted + b.rejected).sum();
    assert_eq!(total, sim.metrics().totals.requests);
}

#[test]
fn a_clusters_chart_is_scaled_to_what_it_admitted_and_says_the_rejected_are_cut() {
    use ratelimit_playground::chart::throughput::legend_for;
    let data = ThroughputWindow { allowed_rate: Some(5.0), admitted_scale: true, ..steady(10, 95, 30) };
    let top = data.y_max();
    assert!((10.0..20.0).contains(&top), "over-admission (10 against 5) must fill the axis: top {top}");
    let labels: Vec<&str> = legend_for(&data, top).iter().map(|k| k.label).collect();
    assert_eq!(labels, ["admitted / s", "rejected / s (above the top: cut)", "allowed rate"]);
    // The axis's labels stop at its top: nothing near the 95 rejected a second.
    let r = record(&data, ChartTheme::LIGHT);
    assert!(r.texts.iter().all(|t| t.parse::<f64>().map_or(true, |v| v <= top)), "{:?}", r.texts);
}

#[test]
fn the_marker_is_in_the_legend_while_it_is_in_view() {
    use ratelimit_playground::chart::throughput::legend_for;
    let data = ThroughputWindow { marker_secs: Some(20.0), marker_label: "first 429", ..steady(5, 3, 30) };
    let labels: Vec<&str> = legend_for(&data, data.y_max()).iter().map(|k| k.label).collect();
    assert_eq!(labels, ["admitted / s", "rejected / s", "first 429"]);
    let gone = ThroughputWindow { marker_secs: Some(-5.0), ..data };
    assert_eq!(legend_for(&gone, gone.y_max()).len(), 2);
}
