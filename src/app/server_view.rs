//! "What the limiter protects" (issue #37): the server behind the limiter, in the whole page.
//! Four presets tell its stories in one click each, and say what to watch; the server's knobs,
//! the clients' retry budget and breaker, and a spike of traffic set the rest; three cards draw
//! what the engine's server did each second — load against goodput, latency against queueing
//! theory, the queue — with its totals above them. Everything shown comes from the run
//! ([`crate::present::server`]).

use leptos::prelude::*;

use super::controls::ChoiceMenu;
use super::fold::Fold;
use super::knob::field_range;
use super::playground::Playground;
use super::plot_canvas::PlotCanvas;
use super::slider::Slider;
use super::stories::Stories;
use crate::chart::canvas::Layers;
use crate::chart::server::ServerChart;
use crate::chart::server_window::ServerWindow;
use crate::present::server::presets::PRESETS;
use crate::present::units::{format_number, SliderScale};
use crate::sim::products::{Choice, ProductKey};
use crate::sim::server::keys::{
    BREAKER_PAUSE, CLIENT_TIMEOUT, DISCIPLINE, RETRY_BREAKER, RETRY_BUDGET, SERVER_QUEUE, SERVICE, SERVICE_CV,
    SERVICE_DIST, SPIKE, SPIKE_RATE, WORKERS,
};

/// Seconds of the run the cards show, at most.
const SECONDS: u64 = 60;

/// The server a visitor adds to a run without one: four workers, 10 ms each.
const FIRST_WORKERS: u64 = 4;

/// The panel.
#[component]
pub fn ServerPanel(
    /// The page state.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let has_server = Memo::new(move |_| pg.scenario.with(|s| s.product.get(&WORKERS) > 0));
    let add = move |_| pg.edit(|s| s.product.set(&WORKERS, FIRST_WORKERS));
    view! {
        <Fold playground=pg id="server" class="server" title="What the limiter protects">
            <p class="hint">
                "A server with finite capacity behind the limiter: requests it admits wait for one of the workers, "
                "clients give up after their timeout and retry, and a full waiting room answers 503. Latency, wasted "
                "work and retry storms — the reasons limits exist."
            </p>
            <Stories playground=pg stories=&PRESETS cluster=false watch_id="server-watch" />
            <div class="server-knobs">
                <ServerKnobs playground=pg has_server=has_server />
            </div>
            {move || if has_server.get() {
                view! { <ServerCards playground=pg /> }.into_any()
            } else {
                view! {
                    <p class="hint" id="server-none">
                        "No server is modelled in this run: the limiter's answers are the response. "
                        <button type="button" id="server-add" on:click=add>"Put a server behind the limiter"</button>
                    </p>
                }.into_any()
            }}
        </Fold>
    }
}

