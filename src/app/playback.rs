//! The playback bar: play/pause, restart, speed, and the simulated clock.

use leptos::prelude::*;

use super::playground::Playground;

/// Speeds offered, in simulated seconds per real second.
const SPEEDS: [f64; 5] = [0.5, 1.0, 2.0, 5.0, 10.0];

/// Play/Pause and Restart buttons, a speed picker, and the simulated time.
#[component]
pub fn Playback(
    /// The page state whose loop this controls.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let toggle = move |_| pg.running.update(|r| *r = !*r);
    let on_speed = move |ev: leptos::ev::Event| {
        if let Ok(speed) = event_target_value(&ev).parse::<f64>() {
            pg.speed.set(speed);
        }
    };
    let clock = move || format!("t = {:.1} s", pg.snapshot.with(|s| s.now_secs));
    view! {
        <div class="playback">
            <button
                type="button"
                id="play"
                class="primary"
                on:click=toggle
            >
                {move || if pg.running.get() { "Pause" } else { "Play" }}
            </button>
            <button type="button" id="restart" on:click=move |_| pg.restart()>
                "Restart"
            </button>
            <label class="speed">
                "Speed "
                <select id="speed" on:change=on_speed>
                    {SPEEDS
                        .map(|s| {
                            view! {
                                <option value=s.to_string() selected=s == 1.0>
                                    {format!("{s}×")}
                                </option>
                            }
                        })
                        .to_vec()}
                </select>
            </label>
            <span class="clock" aria-live="off">
                {clock}
            </span>
        </div>
    }
}
