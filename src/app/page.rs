//! The page: header, algorithm picker, parameters, playback and the chosen view, wired to one
//! [`Playground`] and its animation loop. The loop runs only while the user wants it to *and* the
//! page can be seen: not in a hidden tab, not with the playground scrolled out of view.

use leptos::html::Main;
use leptos::prelude::*;

use super::algo_picker::AlgoPicker;
use super::chart_env::provide_chart_env;
use super::cluster::{ClusterControls, ClusterView, ModeSwitch};
use super::compare_view::CompareView;
use super::controls::Controls;
use super::explain_view::Explanation;
use super::fold::{start_folds, Fold};
use super::hooks::in_view::use_in_view;
use super::hooks::media::use_media_query;
use super::hooks::settled::use_settled;
use super::hooks::visibility::use_page_visible;
use super::playback::Playback;
use super::playground::Playground;
use super::share::{
    any_card, any_control, apply_view, embed_notice, fit_link_controls, fitted_cards, needs_whole_page,
    one_server_card, one_server_control, read_frame_link, read_link, read_page_link, use_url_sync, EmbedApp,
    LinkNotice, ProductionPanel, ShareBar,
};
use super::single_view::SingleView;
use super::split::stand_in::{
    frame_loading_view, loading_view, page_loading_view, panel_stand_in, products_stand_in, share_stand_in,
    trace_stand_in, StandIn,
};
use super::split::whole_page::{resume_when_mounted, take_handover};
use super::tour::TourOffer;
use crate::present::explain::Explanation as ExplanationText;
use crate::present::handover::Handover;
use crate::present::options::View;
use crate::present::share::link::Link;
use crate::sim::engine::capabilities::Part;
use crate::sim::query::Problem;
use crate::sim::{Capabilities, Nanos, Scenario};

/// Simulated seconds computed at once when the user prefers reduced motion, so the page opens
/// on a finished picture instead of an animation.
const REDUCED_MOTION_PREVIEW: u64 = 30;

/// The scenario the page opens with: the engine's default, the same a link or the CLI opens
/// without keys — arrivals above the refill rate, so the first rejection, the steady state and
/// the 429s are all there to see within seconds.
fn first_scenario() -> Scenario {
    Scenario::default()
}

/// What a frame shows (`?embed=1`): the compact layout of [`EmbedApp`], one server's cards. It is
/// built as a wasm module of its own (`ratelimit-frame`), which the page's loader starts for embed
/// links, so a blog post's frames do not load the whole page, nor the page the frame's code. A
/// frame of a multi-node run or of Compare all is the whole page's ([`WholeEmbedPage`]): the
/// loader starts that module for it, and should it miss one, this frame hands over to it. So
/// does any link the whole page's module would change and explain (a bad value, an unknown key,
/// a card the scenario cannot show): this module reads only clean ones
/// ([`Link::read_frame`]) and carries none of the messages. So does a frame of a scenario that
/// needs a part of the engine this module was not given (a product model, a shared store, a
/// server: `caps`), so that adding a product does not grow what every embed loads.
#[component]
pub fn EmbedPage(
    /// The parts of the engine this module has ([`crate::present::modules::FRAME`]).
    caps: Capabilities,
) -> impl IntoView {
    let Some(link) = read_frame_link(&first_scenario(), caps) else {
        return frame_loading_view();
    };
    let cluster = crate::present::cluster::presets::is_cluster(&link.scenario);
    let (cards, unfit) = fitted_cards(&link);
    let cluster_controls = link.frame.controls.iter().any(|c| c.multi_node());
    if !unfit.is_empty() || cluster_controls || cards.iter().any(|&c| needs_whole_page(c, cluster)) {
        return frame_loading_view();
    }
    view! { <EmbedApp link=link cards=cards card=one_server_card control=one_server_control notice=().into_any() caps=caps /> }
        .into_any()
}

/// A frame as the whole page's module draws it: any card, multi-node and Compare all included.
#[component]
pub fn WholeEmbedPage(
    /// The parts of the engine this module has ([`crate::present::modules::WHOLE`]).
    caps: Capabilities,
) -> impl IntoView {
    let (mut link, problems) = read_link(&first_scenario());
    let (cards, unfit) = fitted_cards(&link);
    let controls_left_out = fit_link_controls(&mut link);
    let notice = embed_notice(problems, unfit, controls_left_out);
    view! { <EmbedApp link=link cards=cards card=any_card control=any_control notice=notice caps=caps /> }
}

