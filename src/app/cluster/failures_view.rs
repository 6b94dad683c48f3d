//! "When the store fails": the stories of a replicated store failing, one click each, with what to
//! watch ([`crate::present::cluster::failures`]); the replica's knobs are under Parameters.

use leptos::prelude::*;

use crate::app::fold::Fold;
use crate::app::playground::Playground;
use crate::app::stories::Stories;
use crate::present::cluster::failures::{measured_note, STORIES};

/// The panel.
#[component]
pub fn FailuresPanel(
    /// The page state.
    playground: Playground,
) -> impl IntoView {
    view! {
        <Fold playground=playground id="failures" class="failures" title="When the store fails">
            <p class="hint">
                "Redis replicates asynchronously. A failover promotes a replica that has not seen the last "
                "increments, and a replica read for speed answers with a count that is behind: both let "
                "requests through that one exact limiter refuses, as do nodes whose clocks disagree. "
                "Over-admitted, above, counts them; split over a cluster's keys, it goes below zero."
            </p>
            <Stories playground=playground stories=&STORIES cluster=true watch_id="failures-watch" />
            {measured_note().map(|note| view! { <p class="hint" id="failures-measured">{note}</p> })}
        </Fold>
    }
}
