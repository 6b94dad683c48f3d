//! The engine: an exact, deterministic simulation of rate limiters, traffic and clusters.
//!
//! Pure Rust: no web crates, no wall clock, one seeded RNG per run, simulated time in integer
//! nanoseconds. The app, the `ratelimit-sim` CLI and the tests all drive this same code, and the
//! same scenario gives the same bytes out natively and in WebAssembly.

pub mod algorithm;
pub mod cluster;
pub mod compare;
pub mod decision;
pub mod engine;
pub mod limiter;
mod ln_table;
pub mod logs;
pub mod metrics;
pub mod peak;
pub mod product_runs;
pub mod products;
pub mod query;
pub mod queue;
pub mod rate;
pub mod replica;
pub mod report;
pub mod retry;
pub mod rng;
pub mod samples;
pub mod scenario;
pub mod server;
pub mod shards;
pub mod store;
pub mod store_keys;
pub mod support;
pub mod sweep;
mod tables;
pub mod time;
pub mod trace;
pub mod traffic;
mod zig_table;

pub use algorithm::{Algorithm, ProductId};
pub use compare::{Comparison, Disagreement};
pub use decision::{Decision, DecisionRecord, Quota, Status, Verdict};
pub use engine::{Capabilities, Lacking, Simulation};
pub use limiter::{
    AnyLimiter, FixedWindow, Gauge, Gcra, LeakyQueue, Limiter, LimiterState, SlidingLog, SlidingWindow, TokenBucket,
};
pub use metrics::{Bucket, Event, EventKind, Metrics, Totals};
pub use query::ParamError;
pub use rate::Rate;
pub use report::{run, Report};
pub use retry::Retry;
pub use rng::SimRng;
pub use scenario::{Balancer, FailMode, Outage, RetryPolicy, Scenario, StoreMode, TrafficShape};
pub use time::{Nanos, SimTime};
pub use trace::{Trace, TraceError};