/// What the whole page's module (`ratelimit-full`) shows: a frame for an embed link, else the
/// whole page.
#[component]
pub fn WholeApp(
    /// The parts of the engine this module has ([`crate::present::modules::WHOLE`]).
    caps: Capabilities,
) -> impl IntoView {
    if read_link(&first_scenario()).0.embed {
        view! { <WholeEmbedPage caps=caps /> }.into_any()
    } else {
        view! { <App caps=caps /> }.into_any()
    }
}

/// What draws the parts of the page that only some visitors open: the whole page's module draws
/// them, the light page stands in for them until it has handed over (see [`super::split::whole_page`]).
#[derive(Clone, Copy)]
pub struct Parts {
    /// The multi-node view.
    pub cluster: fn(Playground) -> AnyView,
    /// Above the limiter's parameter groups: the cluster's (in multi-node mode), and which
    /// product model reads them.
    pub cluster_controls: fn(Playground) -> AnyView,
    /// Compare all: the five algorithms side by side (on the light page, a stand-in that hands
    /// it over, and the leaky bucket's queue too).
    pub compare: fn(Playground) -> AnyView,
    /// The share bar: Share link, Embed and the exports.
    pub share: fn(Playground) -> AnyView,
    /// The product picker and the chosen product's knobs.
    pub products: fn(Playground) -> AnyView,
    /// "Your traffic": the log panel.
    pub logs: fn(Playground) -> AnyView,
    /// "Use this in production".
    pub production: fn(Playground) -> AnyView,
    /// "What the limiter protects": the server behind it.
    pub server: fn(Playground) -> AnyView,
    /// The explanation of a view: every view's, or the textbook algorithms' and Compare all's.
    pub explain: fn(View) -> ExplanationText,
    /// "Replay my traffic"'s trace box; the callback is told once a trace is in use.
    pub trace: fn(Playground, Callback<()>) -> AnyView,
    /// The [`Handover`] a light page left, if one started this page, with what it asks done once
    /// the page has mounted (only the whole page is ever started by a hand-over).
    pub handover: fn() -> Option<Handover>,
    /// The learner's tour, where this module draws it (the light page hands a tour link over
    /// before it mounts, and offers the tour as a plain link).
    pub tour: Option<TourParts>,
    /// The parts of the engine this module has: a scenario needing another is drawn by a part
    /// above that hands it over.
    pub caps: Capabilities,
}

/// How a module draws the learner's tour ([`super::tour`]).
#[derive(Clone, Copy)]
pub struct TourParts {
    /// The step shown, with the playback bar given.
    pub step: fn(Playground, AnyView) -> AnyView,
    /// Starts the tour at its first step, in place.
    pub start: fn(Playground),
}

/// The whole page (`ratelimit-full`): every view and panel.
#[component]
pub fn App(
    /// The parts of the engine this module has ([`crate::present::modules::WHOLE`]).
    caps: Capabilities,
) -> impl IntoView {
    let parts = Parts {
        cluster: |pg| view! { <ClusterView playground=pg /> }.into_any(),
        cluster_controls: |pg| {
            let multi_node = Memo::new(move |_| pg.cluster.get());
            view! {
                {move || multi_node.get().then(|| view! { <ClusterControls playground=pg /> })}
                {super::controls::product_reads(pg)}
            }
            .into_any()
        },
        compare: |pg| view! { <CompareView playground=pg /> }.into_any(),
        share: |pg| view! { <ShareBar playground=pg /> }.into_any(),
        products: |pg| view! { <super::controls::ProductControls playground=pg /> }.into_any(),
        logs: |pg| {
            view! {
                <Fold playground=pg id="logs" class="logs" title=LOGS.title keep=true>
                    <super::logs::LogsPanel playground=pg />
                </Fold>
            }
            .into_any()
        },
        production: |pg| view! { <ProductionPanel playground=pg /> }.into_any(),
        server: |pg| view! { <super::server_view::ServerPanel playground=pg /> }.into_any(),
        explain: crate::present::explain::explain,
        trace: |pg, loaded| view! { <super::controls::TraceInput playground=pg on_loaded=loaded /> }.into_any(),
        handover: || take_handover().inspect(resume_when_mounted).or_else(opening_moment),
        tour: Some(TourParts {
            step: |pg, playback| view! { <super::tour::TourStep playground=pg playback=playback /> }.into_any(),
            start: super::tour::start,
        }),
        caps,
    };
    let (link, problems) = read_link(&first_scenario());
    let notice = view! { <LinkNotice notices=problems.iter().map(Problem::notice).collect() /> }.into_any();
    view! { <Page parts=parts link=link notice=notice /> }
}

