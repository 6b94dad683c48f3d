//! [`RunError`]: why a run against Redis ended without a result, for the runner ([`super::run`]),
//! the [`Dispatcher`](super::dispatch::Dispatcher) it feeds the nodes with, and the CLI's exit
//! status.

/// Why a run ended without a result.
#[derive(Debug)]
pub enum RunError {
    /// The scenario or options cannot run against Redis (exit status 2).
    Invalid(String),
    /// The server could not be used (exit status 1). The key has been deleted if it could be.
    Server(String),
    /// Ctrl-C or SIGTERM (exit status 130). The key has been deleted if it could be.
    Interrupted(String),
}
