//! The limiter's parameters, only those of the algorithm shown: capacity and refill (token
//! bucket, GCRA; the leaky bucket's queue size and drain rate, as its explanation says), or limit
//! and window (the window algorithms). Compare all runs both kinds on one policy, so it shows
//! both groups, the window's derived from the bucket by default so every algorithm allows the
//! same burst and the same long-run rate.

use leptos::prelude::*;

use crate::app::knob::{knob, CAPACITY, LIMIT, REFILL, WINDOW};
use crate::app::playground::Playground;
use crate::present::options::is_windowed;

/// The group of the algorithm shown (a product's, by the textbook algorithm it runs), or both
/// in Compare all.
#[component]
pub fn LimiterControls(
    /// The page state.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let sc = pg.scenario;
    // Memos, so a group is drawn anew only when the algorithm's kind changes, not on every edit
    // (a slider being dragged keeps its element).
    let windowed = Memo::new(move |_| is_windowed(pg.textbook()));
    let compare = Memo::new(move |_| pg.compare.get());
    let derived = move || sc.with(|s| s.limit.is_none() && s.window.is_none());
    let on_derive = move |ev: leptos::ev::Event| {
        if event_target_checked(&ev) {
            pg.edit(|s| (s.limit, s.window) = (None, None));
        } else {
            pg.edit(|s| (s.limit, s.window) = (Some(s.effective_limit()), Some(s.effective_window())));
        }
    };
    let bucket = move || {
        (compare.get() || !windowed.get()).then(|| {
            view! {
                <fieldset class="group in-use">
                    <legend>"Token bucket · GCRA · leaky bucket"</legend>
                    {knob(pg, &CAPACITY, Signal::stored(false))}
                    {knob(pg, &REFILL, Signal::stored(false))}
                </fieldset>
            }
        })
    };
    let windows = move || {
        let both = compare.get();
        (both || windowed.get()).then(|| {
            // Beside the bucket, the window may follow it; alone, its own two knobs.
            let follows = Signal::derive(move || both && derived());
            let matching = both.then(|| {
                view! {
                    <label class="check">
                        <input type="checkbox" id="derive-window" prop:checked=derived on:change=on_derive />
                        <span>"Match the bucket: limit = capacity, window = capacity ÷ refill"</span>
                    </label>
                }
            });
            view! {
                <fieldset class="group in-use">
                    <legend>"Windows"</legend>
                    {matching}
                    {knob(pg, &LIMIT, follows)}
                    {knob(pg, &WINDOW, follows)}
                </fieldset>
            }
        })
    };
    view! { {windows} {bucket} }
}