/// A page link to a moment (`t=`, paused with `autoplay=0`: an embed's "Open in the playground ↗")
/// opens the whole page on that moment, computed at once, as a hand-over does. (The light page
/// reads no such link: the loader starts the whole page for it.)
fn opening_moment() -> Option<Handover> {
    let frame = read_link(&first_scenario()).0.frame;
    (frame.at.as_nanos() > 0).then(|| Handover::at_moment(frame.at.as_nanos(), frame.autoplay))
}

/// The log panel as the light page shows it until the whole page is loaded.
const LOGS: StandIn = StandIn {
    id: "logs",
    class: "logs stand-in",
    title: "Your traffic: who would get a 429?",
    blurb: "Replay your own access log (nginx, Apache, JSON, CSV, ALB, CloudFront) through this policy, one limiter per client, and see who would have been refused — with the smallest policy that spares your clients. The log is read inside your browser and never leaves it.",
    button: ("logs-load", "Open the log tools"),
    focus: "log-sample-api",
};

/// The production panel as the light page shows it until the whole page is loaded.
const PRODUCTION: StandIn = StandIn {
    id: "production",
    class: "production stand-in",
    title: "Use this in production",
    blurb: "This policy as configuration for the proxies, gateways and libraries that enforce it, with the units and burst semantics each one gets wrong — and each config run as that product computes it.",
    button: ("production-load", "Show the configurations"),
    focus: "production-tab-0",
};

/// The server behind the limiter as the light page shows it until the whole page is loaded.
const SERVER: StandIn = StandIn {
    id: "server",
    class: "server stand-in",
    title: "What the limiter protects",
    blurb:
        "The server behind it: latency at 90 % load, retry storms that outlive their spike, and what a limiter changes.",
    button: ("server-load", "Show the server"),
    focus: "server-preset-storm",
};

/// What every visitor loads first (`ratelimit-playground`): one server's limiter, run and drawn.
/// Asking for anything else hands over to the whole page ([`App`]), and so does a link whose
/// scenario needs a part of the engine this module was not given (a product model, a shared
/// store, a server: `caps`; the loader starts the whole page for most, this is the fallback), and
/// any link the whole page would change and explain (a bad value, an unknown key, an embed's
/// key): the light page reads only clean ones ([`Link::read_page`]), and so carries neither the
/// messages nor the embed keys.
#[component]
pub fn LightApp(
    /// The parts of the engine this module has ([`crate::present::modules::PAGE`]).
    caps: Capabilities,
) -> impl IntoView {
    let Some(link) = read_page_link(&first_scenario(), caps) else {
        return page_loading_view();
    };
    let parts = Parts {
        cluster: |pg| loading_view(pg, "the multi-node view"),
        cluster_controls: |_| ().into_any(),
        compare: |pg| loading_view(pg, if pg.compare.get_untracked() { "the comparison" } else { "the leaky bucket" }),
        share: share_stand_in,
        products: products_stand_in,
        logs: |pg| panel_stand_in(pg, LOGS),
        production: |pg| panel_stand_in(pg, PRODUCTION),
        server: |pg| panel_stand_in(pg, SERVER),
        explain: crate::present::explain::explain_textbook,
        trace: trace_stand_in,
        handover: || None,
        tour: None,
        caps,
    };
    view! { <Page parts=parts link=link notice=().into_any() /> }.into_any()
}

