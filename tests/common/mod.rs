//! Helpers shared by the native tests: running a query, recording what a chart draws.
#![allow(dead_code)]

pub mod recorder;

use ratelimit_playground::sim::{report, Report, Scenario};

/// Runs `query` (strictly parsed) to completion.
pub fn run(query: &str) -> Report {
    let sc = Scenario::from_query(query).unwrap_or_else(|e| panic!("{query}: {e}"));
    report::run(&sc).unwrap_or_else(|e| panic!("{query}: {e}"))
}
