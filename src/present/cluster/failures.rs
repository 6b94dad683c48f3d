//! "When the store fails" (issue #38): one-click stories of a replicated store failing — a
//! failover to a lagging replica in the middle of a window, nodes reading a lagging replica,
//! nodes whose clocks disagree, and a limit split over a cluster's keys —
//! each a whole scenario and what to watch in it. `tests/store_failures.rs` holds each to what it
//! claims, on the engine's numbers.

use crate::present::story::Story;

/// 100 per 10 s, the atomic script on four nodes, Poisson arrivals at 40/s; the primary dies at
/// 11 s and its replica, 1 s behind, takes over.
pub const FAILOVER: Story = Story {
    id: "failure-failover",
    label: "A failover in the middle of a window",
    query: "algo=fixed_window&limit=100&window=10&traffic=poisson&rate=40&seed=3&duration=30&nodes=4&store=atomic&\
            rtt=2&failover=11&replica_lag=1000",
    watch: "Four nodes share one counter through the atomic script: exactly 100 per 10 s window, as one exact \
            limiter. At 11 s the primary dies and its replica, a second behind (a busy one), takes over. What the \
            primary counted in that second never reached it: the counter rolls back, and the window admits those \
            requests again — Over-admitted jumps by the lost increments, here about 35.",
};

/// The same policy read from a replica 200 ms behind, at 50/s.
pub const REPLICA_READS: Story = Story {
    id: "failure-replica-reads",
    label: "Reading the count from a lagging replica",
    query: "algo=fixed_window&limit=100&window=10&traffic=poisson&rate=50&seed=3&duration=60&nodes=4&\
            store=replica_read&rtt=2&replica_lag=200",
    watch: "To spare the primary, each node reads the count from a replica 200 ms behind and sends its increment to \
            the primary. When a window fills, the requests of the last 200 ms read a count that has not seen the \
            newest increments, and pass: about rate × lag = 10 too many in every window, growing with the lag.",
};

/// Upstash's sliding window, whose script takes `now` from the caller, on four nodes whose clocks
/// are up to 300 ms apart.
pub const SKEWED_CLOCKS: Story = Story {
    id: "failure-skew",
    label: "Clocks 300 ms apart",
    query: "algo=upstash_sliding&limit=100&window=10&traffic=poisson&rate=50&seed=3&duration=60&nodes=4&\
            store=atomic&rtt=2&skew=300",
    watch: "Upstash's sliding window runs as one script in Redis, but takes now from the node that calls it, and \
            these four nodes' clocks are up to 300 ms apart. At every window's edge the nodes ahead count in the \
            next window's key while the others still count in this one: about 7 too many each window. Set “Time from” \
            to Redis TIME and it is exact again.",
};

/// The same policy at exactly its rate, split over four keys of a Redis Cluster.
pub const SHARDED: Story = Story {
    id: "failure-shards",
    label: "One hot key, or four",
    query: "algo=fixed_window&limit=100&window=10&traffic=poisson&rate=10&seed=3&duration=60&nodes=4&store=atomic&\
            rtt=2&shards=4",
    watch: "In a Redis Cluster one key lives on one primary: every request of a global limit goes to the same \
            shard. Here the limit is split over four keys on different slots, 25 each, and each request counts on \
            one at random. The load spreads — a quota bar per key in the cluster above — but the keys' shares are \
            uneven: one refuses while another has room, and Over-admitted goes below zero, about 24 fewer than one \
            exact limiter by 60 s. Split over 1 key and it is exact again, on one hot primary.",
};

/// The stories, in their buttons' order.
pub const STORIES: [Story; 4] = [FAILOVER, REPLICA_READS, SKEWED_CLOCKS, SHARDED];

/// What `make redis-table` measured on a real Redis, for the stories' failures, each beside the
/// engine's figure: the failover of [`FAILOVER`] (its policy, traffic, lag and store, over 20 s),
/// the replica reads of [`REPLICA_READS`] (over 30 s), clocks ±1 s apart with the atomic script,
/// and [`SHARDED`]'s policy over three keys of a three-primary cluster. `None` if a run is not in
/// the table.
pub fn measured_note() -> Option<String> {
    use crate::present::cluster::redis_measured::{FAILURES, VERSION};
    let find = |kind: &str, lag: u32, mode: &str| {
        FAILURES.iter().find(|f| f.kind == kind && f.lag_ms == lag && f.mode == mode)
    };
    let (f, r) = (find("failover", 1000, "atomic")?, find("replica_read", 200, "replica_read")?);
    let (skew, keys) = (find("skew", 1000, "atomic")?, find("cluster", 3, "atomic")?);
    let ops: Vec<String> = keys.ops.iter().map(u64::to_string).collect();
    Some(format!(
        "Measured on a real Redis {VERSION} (make redis-table): the failover lost {} increments ({} simulated) \
         and over-admitted {} ({}); reading the replica 200 ms behind over-admitted {} in three windows ({}); \
         clocks ±1 s apart over-admitted {} in three windows ({}); three keys on a three-primary cluster took \
         {} operations per primary and admitted {} fewer than one limiter ({}).",
        f.cost.0,
        f.cost.1,
        f.over.0,
        f.over.1,
        r.over.0,
        r.over.1,
        skew.over.0,
        skew.over.1,
        ops.join(" / "),
        -keys.over.0,
        -keys.over.1
    ))
}
