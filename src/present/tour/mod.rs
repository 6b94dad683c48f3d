//! The learner's tour (`?tour=path&step=N`): ten steps in the order people learn rate limiting,
//! from the per-client counter everyone writes first to a cluster's store going down and clients
//! retrying in waves. Each step is one scenario, the one chart that shows it, and what to watch
//! in it, with every number in the text computed by the engine from that scenario
//! ([`lessons`]); `tests/tour.rs` holds each step to what its text claims.

pub mod lessons;

use crate::sim::Scenario;

/// The tour's name in a link (`tour=path`): the one tour there is.
pub const NAME: &str = "path";

/// The chart a step shows: the one that makes its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chart {
    /// One server's throughput: admitted and rejected per second, the limit, the seam marked.
    Throughput,
    /// The cluster's throughput: admitted across the nodes against what the limit allows.
    ClusterThroughput,
    /// The swimlane: each node's requests and their round trips to the store.
    Swimlane,
}

/// One step of the tour.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// Its heading.
    pub title: &'static str,
    /// Its scenario, as a query.
    pub query: &'static str,
    /// The chart that shows it.
    pub chart: Chart,
    /// What to watch, in a sentence or two, with the engine's numbers for `query`.
    pub lesson: fn(&Scenario) -> String,
}

impl Step {
    /// The step's scenario.
    pub fn scenario(&self) -> Scenario {
        Scenario::from_query(self.query).expect("a tour step's query is valid")
    }

    /// Whether the step runs in the multi-node view.
    pub fn multi_node(&self) -> bool {
        crate::present::cluster::presets::is_cluster(&self.scenario())
    }

    /// What to watch in it, with the engine's numbers.
    pub fn watch(&self) -> String {
        (self.lesson)(&self.scenario())
    }
}

/// The steps, in order; a link's `step=N` counts from 1.
pub const STEPS: [Step; 10] = [
    Step {
        title: "A counter per client, reset every second",
        query: "algo=fixed_window&limit=10&window=1&traffic=poisson&rate=15&seed=1&duration=30",
        chart: Chart::Throughput,
        lesson: lessons::counter,
    },
    Step {
        title: "The seam: twice the limit across a boundary",
        query: "algo=fixed_window&limit=10&window=1&traffic=seam&duration=30",
        chart: Chart::Throughput,
        lesson: lessons::seam,
    },
    Step {
        title: "The sliding window, and what it approximates",
        query: "algo=sliding_window&limit=10&window=1&traffic=poisson&rate=15&seed=1&duration=30",
        chart: Chart::Throughput,
        lesson: lessons::sliding,
    },
    Step {
        title: "The token bucket: burst, refill, steady state",
        query: "algo=token_bucket&capacity=10&refill=5&rate=8&duration=30",
        chart: Chart::Throughput,
        lesson: lessons::bucket,
    },
    Step {
        title: "A second server: each counts on its own",
        query: "algo=fixed_window&limit=10&window=1&traffic=poisson&rate=40&seed=1&duration=30&nodes=2&store=local",
        chart: Chart::ClusterThroughput,
        lesson: lessons::per_node,
    },
    Step {
        title: "One Redis, GET then SET: the race",
        query: "algo=fixed_window&limit=50&window=1&traffic=poisson&rate=100&seed=1&duration=30&nodes=4&store=race&rtt=20",
        chart: Chart::Swimlane,
        lesson: lessons::race,
    },
    Step {
        title: "The atomic script: exact, one round trip a request",
        query: "algo=fixed_window&limit=50&window=1&traffic=poisson&rate=100&seed=1&duration=30&nodes=4&store=atomic&rtt=20",
        chart: Chart::ClusterThroughput,
        lesson: lessons::atomic,
    },
    Step {
        title: "The edge: decide locally, sync later",
        query: crate::sim::sweep::EDGE_PRESET,
        chart: Chart::ClusterThroughput,
        lesson: lessons::edge,
    },
    Step {
        title: "The store goes down: fail open or fail closed",
        query: "algo=fixed_window&limit=50&window=1&traffic=poisson&rate=100&seed=1&duration=30&nodes=4&store=atomic&rtt=2\
                &outage=10-20&fail=open",
        chart: Chart::ClusterThroughput,
        lesson: lessons::outage,
    },
    Step {
        title: "Retries in waves, and jitter",
        query: "algo=fixed_window&limit=10&window=1&traffic=clients&clients=40&rate=20&seed=1&duration=30&retry=exact\
                &retries=5",
        chart: Chart::Throughput,
        lesson: lessons::retries,
    },
];

/// The step a link's `step=N` names (1 to [`STEPS`]'s length).
pub fn step(n: usize) -> Option<&'static Step> {
    n.checked_sub(1).and_then(|i| STEPS.get(i))
}
