//! The embed page (`?embed=1`): a compact layout for a frame — no page chrome, a header line with
//! play, step and the counters, the cards the author chose (`show=`, the throughput chart if
//! none), the controls the author chose and a caption. It opens on the moment `t=` names, paused
//! with `autoplay=0`, in the theme `theme=` names. Like the full page it plays only while it can
//! be seen (not in a hidden tab, not scrolled out of the host page's view), reports its height and
//! status to the host ([`super::frame_messages`]), and takes the host's commands
//! ([`super::host_api`]).

use leptos::html::Div;
use leptos::prelude::*;

use super::embed_bar::EmbedBar;
use super::embed_cards::{CardView, EmbedCards};
use super::embed_controls::{ControlView, EmbedControls};
use super::frame_messages::use_frame_messages;
use super::host_api::use_host_api;
use super::notice::LinkNotice;
use crate::app::chart_env::provide_chart_env;
use crate::app::hooks::in_view::use_in_view;
use crate::app::hooks::media::use_media_query;
use crate::app::hooks::visibility::use_page_visible;
use crate::app::playground::Playground;
use crate::present::cluster::presets::is_cluster;
use crate::present::options::View;
use crate::present::share::cards::{fit, Card, Unfit};
use crate::present::share::frame::fit_controls;
use crate::present::share::link::{Link, Theme};
use crate::sim::query::Problem;
use crate::sim::server::keys::has_server;
use crate::sim::ParamError;
use crate::sim::{Capabilities, Nanos};

/// Simulated seconds computed at once when the reader prefers reduced motion.
const REDUCED_MOTION_PREVIEW: u64 = 30;

/// Pins the page's colours to `theme` (`data-theme` on `<html>`; `auto` leaves them to the
/// reader's system) and returns whether it is dark.
fn use_theme(theme: Theme) -> Signal<bool> {
    let system = use_media_query("(prefers-color-scheme: dark)");
    if let Some(root) = document().document_element() {
        let _ = match theme {
            Theme::Auto => root.remove_attribute("data-theme"),
            forced => root.set_attribute("data-theme", forced.key()),
        };
    }
    Signal::derive(move || match theme {
        Theme::Auto => system.get(),
        Theme::Light => false,
        Theme::Dark => true,
    })
}

/// The notice of a frame, compact: what its link did not use as given, the cards left out
/// (`show`) and the controls left out (`controls`), in words made only here.
pub fn embed_notice(problems: Vec<Problem>, unfit: Vec<Unfit>, controls_left_out: Option<String>) -> AnyView {
    let unfit = unfit.into_iter().map(|u| ParamError { param: "show".into(), message: u.message() });
    let controls = controls_left_out.map(|message| ParamError { param: "controls".into(), message });
    let notices = problems.iter().map(Problem::notice).chain(unfit).chain(controls).collect();
    view! { <LinkNotice notices=notices compact=true /> }.into_any()
}

/// The cards `link` shows, fitted to its scenario, and why each left out is.
pub fn fitted_cards(link: &Link) -> (Vec<Card>, Vec<Unfit>) {
    fit(&link.frame.cards, is_cluster(&link.scenario), has_server(&link.scenario.product))
}

/// Leaves out of `link` the controls its scenario cannot take, saying why.
pub fn fit_link_controls(link: &mut Link) -> Option<String> {
    let (kept, why) = fit_controls(&link.frame.controls, is_cluster(&link.scenario));
    link.frame.controls = kept;
    why
}

/// The whole embed page for `link`.
#[component]
pub fn EmbedApp(
    /// The address the frame was opened with.
    link: Link,
    /// The cards it shows, fitted to its scenario ([`fitted_cards`]).
    cards: Vec<Card>,
    /// Draws each card (the frame's module draws one server's cards only).
    card: CardView,
    /// Draws each control (the frame's module draws one server's controls only).
    control: ControlView,
    /// The notice naming what the link did not use as given ([`embed_notice`]; the frame's
    /// module reads only links without any, [`crate::present::share::link::Link::read_frame`],
    /// and shows none).
    notice: AnyView,
    /// The parts of the engine this module has.
    caps: Capabilities,
) -> impl IntoView {
    let reduced_motion = use_media_query("(prefers-reduced-motion: reduce)");
    provide_chart_env(use_theme(link.frame.theme));
    let calm = reduced_motion.get_untracked();
    let frame = link.frame;
    let pg = Playground::new(link.scenario, frame.autoplay && !calm, caps);
    if cards.contains(&Card::Compare) {
        pg.set_view(View::Compare);
    }
    // Where it opens, and where Reset takes it back to.
    let opened_at = if frame.at.as_nanos() == 0 && calm { Nanos::from_secs(REDUCED_MOTION_PREVIEW) } else { frame.at };
    if opened_at.as_nanos() > 0 {
        pg.jump_by(opened_at);
    }
    let root = NodeRef::<Div>::new();
    let visible = use_page_visible();
    let in_view = use_in_view(root);
    let seen = Signal::derive(move || visible.get() && in_view.get());
    pg.animate_while(seen);
    // Once seen, its charts have been drawn: it prints itself (embed.css), not the snippet's still.
    // (`seen` starts true until the observers first answer: their answer is what counts.)
    let ever_seen = RwSignal::new(false);
    Effect::new(move |answered: Option<()>| {
        if seen.get() && answered.is_some() {
            ever_seen.set(true);
        }
    });
    use_frame_messages(root, pg);
    use_host_api(pg, opened_at);
    let caption =
        (!frame.caption.is_empty()).then(|| view! { <p class="embed-caption" id="embed-caption">{frame.caption}</p> });
    view! {
        <div class="embed" node_ref=root data-seen=move || ever_seen.get().then_some("")>
            <EmbedBar playground=pg held=Signal::derive(move || !seen.get()) opened_at=opened_at />
            {notice}
            <EmbedCards playground=pg cards=cards card=card />
            <EmbedControls playground=pg controls=frame.controls control=control />
            {caption}
        </div>
    }
}
