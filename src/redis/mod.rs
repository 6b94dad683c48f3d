//! The CLI's real-Redis runner (`ratelimit-sim redis`), native only: the multi-node scenario run
//! against a real server with real concurrent connections, beside the engine's simulation of it.
//!
//! - [`url`], [`conn`], [`resp`]: reaching the server (a small RESP2 client, no async runtime);
//! - [`proxy`]: a loopback proxy that adds the scenario's round trip for real;
//! - [`placement`]: where the run's keys live ([`cluster`]: a Redis Cluster's slots);
//! - [`layout`]: the run's keys and the commands of each store mode ([`increments`]: the
//!   scripts of the modes that count at the store after deciding on the node);
//! - [`node`]: one thread per node, deciding as the engine's nodes do ([`shared`]: what they
//!   share);
//! - [`dispatch`]: the arrivals in real time and the reference limiter;
//! - [`link`]: one node's connection to one server; [`msg`]: what the threads tell each other; [`replica`]: the replica a failover promotes
//!   or nodes read from (`--replica`), and the ledger that counts what a failover lost;
//! - [`check`]: what can run; [`round_trip`]: the calibrated delay proxy; [`run`]: setup, the
//!   nodes and cleanup; [`report`]: the output; [`error`]: why a run ended without one.

pub mod check;
pub mod clock;
pub mod cluster;
pub mod conn;
pub mod dispatch;
pub mod error;
pub mod increments;
pub mod interrupt;
pub mod layout;
pub mod link;
pub mod msg;
pub mod node;
pub mod placement;
pub mod proxy;
pub mod replica;
pub mod report;
pub mod resp;
pub mod round_trip;
pub mod run;
pub mod shared;
pub mod url;

pub use error::RunError;
pub use run::{run, Options};
