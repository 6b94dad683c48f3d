//! The playground's charts, natively: the data layer never draws text (so the browser can redraw
//! it every frame without measuring any), axes stay equal while the data moves, and each chart
//! draws what the engine measured — inner state, the converging pass ratio, the request strip.

mod common;

use common::recorder::record;
use ratelimit_playground::chart::convergence::{convergence_axes, draw_convergence, ConvergenceView};
use ratelimit_playground::chart::plot::{draw_axes, plot_area, ChartStyle};
use ratelimit_playground::chart::state::{draw_state, state_axes, StateKind, StateWindow};
use ratelimit_playground::chart::strip::{draw_strip, Strip};
use ratelimit_playground::chart::theme::ChartTheme;
use ratelimit_playground::chart::throughput::{draw_throughput_data, throughput_axes, ThroughputWindow};
use ratelimit_playground::present::runner::{Runner, STATE_SPAN_SECS};
use ratelimit_playground::sim::metrics::EVENT_RING;
use ratelimit_playground::sim::{Nanos, Scenario, SimTime, Simulation};

fn sim(q: &str, secs: u64) -> Simulation {
    let mut sim = Simulation::new(&Scenario::from_query(q).unwrap());
    sim.sample_state(Nanos::from_millis(50), 400);
    sim.step_until(SimTime::from_secs(secs));
    sim
}

fn state_of(q: &str, secs: u64) -> StateWindow {
    let s = sim(q, secs);
    let sc = s.scenario();
    let bound = if StateKind::of(sc.algo) == StateKind::Tokens { sc.capacity } else { sc.effective_limit() };
    StateWindow::from_samples(
        s.state_samples().unwrap(),
        s.now(),
        STATE_SPAN_SECS as f64,
        StateKind::of(sc.algo),
        bound,
    )
}

#[test]
fn the_data_layer_draws_no_text_and_the_axes_hold_still_while_data_moves() {
    let style = ChartStyle::default();
    let s = sim("capacity=10&refill=5&rate=8", 90);
    let now = ThroughputWindow::from_metrics(s.metrics(), s.now(), 60);
    let s2 = sim("capacity=10&refill=5&rate=8", 91);
    let later = ThroughputWindow::from_metrics(s2.metrics(), s2.now(), 60);
    assert_ne!(now, later);
    assert_eq!(throughput_axes(&now, now.y_max(), false), throughput_axes(&later, later.y_max(), false));

    let mut frame = None;
    let axes_layer = record(|root| frame = Some(draw_axes(root, &throughput_axes(&now, now.y_max(), false), &style)));
    let frame = frame.unwrap().unwrap();
    assert!(axes_layer.has_text("now"), "{:?}", axes_layer.texts);
    assert!(frame.pixels.0.start > 0 && frame.pixels.0.end < 800, "{frame:?}");
    assert!(frame.pixels.1.start > frame.pixels.1.end, "y runs from the bottom up: {frame:?}");
    let data_only = record(|root| draw_throughput_data(&plot_area(root, &frame), &now, &style).unwrap());
    assert!(data_only.texts.is_empty(), "the data layer drew text: {:?}", data_only.texts);
    assert!(!data_only.marks.is_empty());
}

#[test]
fn the_data_layer_maps_values_where_the_axes_put_them() {
    // Regression: y ran top-down on the data layer, so the data landed below its own grid lines.
    let axes = throughput_axes(&ThroughputWindow { width_secs: 60.0, ..ThroughputWindow::default() }, 10.0, false);
    record(|root| {
        let frame = draw_axes(root, &axes, &ChartStyle::default()).unwrap();
        let plot = plot_area(root, &frame);
        let (left, bottom) = plot.map_coordinate(&(-60.0, 0.0));
        let (right, top) = plot.map_coordinate(&(0.0, 10.0));
        assert_eq!((left, right), (frame.pixels.0.start, frame.pixels.0.end));
        assert_eq!((bottom, top), (frame.pixels.1.start, frame.pixels.1.end));
        assert!(top < bottom && top > 0, "the top of the y axis is above its bottom, inside the canvas");
        assert!((plot.map_coordinate(&(-30.0, 5.0)).1 - (top + bottom) / 2).abs() <= 1, "half way up");
    });
}

#[test]
fn the_bucket_state_shows_tokens_against_capacity_and_drains_under_overload() {
    let w = state_of("capacity=10&refill=5&rate=20", 30);
    assert_eq!(w.kind, StateKind::Tokens);
    assert_eq!(w.points.len(), 400, "20 s of 50 ms samples");
    assert!(w.points.iter().all(|p| p.x <= 0.0 && p.x >= -20.0));
    assert!(w.points.iter().all(|p| p.level <= 1.0), "an overloaded bucket stays near empty");
    let theme = ChartTheme::LIGHT;
    let drawn = record(|root| draw_state(root, &w, &ChartStyle { theme, scale: 1.0 }).unwrap());
    assert!(drawn.has_text("tokens") && drawn.has_text("capacity"), "{:?}", drawn.texts);
    assert!(drawn.strokes(theme.admitted) >= 2, "legend sample and the level line");
}