/// The server's knobs (with a server), and the clients' and the traffic's beside them.
#[component]
fn ServerKnobs(
    /// The page state.
    playground: Playground,
    /// Whether the run has a server.
    has_server: Memo<bool>,
) -> impl IntoView {
    let pg = playground;
    let server = move || {
        has_server.get().then(|| {
            view! {
                <fieldset class="group">
                    <legend>"Server"</legend>
                    {num(pg, "server-workers", &WORKERS, "Workers", "at once", SliderScale::Linear { min: 1, max: 64 })}
                    {num(pg, "server-service", &SERVICE, "Mean service time", "ms", SliderScale::Log { min: 0.1, max: 1000.0, steps: 400 })}
                    {menu(pg, "server-dist", &SERVICE_DIST, "Service times", &["all equal", "exponential", "lognormal"])}
                    {move || (pg.scenario.with(|s| s.product.get(&SERVICE_DIST)) == 2).then(|| {
                        num(pg, "server-cv", &SERVICE_CV, "Spread (sd ÷ mean)", "", SliderScale::Log { min: 0.1, max: 10.0, steps: 200 })
                    })}
                    {num(pg, "server-queue", &SERVER_QUEUE, "Waiting room", "requests", SliderScale::Log { min: 1.0, max: 100_000.0, steps: 500 })}
                    {menu(pg, "server-discipline", &DISCIPLINE, "A free worker takes", &["the oldest request (FIFO)", "the newest (LIFO)"])}
                    {num(pg, "server-timeout", &CLIENT_TIMEOUT, "Clients give up after (0: never)", "ms", SliderScale::Log { min: 1.0, max: 60_000.0, steps: 500 })}
                </fieldset>
            }
        })
    };
    view! {
        {server}
        <fieldset class="group">
            <legend>"Retries"</legend>
            {switch(pg, "server-budget-on", &RETRY_BUDGET, "A retry budget", 10)}
            {move || on(pg, &RETRY_BUDGET).then(|| num(pg, "server-budget", &RETRY_BUDGET, "Retries per new request, at most", "", SliderScale::Log { min: 0.01, max: 1.0, steps: 200 }))}
            {switch(pg, "server-breaker-on", &RETRY_BREAKER, "A retry breaker", 5)}
            {move || on(pg, &RETRY_BREAKER).then(|| view! {
                {num(pg, "server-breaker", &RETRY_BREAKER, "Opens after failures in a row", "", SliderScale::Linear { min: 1, max: 50 })}
                {num(pg, "server-pause", &BREAKER_PAUSE, "Stays open for", "ms", SliderScale::Log { min: 10.0, max: 60_000.0, steps: 400 })}
            })}
            <p class="hint">"On top of the retry policy under “Clients after a 429”, which says when clients retry: a 429, a 503 and their own timeout alike."</p>
        </fieldset>
        <fieldset class="group">
            <legend>"A spike"</legend>
            {switch(pg, "server-spike-on", &SPIKE, "Extra requests for a while", (10_000 << 32) | 20_000)}
            {move || on(pg, &SPIKE).then(|| view! {
                {spike_edge(pg, "server-spike-start", "From", true)}
                {spike_edge(pg, "server-spike-end", "Until", false)}
                {num(pg, "server-spike-rate", &SPIKE_RATE, "Extra arrivals", "requests/s", SliderScale::Log { min: 1.0, max: 10_000.0, steps: 400 })}
            })}
        </fieldset>
    }
}

/// Whether `key` is set to something other than 0 (off).
fn on(pg: Playground, key: &'static ProductKey) -> bool {
    pg.scenario.with(|s| s.product.get(key) != 0)
}

/// A slider of a numeric key, in its own units and precision.
fn num(
    pg: Playground,
    id: &'static str,
    key: &'static ProductKey,
    label: &'static str,
    unit: &'static str,
    scale: SliderScale,
) -> AnyView {
    let unit_value = 10f64.powi(field_range(key.key).digits as i32);
    view! {
        <Slider id=id range=field_range(key.key) label=label unit=unit scale=scale
            value=Signal::derive(move || pg.scenario.with(|s| s.product.get(key)) as f64 / unit_value)
            on_change=Callback::new(move |v: f64| pg.edit(|s| s.product.set(key, (v * unit_value).round().max(0.0) as u64))) />
    }
    .into_any()
}

/// A menu of a key's names, each with what it says.
fn menu(
    pg: Playground,
    id: &'static str,
    key: &'static ProductKey,
    label: &'static str,
    labels: &'static [&'static str],
) -> AnyView {
    view! { <ChoiceMenu playground=pg choice=Choice { id, label, key, labels } /> }.into_any()
}

/// A checkbox that sets `key` to `value` (on) or 0 (off).
fn switch(pg: Playground, id: &'static str, key: &'static ProductKey, label: &'static str, value: u64) -> AnyView {
    view! {
        <label class="check">
            <input type="checkbox" id=id prop:checked=move || on(pg, key)
                on:change=move |ev| pg.edit(|s| s.product.set(key, if event_target_checked(&ev) { value } else { 0 })) />
            {label}
        </label>
    }
    .into_any()
}

/// A slider of one end of the spike, in seconds (the other end stays; the spike stays at least
/// a millisecond long).
fn spike_edge(pg: Playground, id: &'static str, label: &'static str, start: bool) -> AnyView {
    let ends = move || crate::sim::products::key::span(pg.scenario.with(|s| s.product.get(&SPIKE))).unwrap_or((0, 1));
    let set = move |v: f64| {
        let (a, b) = ends();
        let ms = (v * 1e3).round().clamp(0.0, 86_400_000.0) as u64;
        let (a, b) = if start { (ms.min(b.saturating_sub(1)), b) } else { (a, ms.max(a + 1)) };
        pg.edit(|s| s.product.set(&SPIKE, (a << 32) | b));
    };
    let range = crate::sim::query::Range { min: 0, max: 86_400_000, digits: 3, unit: "s" };
    view! {
        <Slider id=id range=range label=label unit="s" scale=SliderScale::Linear { min: 0, max: 120 }
            value=Signal::derive(move || { let (a, b) = ends(); (if start { a } else { b }) as f64 / 1e3 })
            on_change=Callback::new(set) />
    }
    .into_any()
}

