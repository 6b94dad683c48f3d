//! The multi-node view: headline numbers, the swimlane of store operations beside the code being
//! executed, the cluster with requests flowing, throughput, admitted per node and the cost of
//! each store mode, what an outage let through, the stories of a failing store, and the edge
//! design's sweep.

use leptos::prelude::*;

use super::code_view::CodeCard;
use super::failures_view::FailuresPanel;
use super::modes_view::ModesTable;
use super::nodes_view::NodeBars;
use super::outage_view::OutageCard;
use super::stats_view::ClusterStats;
use super::sweep_view::SweepCard;
use super::swimlane_view::SwimlaneCard;
use super::throughput_view::ClusterThroughput;
use super::topology_view::TopologyCard;
use crate::app::playground::Playground;

/// Everything shown in multi-node mode.
#[component]
pub fn ClusterView(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    view! {
        <ClusterStats playground=pg />
        // The over-admission, then the store operations that cause it, in the first screen.
        <div class="pair pair-wide cluster-pair">
            <SwimlaneCard playground=pg />
            <CodeCard playground=pg />
        </div>
        <TopologyCard playground=pg />
        <OutageCard playground=pg />
        <FailuresPanel playground=pg />
        <ClusterThroughput playground=pg />
        <div class="pair cluster-pair">
            <NodeBars playground=pg />
            <ModesTable playground=pg />
        </div>
        <SweepCard playground=pg />
    }
}
