//! The CLI's real-Redis runner (`ratelimit-sim redis`), native only: the multi-node scenario run
//! against a real server with real concurrent connections, beside the engine's simulation of it.
//!
//! - [`url`], [`conn`], [`resp`]: reaching the server (a small RESP2 client, no async runtime);
//! - [`proxy`]: a loopback proxy that adds the scenario's round trip for real;
//! - [`layout`]: the run's one key and the commands of each store mode;
//! - [`node`]: one thread and one connection per node, deciding as the engine's nodes do;
//! - [`dispatch`]: the arrivals in real time and the reference limiter;
//! - [`run`]: checks, setup, the nodes and cleanup; [`report`]: the output; [`error`]: why a run
//!   ended without one.

pub mod clock;
pub mod conn;
pub mod dispatch;
pub mod error;
pub mod interrupt;
pub mod layout;
pub mod node;
pub mod proxy;
pub mod report;
pub mod resp;
pub mod run;
pub mod url;

pub use error::RunError;
pub use run::{run, Options};
