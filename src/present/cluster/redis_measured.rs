//! Over-admission measured on a real Redis by `ratelimit-sim redis` (`make redis-table` writes
//! this file, `docs/redis-measured.json` and the README's table from one run), beside the
//! engine's figure for the same scenario: the multi-node view quotes them.

/// One measured scenario: `BASE` with `nodes`, `rtt_ms` and the store mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measured {
    /// Nodes.
    pub nodes: u32,
    /// Round trip, ms.
    pub rtt_ms: u32,
    /// `race`, `atomic` or `async`.
    pub mode: &'static str,
    /// Admitted beyond one exact limiter, measured on the real server.
    pub measured: i64,
    /// The same, simulated by the engine.
    pub simulated: i64,
    /// What one exact limiter admits on the measured arrival times.
    pub reference: u64,
    /// What one exact limiter admits on the simulated arrival times.
    pub sim_reference: u64,
}

/// The Redis version measured.
pub const VERSION: &str = "7.0.15";

/// The scenario of the race and atomic rows.
pub const BASE: &str = "capacity=20&refill=20&rate=200&traffic=poisson&duration=10&seed=7";

/// The scenario of the edge (async) rows.
pub const EDGE_BASE: &str =
    "algo=sliding_window&limit=100&window=1&rate=200&traffic=poisson&lb=random&duration=10&seed=7";

/// Every measured row.
pub const ROWS: &[Measured] = &[
    Measured { nodes: 2, rtt_ms: 1, mode: "race", measured: 53, simulated: 40, reference: 219, sim_reference: 219 },
    Measured { nodes: 2, rtt_ms: 1, mode: "atomic", measured: 0, simulated: 0, reference: 219, sim_reference: 219 },
    Measured { nodes: 2, rtt_ms: 1, mode: "async", measured: 5, simulated: 5, reference: 990, sim_reference: 990 },
    Measured { nodes: 2, rtt_ms: 5, mode: "race", measured: 256, simulated: 219, reference: 219, sim_reference: 219 },
    Measured { nodes: 2, rtt_ms: 5, mode: "atomic", measured: 0, simulated: 0, reference: 219, sim_reference: 219 },
    Measured { nodes: 2, rtt_ms: 5, mode: "async", measured: 6, simulated: 7, reference: 990, sim_reference: 990 },
    Measured { nodes: 2, rtt_ms: 20, mode: "race", measured: 861, simulated: 892, reference: 219, sim_reference: 219 },
    Measured { nodes: 2, rtt_ms: 20, mode: "atomic", measured: 0, simulated: 0, reference: 219, sim_reference: 219 },
    Measured { nodes: 2, rtt_ms: 20, mode: "async", measured: 19, simulated: 19, reference: 990, sim_reference: 990 },
    Measured { nodes: 4, rtt_ms: 1, mode: "race", measured: 55, simulated: 40, reference: 219, sim_reference: 219 },
    Measured { nodes: 4, rtt_ms: 1, mode: "atomic", measured: 0, simulated: 0, reference: 219, sim_reference: 219 },
    Measured { nodes: 4, rtt_ms: 1, mode: "async", measured: 19, simulated: 19, reference: 990, sim_reference: 990 },
    Measured { nodes: 4, rtt_ms: 5, mode: "race", measured: 231, simulated: 219, reference: 219, sim_reference: 219 },
    Measured { nodes: 4, rtt_ms: 5, mode: "atomic", measured: 0, simulated: 0, reference: 219, sim_reference: 219 },
    Measured { nodes: 4, rtt_ms: 5, mode: "async", measured: 26, simulated: 26, reference: 990, sim_reference: 990 },
    Measured { nodes: 4, rtt_ms: 20, mode: "race", measured: 899, simulated: 892, reference: 218, sim_reference: 219 },
    Measured { nodes: 4, rtt_ms: 20, mode: "atomic", measured: 0, simulated: 0, reference: 218, sim_reference: 219 },
    Measured { nodes: 4, rtt_ms: 20, mode: "async", measured: 40, simulated: 37, reference: 990, sim_reference: 990 },
    Measured { nodes: 8, rtt_ms: 1, mode: "race", measured: 60, simulated: 40, reference: 219, sim_reference: 219 },
    Measured { nodes: 8, rtt_ms: 1, mode: "atomic", measured: 0, simulated: 0, reference: 219, sim_reference: 219 },
    Measured { nodes: 8, rtt_ms: 1, mode: "async", measured: 41, simulated: 42, reference: 990, sim_reference: 990 },
    Measured { nodes: 8, rtt_ms: 5, mode: "race", measured: 203, simulated: 219, reference: 219, sim_reference: 219 },
    Measured { nodes: 8, rtt_ms: 5, mode: "atomic", measured: 0, simulated: 0, reference: 219, sim_reference: 219 },
    Measured { nodes: 8, rtt_ms: 5, mode: "async", measured: 49, simulated: 50, reference: 990, sim_reference: 990 },
    Measured { nodes: 8, rtt_ms: 20, mode: "race", measured: 917, simulated: 892, reference: 216, sim_reference: 219 },
    Measured { nodes: 8, rtt_ms: 20, mode: "atomic", measured: 0, simulated: 0, reference: 216, sim_reference: 219 },
    Measured { nodes: 8, rtt_ms: 20, mode: "async", measured: 70, simulated: 71, reference: 990, sim_reference: 990 },
    Measured { nodes: 16, rtt_ms: 1, mode: "race", measured: 64, simulated: 40, reference: 219, sim_reference: 219 },
    Measured { nodes: 16, rtt_ms: 1, mode: "atomic", measured: 0, simulated: 0, reference: 219, sim_reference: 219 },
    Measured { nodes: 16, rtt_ms: 1, mode: "async", measured: 83, simulated: 83, reference: 990, sim_reference: 990 },
    Measured { nodes: 16, rtt_ms: 5, mode: "race", measured: 239, simulated: 219, reference: 218, sim_reference: 219 },
    Measured { nodes: 16, rtt_ms: 5, mode: "atomic", measured: 0, simulated: 0, reference: 218, sim_reference: 219 },
    Measured { nodes: 16, rtt_ms: 5, mode: "async", measured: 87, simulated: 87, reference: 990, sim_reference: 990 },
    Measured { nodes: 16, rtt_ms: 20, mode: "race", measured: 941, simulated: 892, reference: 213, sim_reference: 219 },
    Measured { nodes: 16, rtt_ms: 20, mode: "atomic", measured: 0, simulated: 0, reference: 213, sim_reference: 219 },
    Measured {
        nodes: 16,
        rtt_ms: 20,
        mode: "async",
        measured: 109,
        simulated: 110,
        reference: 990,
        sim_reference: 990,
    },
];

