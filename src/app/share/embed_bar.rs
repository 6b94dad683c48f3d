//! The embed's one-line header: play/pause, step back, step, reset to the opening moment, the
//! simulated clock, the counters, and the link that
//! opens the full playground on the same state. Element ids match the full page's (`#play`,
//! `#step`, `#clock`, `#requests`, `#admitted`, `#rejected`), so the same tests read both.

use leptos::html::A;
use leptos::prelude::*;

use super::url_sync::current_link;
use crate::app::playground::Playground;
use crate::present::cluster::choices::short_name;
use crate::present::cluster::presets::is_cluster;
use crate::present::options::algorithm_label;
use crate::present::share::frame::moment_keys;
use crate::present::units::{clock_text, format_percent, group_thousands};
use crate::sim::Nanos;

/// The embed's header.
#[component]
pub fn EmbedBar(
    /// The page state.
    playground: Playground,
    /// Whether playing is on hold because the frame cannot be seen.
    #[prop(into)]
    held: Signal<bool>,
    /// The moment the embed opened on (its `t=`), where Reset takes it back to.
    opened_at: Nanos,
) -> impl IntoView {
    let pg = playground;
    let totals = Memo::new(move |_| pg.readout.with(|s| s.main().map(|c| c.totals).unwrap_or_default()));
    let count = move |f: fn(&crate::sim::Totals) -> u64| move || totals.with(|t| group_thousands(f(t)));
    let ratio = move || {
        totals.with(|t| if t.admitted + t.rejected == 0 { "—".to_string() } else { format_percent(t.pass_ratio()) })
    };
    let status = move || match (pg.running.get(), held.get()) {
        (true, true) => "waiting while out of view",
        (true, false) => "running",
        (false, _) => "paused",
    };
    // A multi-node widget names its nodes and store beside the algorithm.
    let title = move || {
        let algo = algorithm_label(pg.algorithm());
        pg.scenario.with(|sc| {
            if is_cluster(sc) {
                format!("{algo} · {} nodes · {}", sc.nodes, short_name(sc.store))
            } else {
                algo.to_string()
            }
        })
    };
    // "Open in the playground ↗" opens on the moment shown, paused or playing: the moment is added
    // to its address as the reader reaches for it (not on every frame).
    let open = NodeRef::<A>::new();
    let at_moment = move || {
        if let Some(a) = open.get_untracked() {
            let now = pg.readout.with_untracked(|s| s.now.since(crate::sim::SimTime::ZERO));
            a.set_href(&format!("{}{}", current_link(pg), moment_keys(now, pg.running.get_untracked())));
        }
    };
    // Always to the millisecond, playing or paused: the header is as wide either way, so it wraps
    // the same way and the frame's height does not jump on Play/Pause (it did by a line at 375 px).
    let clock = Memo::new(move |_| clock_text(pg.readout.with(|s| s.now.as_secs_f64()), false));
    view! {
        <div class="embed-bar">
            <div class="embed-head">
                <button type="button" id="play" class="primary" aria-pressed=move || pg.running.get().to_string()
                    on:click=move |_| pg.running.update(|r| *r = !*r)>
                    {move || if pg.running.get() { "Pause" } else { "Play" }}
                </button>
                <button type="button" id="step-back" on:click=move |_| pg.step_back()
                    title="Pause and go back one event" aria-label="Step back">"◂"</button>
                <button type="button" id="step" on:click=move |_| pg.step() title="Pause and run exactly the next event">
                    "Step"
                </button>
                <button type="button" id="embed-reset" on:click=move |_| pg.back_to(opened_at)
                    title=format!("Pause and go back to {}, where it opened", clock_text(opened_at.as_secs_f64(), false))
                    aria-label="Reset">"↺"</button>
                <span class="embed-title">{title}</span>
                <span class="embed-clock" title=status>
                    <span id="clock" data-ns=move || pg.readout.with(|s| s.now.as_nanos())>
                        {move || clock.get()}
                    </span>
                    <span class="visually-hidden" id="play-status">{status}</span>
                </span>
                <a class="embed-open" id="embed-open" href=move || current_link(pg) target="_blank" rel="noopener"
                    node_ref=open on:pointerdown=move |_| at_moment() on:focus=move |_| at_moment()
                    on:click=move |_| at_moment()>
                    "Open in the playground ↗"
                </a>
            </div>
            <dl class="embed-counts" aria-label="Counts since t = 0">
                <div><dt>"requests"</dt><dd id="requests">{count(|t| t.requests)}</dd></div>
                <div class="admitted"><dt>"admitted"</dt><dd id="admitted">{count(|t| t.admitted)}</dd></div>
                <div class="rejected"><dt>"rejected"</dt><dd id="rejected">{count(|t| t.rejected)}</dd></div>
                <div><dt>"pass"</dt><dd id="pass-ratio">{ratio}</dd></div>
            </dl>
        </div>
    }
}
