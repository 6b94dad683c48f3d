//! The cards an embed's author chose (`show=`), each the same component as on the full page, in
//! a grid that fits the frame's width: wide charts take a row, the others share one two by two
//! ([`full_rows`]).

use leptos::prelude::*;

use crate::app::cluster::code_view::CodeCard;
use crate::app::cluster::modes_view::ModesTable;
use crate::app::cluster::nodes_view::NodeBars;
use crate::app::cluster::outage_view::OutageCard;
use crate::app::cluster::stats_view::ClusterStats;
use crate::app::cluster::sweep_view::SweepCard;
use crate::app::cluster::swimlane_view::SwimlaneCard;
use crate::app::cluster::throughput_view::ClusterThroughput;
use crate::app::cluster::topology_view::TopologyCard;
use crate::app::compare_view::CompareView;
use crate::app::convergence_view::ConvergenceChart;
use crate::app::playground::Playground;
use crate::app::response::LastResponse;
use crate::app::server_view::server_card;
use crate::app::state_view::StateChart;
use crate::app::stats::Stats;
use crate::app::strip_view::RequestStrip;
use crate::app::throughput_view::ThroughputChart;
use crate::present::share::cards::{full_rows, Card};

/// Draws one card: `(playground, card, multi-node)`. A frame's own module
/// (`ratelimit-frame`) draws one server's cards ([`one_server_card`]); the whole page's module
/// every card ([`any_card`]), so the frame's module carries no multi-node or comparison code.
pub type CardView = fn(Playground, Card, bool) -> AnyView;

/// Whether `which` needs the whole page's module: Compare all, the server's cards, or any card
/// of a multi-node run.
pub fn needs_whole_page(which: Card, cluster: bool) -> bool {
    cluster || which == Card::Compare || which.multi_node() || which.server()
}

/// One card of a one-server run, as the page draws it (see [`needs_whole_page`] for the rest).
pub fn one_server_card(pg: Playground, which: Card, cluster: bool) -> AnyView {
    match which {
        _ if needs_whole_page(which, cluster) => ().into_any(),
        Card::Stats => view! { <Stats playground=pg /> }.into_any(),
        Card::State => view! { <StateChart playground=pg /> }.into_any(),
        Card::Steady => view! { <ConvergenceChart playground=pg /> }.into_any(),
        Card::Strip => view! { <RequestStrip playground=pg /> }.into_any(),
        Card::Response => view! { <LastResponse playground=pg /> }.into_any(),
        _ => view! { <ThroughputChart playground=pg /> }.into_any(),
    }
}

/// Any card as the page draws it; the throughput and counters are the cluster's in multi-node mode.
pub fn any_card(pg: Playground, which: Card, cluster: bool) -> AnyView {
    match (which, cluster) {
        (Card::Throughput, true) => view! { <ClusterThroughput playground=pg /> }.into_any(),
        (Card::Stats, true) => view! { <ClusterStats playground=pg /> }.into_any(),
        (Card::Compare, _) => view! { <CompareView playground=pg /> }.into_any(),
        (Card::Topology, _) => view! { <TopologyCard playground=pg /> }.into_any(),
        (Card::Swimlane, _) => view! { <SwimlaneCard playground=pg /> }.into_any(),
        (Card::Code, _) => view! { <CodeCard playground=pg /> }.into_any(),
        (Card::Nodes, _) => view! { <NodeBars playground=pg /> }.into_any(),
        (Card::Rtt, _) => view! { <ModesTable playground=pg /> }.into_any(),
        (Card::Sweep, _) => view! { <SweepCard playground=pg /> }.into_any(),
        (Card::Outage, _) => view! { <OutageCard playground=pg /> }.into_any(),
        (card, _) if card.server() => card.server_chart().map(|c| server_card(pg, c)).into_any(),
        _ => one_server_card(pg, which, false),
    }
}

/// The chosen cards, in order.
#[component]
pub fn EmbedCards(
    /// The page state to read from.
    playground: Playground,
    /// The cards, already fitted to the scenario (see [`super::embed::fitted_cards`]).
    cards: Vec<Card>,
    /// Draws each card.
    card: CardView,
) -> impl IntoView {
    let pg = playground;
    let cluster = pg.cluster.get_untracked();
    let full = full_rows(&cards);
    view! {
        <div class="embed-cards">
            {cards
                .into_iter()
                .zip(full)
                .map(|(c, alone)| {
                    view! {
                        <div class=if alone { "embed-card embed-card-wide" } else { "embed-card" } data-card=c.key()>
                            {card(pg, c, cluster)}
                        </div>
                    }
                })
                .collect_view()}
        </div>
    }
}
