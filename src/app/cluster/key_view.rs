//! One entry of the key under a cluster picture (the swimlane's, the topology's), in its ink's
//! class (cluster.css); the words are [`crate::present::cluster::keys`]'.

use leptos::prelude::*;

use crate::present::cluster::keys::{KeyInk, KeyItem};

/// One entry of a picture's key.
pub fn key_item((words, ink): KeyItem) -> impl IntoView {
    let class = match ink {
        KeyInk::Plain => "",
        KeyInk::Admitted => "key-admitted",
        KeyInk::Rejected => "key-rejected",
        KeyInk::Incoming => "key-in",
        KeyInk::Operation => "key-op",
        KeyInk::Quota => "key-quota",
        KeyInk::Lost => "key-lost",
    };
    view! { <span class=class>{words}</span> }
}