/// One run of a store's failure: a failover (`kind` "failover", on `FAILOVER_BASE`), reads from
/// the replica ("replica_read", on `REPLICA_BASE`), skewed clocks ("skew", on `SKEW_BASE`) or
/// a three-primary Redis Cluster ("cluster", on `CLUSTER_BASE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Failure {
    /// `failover`, `replica_read`, `skew` or `cluster`.
    pub kind: &'static str,
    /// The replica's lag or the clocks' skew, ms; the cluster's keys (`shards`).
    pub lag_ms: u32,
    /// The store mode.
    pub mode: &'static str,
    /// Over-admitted, measured and simulated.
    pub over: (i64, i64),
    /// Lost increments (a failover) or stale reads (replica reads), measured and simulated.
    pub cost: (u64, u64),
    /// A cluster's store operations per primary, measured.
    pub ops: &'static [u64],
}

/// The failover runs' scenario, plus the row's `replica_lag` and `store`.
pub const FAILOVER_BASE: &str =
    "algo=fixed_window&limit=100&window=10&traffic=poisson&rate=40&seed=3&duration=20&nodes=4&rtt=2&failover=11";

/// The replica reads' scenario, plus the row's `replica_lag` and `store=replica_read`.
pub const REPLICA_BASE: &str =
    "algo=fixed_window&limit=100&window=10&traffic=poisson&rate=50&seed=3&duration=30&nodes=4&rtt=2";

/// The skewed clocks' scenario, plus the row's `skew` and `store`.
pub const SKEW_BASE: &str =
    "algo=fixed_window&limit=100&window=10&traffic=poisson&rate=50&seed=3&duration=30&nodes=4&rtt=2";

/// The cluster's scenario, plus the row's `shards`.
pub const CLUSTER_BASE: &str =
    "algo=fixed_window&limit=100&window=10&traffic=poisson&rate=10&seed=3&duration=60&nodes=4&rtt=2&store=atomic";

/// Every failure run.
pub const FAILURES: &[Failure] = &[
    Failure { kind: "failover", lag_ms: 100, mode: "atomic", over: (3, 3), cost: (3, 3), ops: &[] },
    Failure { kind: "failover", lag_ms: 100, mode: "async", over: (9, 9), cost: (3, 3), ops: &[] },
    Failure { kind: "replica_read", lag_ms: 100, mode: "replica_read", over: (20, 20), cost: (329, 331), ops: &[] },
    Failure { kind: "failover", lag_ms: 200, mode: "atomic", over: (7, 7), cost: (7, 7), ops: &[] },
    Failure { kind: "failover", lag_ms: 200, mode: "async", over: (13, 13), cost: (7, 7), ops: &[] },
    Failure { kind: "replica_read", lag_ms: 200, mode: "replica_read", over: (35, 35), cost: (359, 361), ops: &[] },
    Failure { kind: "failover", lag_ms: 400, mode: "atomic", over: (15, 15), cost: (15, 15), ops: &[] },
    Failure { kind: "failover", lag_ms: 400, mode: "async", over: (21, 21), cost: (15, 15), ops: &[] },
    Failure { kind: "replica_read", lag_ms: 400, mode: "replica_read", over: (68, 68), cost: (431, 433), ops: &[] },
    Failure { kind: "failover", lag_ms: 1000, mode: "atomic", over: (34, 34), cost: (34, 34), ops: &[] },
    Failure { kind: "failover", lag_ms: 1000, mode: "async", over: (40, 40), cost: (34, 34), ops: &[] },
    Failure { kind: "replica_read", lag_ms: 1000, mode: "replica_read", over: (164, 164), cost: (598, 600), ops: &[] },
    Failure { kind: "skew", lag_ms: 300, mode: "atomic", over: (19, 17), cost: (0, 0), ops: &[] },
    Failure { kind: "skew", lag_ms: 1000, mode: "atomic", over: (38, 37), cost: (0, 0), ops: &[] },
    Failure { kind: "skew", lag_ms: 1000, mode: "async", over: (24, 24), cost: (0, 0), ops: &[] },
    Failure { kind: "cluster", lag_ms: 1, mode: "atomic", over: (0, 0), cost: (0, 0), ops: &[597, 0, 0] },
    Failure { kind: "cluster", lag_ms: 3, mode: "atomic", over: (-15, -15), cost: (0, 0), ops: &[205, 208, 184] },
    Failure { kind: "cluster", lag_ms: 6, mode: "atomic", over: (-37, -37), cost: (0, 0), ops: &[205, 208, 184] },
];