#[test]
fn the_sliding_counter_state_draws_the_estimate_and_both_counters() {
    let w = state_of("algo=sliding_window&rate=20&limit=10&window=2", 30);
    assert_eq!(w.kind, StateKind::Weighted);
    assert!(w.points.iter().any(|p| p.previous > 0 && p.current > 0));
    assert!(w.points.iter().all(|p| p.level <= 10.0 + 1e-9));
    let legend = state_axes(&w).legend.iter().map(|k| k.label).collect::<Vec<_>>();
    assert_eq!(legend, ["estimate", "this window", "previous", "limit"]);
}

#[test]
fn a_bucket_in_debt_gets_a_y_axis_below_zero() {
    let w = state_of("capacity=5&refill=1&rate=50&count_rejected=1", 10);
    assert!(w.points.iter().any(|p| p.level < 0.0));
    assert!(w.y_range().start < 0.0, "{:?}", w.y_range());
}

#[test]
fn the_steady_state_chart_converges_and_marks_the_first_rejection() {
    let mut r = Runner::new(&Scenario::from_query("capacity=10&refill=5&rate=20").unwrap(), false);
    r.jump(Nanos::from_secs(120));
    let mut view = ConvergenceView::new(r.history(), r.now().as_secs_f64(), Some(0.25), "refill ÷ arrival");
    view.first_rejection = Some(0.65);
    view.predicted_first = Some(10.0 / 15.0);
    let (_, last) = *view.points.last().unwrap();
    assert!((last - 0.25).abs() < 0.01, "{last}");
    assert_eq!(view.points.first().map(|p| p.1), Some(1.0), "everything passes at first");
    let legend: Vec<_> = convergence_axes(&view).legend.iter().map(|k| k.label).collect();
    assert_eq!(legend, ["pass ratio so far", "refill ÷ arrival", "first 429", "C ÷ (λ − r)"]);
    let drawn = record(|root| draw_convergence(root, &view, &ChartStyle::default()).unwrap());
    assert!(drawn.has_text("100 %") && drawn.has_text("120"), "{:?}", drawn.texts);
}

#[test]
fn the_strip_shows_decisions_only_and_shrinks_to_what_a_full_ring_covers() {
    let calm = sim("rate=4", 10);
    let strip = Strip::from_events(calm.metrics().events(), calm.now(), 5.0, true);
    assert_eq!(strip.span_secs, 5.0);
    assert_eq!(strip.marks.len(), 20, "4 decisions a second for 5 s");
    assert!(strip.marks.iter().all(|m| m.allowed && !m.retry));

    let busy = sim("rate=1000&retry=exact", 10);
    let full = busy.metrics().events().count() == EVENT_RING;
    let strip = Strip::from_events(busy.metrics().events(), busy.now(), 5.0, true);
    assert!(full && strip.span_secs < 1.0, "{}", strip.span_secs);
    assert!(strip.marks.iter().any(|m| !m.allowed) && strip.marks.iter().any(|m| m.retry));
}

#[test]
fn the_strip_trails_each_held_request_back_to_its_arrival() {
    // The leaky bucket's queue at twice its drain rate: full, every admitted request waits ~2.5 s.
    let queue = sim("algo=leaky_bucket&capacity=10&refill=4&rate=8", 30);
    let strip = Strip::from_events(queue.metrics().events(), queue.now(), 5.0, true);
    let admitted: Vec<_> = strip.marks.iter().filter(|m| m.allowed).collect();
    assert!(admitted.len() >= 15 && admitted.iter().all(|m| (2.2..=2.5).contains(&m.waited)), "{admitted:?}");
    assert!(strip.marks.iter().filter(|m| !m.allowed).all(|m| m.waited == 0.0));
    let style = ChartStyle::default();
    let tails = |strip: &Strip| record(|root| draw_strip(root, strip, &style).unwrap()).strokes(style.theme.admitted);
    assert_eq!(tails(&strip), admitted.len(), "one tail per held request");
    // A token bucket answers at once: no tails.
    let bucket = sim("capacity=10&refill=4&rate=8", 30);
    assert_eq!(tails(&Strip::from_events(bucket.metrics().events(), bucket.now(), 5.0, true)), 0);
    // With a store, a late answer is its round trip, not a hold: no slants.
    let store = sim("capacity=10&refill=4&rate=8&nodes=2&store=atomic&rtt=400", 30);
    assert_eq!(tails(&Strip::from_events(store.metrics().events(), store.now(), 5.0, false)), 0);
}
