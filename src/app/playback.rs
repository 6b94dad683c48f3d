//! The playback bar: play/pause, single step, reset, speed, fast-forward, and the simulated clock.

use leptos::prelude::*;

use super::playground::Playground;
use crate::present::options::{speed_value, JUMPS, SPEEDS};
use crate::present::units::{clock_text, format_number};

/// Playback controls. `held` says the loop is waiting although the user pressed Play (the tab is
/// hidden or the charts are scrolled out of view).
#[component]
pub fn Playback(
    /// The page state whose loop this controls.
    playground: Playground,
    /// Whether playing is on hold because the page cannot be seen.
    #[prop(into)]
    held: Signal<bool>,
) -> impl IntoView {
    let pg = playground;
    let toggle = move |_| pg.running.update(|r| *r = !*r);
    let on_speed = move |ev: leptos::ev::Event| {
        if let Some(speed) = crate::sim::support::nearest::nearest_f64(&event_target_value(&ev)) {
            pg.speed.set(speed);
        }
    };
    // A memo: the text node is written only when the shown text changes, not on every frame.
    let clock = Memo::new(move |_| clock_text(pg.readout.with(|s| s.now.as_secs_f64()), pg.running.get()));
    let status = move || match (pg.running.get(), held.get()) {
        (true, true) => "waiting while out of view",
        (true, false) => "running",
        (false, _) => "paused",
    };
    view! {
        <section class="panel playback" aria-label="Playback">
            <div class="playback-main">
                <button type="button" id="play" class="primary" aria-pressed=move || pg.running.get().to_string()
                    on:click=toggle>
                    {move || if pg.running.get() { "Pause" } else { "Play" }}
                </button>
                <button type="button" id="step" on:click=move |_| pg.step() title="Pause and run exactly the next event">
                    "Step"
                </button>
                <button type="button" id="reset" on:click=move |_| pg.reset() title="Start over from t = 0">
                    "Reset"
                </button>
                <label class="speed">
                    <span class="speed-word">"Speed"</span>
                    <select id="speed" on:change=on_speed>
                        {SPEEDS
                            .into_iter()
                            .map(|s| view! {
                                <option value=speed_value(s) prop:selected=move || pg.speed.get() == s>
                                    {format!("{}×", format_number(s))}
                                </option>
                            })
                            .collect::<Vec<_>>()}
                    </select>
                </label>
            </div>
            <div class="playback-jump" role="group" aria-label="Fast-forward">
                <span class="jump-label">"Jump ahead"</span>
                {JUMPS
                    .into_iter()
                    .map(|(secs, label)| view! {
                        <button type="button" id=format!("jump-{secs}") on:click=move |_| pg.jump(secs)
                            title=format!("Compute the next {secs} simulated seconds at once")>
                            {label}
                        </button>
                    })
                    .collect::<Vec<_>>()}
                <span class="clock" aria-live="off">
                    <span id="clock" data-ns=move || pg.readout.with(|s| s.now.as_nanos())>{move || clock.get()}</span>
                    <span class="clock-status" id="play-status">{status}</span>
                </span>
            </div>
        </section>
    }
}