/// The page. Starts paused (on a computed preview) when the user prefers reduced motion; started
/// by the light page's hand-over, it goes on where the light page was: the same moment of the
/// same run, playing or paused, at the same speed, scrolled and focused as it was.
/// An embed link opens [`EmbedPage`] in its own module instead (the loader picks).
#[component]
fn Page(
    /// How the parts only some visitors open are drawn.
    parts: Parts,
    /// The address, as read.
    link: Link,
    /// The notice naming the link's parameters that were not used as given (the light page
    /// reads only links without any, [`Link::read_page`], and shows none).
    notice: AnyView,
) -> impl IntoView {
    let reduced_motion = use_media_query("(prefers-reduced-motion: reduce)");
    let dark = use_media_query("(prefers-color-scheme: dark)");
    provide_chart_env(dark);
    let calm = reduced_motion.get_untracked();
    let handover = (parts.handover)();
    // Handed over, the light page was painted already: everything mounts at once.
    let settled = use_settled(handover.is_some());
    let running = handover.as_ref().map_or(!calm, |h| h.running);
    let pg = Playground::new(link.scenario.clone(), running, parts.caps);
    apply_view(pg, link.view);
    start_folds(pg, handover.as_ref().map(|h| h.folds.clone()));
    pg.tour.set(link.tour.filter(|_| parts.tour.is_some()));
    use_url_sync(pg);
    if let Some(h) = handover {
        pg.speed.set(h.speed);
        pg.jump_by(Nanos(h.at_ns));
    } else if calm {
        pg.jump(REDUCED_MOTION_PREVIEW);
    }
    let playground_area = NodeRef::<Main>::new();
    let visible = use_page_visible();
    let in_view = use_in_view(playground_area);
    let seen = Signal::derive(move || visible.get() && in_view.get());
    pg.animate_while(seen);
    // Memos, so each view is drawn anew only when it changes, not whenever a flag is set again.
    // (Compare all, and the leaky bucket's queue where this module cannot run it: the light
    // page's `compare` part hands both over to the whole page.)
    let compare = Memo::new(move |_| pg.compare.get() || pg.scenario.with(|sc| pg.caps.lacks(sc, Part::Models)));
    let cluster = Memo::new(move |_| pg.cluster.get());
    let single_or_cluster = move || {
        if cluster.get() {
            (parts.cluster)(pg)
        } else {
            view! { <SingleView playground=pg /> }.into_any()
        }
    };
    let touring = Memo::new(move |_| pg.tour.get().is_some());
    let held = Signal::derive(move || !seen.get());
    // The header's pickers and bars belong to the full page; the tour shows one step.
    let pickers = move || {
        (!touring.get()).then(|| {
            view! {
                <TourOffer playground=pg start=parts.tour.map(|t| t.start) />
                <AlgoPicker playground=pg />
                <div class="header-tools">
                    {(parts.products)(pg)}
                    <ModeSwitch playground=pg />
                    {(parts.share)(pg)}
                </div>
            }
        })
    };
    let content = move || match parts.tour.filter(|_| touring.get()) {
        Some(tour) => {
            let playback = view! { <Playback playground=pg held=held /> }.into_any();
            view! { <div class="results tour-results">{(tour.step)(pg, playback)}</div> }.into_any()
        }
        None => view! {
            <Controls playground=pg cluster=parts.cluster_controls trace=parts.trace settled=settled />
            <div class="results">
                <Playback playground=pg held=held />
                {move || if compare.get() { (parts.compare)(pg) } else { single_or_cluster() }}
                {move || settled.get().then(|| view! {
                    <Explanation playground=pg explain=parts.explain />
                    {(parts.server)(pg)}
                    {(parts.logs)(pg)}
                    {(parts.production)(pg)}
                })}
            </div>
        }
        .into_any(),
    };
    view! {
        <header class="site-header" class:touring=move || touring.get()>
            <h1>"Rate limiter playground"</h1>
            <p class="lede">
                "Six rate-limiting algorithms, and the limiters people run, simulated exactly and running live. "
                <span class="lede-more">"Move a slider and watch which requests get through, which get a 429, and why."</span>
            </p>
            {pickers}
            {notice}
        </header>
        <main class="layout" class:touring=move || touring.get() node_ref=playground_area>
            {content}
        </main>
    }
}
