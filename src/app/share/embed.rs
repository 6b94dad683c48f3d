//! The embed page (`?embed=1`): a compact layout for a 600 × 400 frame — no page chrome, a
//! header line, the throughput chart of one algorithm (compare mode does not fit; `view` is
//! ignored) and the controls the author chose. Like the full page it
//! plays only while it can be seen (not in a hidden tab, not scrolled out of the host page's
//! view), and it reports its height and status to the host ([`super::frame_messages`]).

use leptos::html::Div;
use leptos::prelude::*;

use super::embed_bar::EmbedBar;
use super::embed_controls::EmbedControls;
use super::frame_messages::use_frame_messages;
use super::link::Link;
use super::notice::LinkNotice;
use crate::app::chart_env::provide_chart_env;
use crate::app::in_view::use_in_view;
use crate::app::media::use_media_query;
use crate::app::playground::Playground;
use crate::app::raf::use_raf_fn;
use crate::app::throughput_view::ThroughputChart;
use crate::app::visibility::use_page_visible;

/// Simulated seconds computed at once when the reader prefers reduced motion.
const REDUCED_MOTION_PREVIEW: u64 = 30;

/// The whole embed page for `link`.
#[component]
pub fn EmbedApp(
    /// The address the frame was opened with.
    link: Link,
) -> impl IntoView {
    let reduced_motion = use_media_query("(prefers-reduced-motion: reduce)");
    let dark = use_media_query("(prefers-color-scheme: dark)");
    provide_chart_env(dark);
    let calm = reduced_motion.get_untracked();
    let pg = Playground::new(link.scenario, !calm);
    if calm {
        pg.jump(REDUCED_MOTION_PREVIEW);
    }
    let root = NodeRef::<Div>::new();
    let visible = use_page_visible();
    let in_view = use_in_view(root);
    let seen = Signal::derive(move || visible.get() && in_view.get());
    use_raf_fn(Signal::derive(move || pg.running.get() && seen.get()), move |delta_ms| pg.frame(delta_ms));
    use_frame_messages(root, pg);
    view! {
        <div class="embed" node_ref=root>
            <EmbedBar playground=pg held=Signal::derive(move || !seen.get()) />
            <LinkNotice notices=link.notices compact=true />
            <ThroughputChart playground=pg />
            <EmbedControls playground=pg controls=link.controls />
        </div>
    }
}