/// The server's totals and its three cards.
#[component]
fn ServerCards(
    /// The page state.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let totals = Memo::new(move |_| {
        let _ = pg.readout.with(|r| (r.generation, r.now));
        pg.with_runner(|r| r.sims().first().and_then(totals_line)).flatten()
    });
    view! {
        <p class="server-totals" id="server-totals">{move || totals.get()}</p>
        <div class="server-cards">
            {server_card(pg, ServerChart::Load)}
            {server_card(pg, ServerChart::Latency)}
            {server_card(pg, ServerChart::Queue)}
        </div>
    }
}

/// One of the server's cards, as the panel and an embed (`show=server_load`, …) draw it.
pub(crate) fn server_card(pg: Playground, chart: ServerChart) -> AnyView {
    let (id, title, sub, label) = match chart {
        ServerChart::Load => ("server-load-chart", "Load and goodput", "requests per simulated second",
            "Step chart per simulated second of requests offered to the limiter, answered in time (goodput), answered after the client gave up (wasted) and refused by the server (503), with the server's capacity as a dashed line"),
        ServerChart::Latency => ("server-latency-chart", "Latency", "ms, from sending to the answer",
            "Step chart per simulated second of the mean, median and 99th percentile latency of the requests the server finished, with queueing theory's mean as a dotted line where it applies"),
        ServerChart::Queue => ("server-queue-chart", "Queue", "requests waiting for a worker",
            "Step chart of the most requests waiting for a worker in each simulated second, with the waiting room's size as a dotted line once the queue nears it"),
    };
    let redraw = Memo::new(move |_| pg.snapshot.with(|s| (s.generation << 40) ^ s.completed_buckets));
    let window = move || pg.with_runner(|r| r.sims().first().and_then(|s| ServerWindow::of(s, SECONDS))).flatten();
    let render = move |layers: &mut Layers, env: u64| {
        let Some(data) = window() else { return Ok(()) };
        layers
            .draw(&chart.axes(&data), env, |plot, style| chart.draw_data(plot, &data, style).map_err(|e| e.to_string()))
    };
    // A memo: the legend is laid out again only when a reference line comes or goes, not on
    // every redraw.
    let legend = Memo::new(move |_| {
        let _ = redraw.get();
        window().map(|d| chart.legend(&d)).unwrap_or_default()
    });
    view! {
        <figure class="panel chart-card server-card">
            <figcaption>
                <span class="chart-title">{title}</span>
                <span class="chart-sub">{sub}</span>
            </figcaption>
            <PlotCanvas id=id label=label.to_string() redraw=redraw render=render class="plot-server" legend=legend />
        </figure>
    }
    .into_any()
}

/// The server's totals so far, in one line.
fn totals_line(sim: &crate::sim::Simulation) -> Option<String> {
    let s = sim.server_stats()?;
    let elapsed = sim.now();
    let share = |n: u64| {
        if s.served == 0 {
            "0 %".to_string()
        } else {
            format!("{} %", format_number(100.0 * n as f64 / s.served as f64))
        }
    };
    let mut line = format!(
        "Served {} — in time {} ({}), too late {} — shed (503) {} · workers busy {} % · latency p50 {} ms, p99 {} ms",
        s.served,
        s.goodput,
        share(s.goodput),
        s.wasted,
        s.shed,
        format_number(100.0 * s.utilization(crate::sim::Nanos(elapsed.as_nanos()))),
        format_number(s.latency.percentile(50.0).as_nanos() as f64 / 1e6),
        format_number(s.latency.percentile(99.0).as_nanos() as f64 / 1e6),
    );
    if let Some(g) = sim.behind().and_then(|b| b.gate.as_ref()) {
        line += &format!(
            " · retries refused: {} by the budget, {} by the breaker (opened {} times)",
            g.stats.budget_refused, g.stats.breaker_refused, g.stats.breaker_opened
        );
    }
    Some(line)
}
