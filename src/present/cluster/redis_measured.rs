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
    Measured { nodes: 2, rtt_ms: 1, mode: "race", measured: 62, simulated: 40, reference: 219, sim_reference: 219 },
    Measured { nodes: 2, rtt_ms: 1, mode: "atomic", measured: 0, simulated: 0, reference: 219, sim_reference: 219 },
    Measured { nodes: 2, rtt_ms: 1, mode: "async", measured: 5, simulated: 5, reference: 990, sim_reference: 990 },
    Measured { nodes: 2, rtt_ms: 5, mode: "race", measured: 259, simulated: 219, reference: 219, sim_reference: 219 },
    Measured { nodes: 2, rtt_ms: 5, mode: "atomic", measured: 0, simulated: 0, reference: 219, sim_reference: 219 },
    Measured { nodes: 2, rtt_ms: 5, mode: "async", measured: 8, simulated: 7, reference: 990, sim_reference: 990 },
    Measured { nodes: 2, rtt_ms: 20, mode: "race", measured: 861, simulated: 892, reference: 219, sim_reference: 219 },
    Measured { nodes: 2, rtt_ms: 20, mode: "atomic", measured: 0, simulated: 0, reference: 219, sim_reference: 219 },
    Measured { nodes: 2, rtt_ms: 20, mode: "async", measured: 19, simulated: 19, reference: 990, sim_reference: 990 },
    Measured { nodes: 4, rtt_ms: 1, mode: "race", measured: 46, simulated: 40, reference: 219, sim_reference: 219 },
    Measured { nodes: 4, rtt_ms: 1, mode: "atomic", measured: 0, simulated: 0, reference: 219, sim_reference: 219 },
    Measured { nodes: 4, rtt_ms: 1, mode: "async", measured: 19, simulated: 19, reference: 990, sim_reference: 990 },
    Measured { nodes: 4, rtt_ms: 5, mode: "race", measured: 233, simulated: 219, reference: 219, sim_reference: 219 },
    Measured { nodes: 4, rtt_ms: 5, mode: "atomic", measured: 0, simulated: 0, reference: 219, sim_reference: 219 },
    Measured { nodes: 4, rtt_ms: 5, mode: "async", measured: 27, simulated: 26, reference: 990, sim_reference: 990 },
    Measured { nodes: 4, rtt_ms: 20, mode: "race", measured: 895, simulated: 892, reference: 218, sim_reference: 219 },
    Measured { nodes: 4, rtt_ms: 20, mode: "atomic", measured: 0, simulated: 0, reference: 218, sim_reference: 219 },
    Measured { nodes: 4, rtt_ms: 20, mode: "async", measured: 39, simulated: 37, reference: 990, sim_reference: 990 },
    Measured { nodes: 8, rtt_ms: 1, mode: "race", measured: 63, simulated: 40, reference: 219, sim_reference: 219 },
    Measured { nodes: 8, rtt_ms: 1, mode: "atomic", measured: 0, simulated: 0, reference: 219, sim_reference: 219 },
    Measured { nodes: 8, rtt_ms: 1, mode: "async", measured: 41, simulated: 42, reference: 990, sim_reference: 990 },
    Measured { nodes: 8, rtt_ms: 5, mode: "race", measured: 205, simulated: 219, reference: 219, sim_reference: 219 },
    Measured { nodes: 8, rtt_ms: 5, mode: "atomic", measured: 0, simulated: 0, reference: 219, sim_reference: 219 },
    Measured { nodes: 8, rtt_ms: 5, mode: "async", measured: 49, simulated: 50, reference: 990, sim_reference: 990 },
    Measured { nodes: 8, rtt_ms: 20, mode: "race", measured: 919, simulated: 892, reference: 216, sim_reference: 219 },
    Measured { nodes: 8, rtt_ms: 20, mode: "atomic", measured: 0, simulated: 0, reference: 216, sim_reference: 219 },
    Measured { nodes: 8, rtt_ms: 20, mode: "async", measured: 72, simulated: 71, reference: 990, sim_reference: 990 },
    Measured { nodes: 16, rtt_ms: 1, mode: "race", measured: 70, simulated: 40, reference: 219, sim_reference: 219 },
    Measured { nodes: 16, rtt_ms: 1, mode: "atomic", measured: 0, simulated: 0, reference: 219, sim_reference: 219 },
    Measured { nodes: 16, rtt_ms: 1, mode: "async", measured: 82, simulated: 83, reference: 990, sim_reference: 990 },
    Measured { nodes: 16, rtt_ms: 5, mode: "race", measured: 212, simulated: 219, reference: 218, sim_reference: 219 },
    Measured { nodes: 16, rtt_ms: 5, mode: "atomic", measured: 0, simulated: 0, reference: 218, sim_reference: 219 },
    Measured { nodes: 16, rtt_ms: 5, mode: "async", measured: 87, simulated: 87, reference: 990, sim_reference: 990 },
    Measured { nodes: 16, rtt_ms: 20, mode: "race", measured: 897, simulated: 892, reference: 213, sim_reference: 219 },
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
