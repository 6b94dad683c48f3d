//! [`check`]: what the real-Redis runner can run — the textbook algorithms on a shared store, in
//! whole milliseconds, within a bounded number of requests and wall time — each refusal naming
//! the parameter and what is allowed.

use super::clock::Clock;
use super::error::RunError;
use crate::sim::{Scenario, StoreMode};
use std::time::Duration;

/// Most requests (retries included) one real run may send.
pub const MAX_REQUESTS: u128 = 2_000_000;
/// Longest wall time one real run may take.
pub const MAX_WALL: Duration = Duration::from_secs(3_600);

/// Checks that `sc` can run against Redis with `speed`, and with a replica if `replica`.
pub fn check(sc: &Scenario, speed: f64, replica: bool) -> Result<(), RunError> {
    let invalid = |m: String| Err(RunError::Invalid(m));
    sc.validate().map_err(|e| RunError::Invalid(e.to_string()))?;
    if !sc.algo.in_first_modules() {
        return invalid(format!(
            "algo: the redis runner runs the textbook algorithms (token_bucket, gcra, fixed_window, \
             sliding_window, sliding_log), not {}",
            sc.to_query_full().split('&').next().unwrap_or_default()
        ));
    }
    if sc.store == StoreMode::Local {
        return invalid(
            "store: the redis runner needs a shared store: race, atomic or async (store=local shares nothing)".into(),
        );
    }
    let uses_replica = sc.store == StoreMode::ReplicaRead || crate::sim::store_keys::failover(&sc.product).is_some();
    if uses_replica && !replica {
        return invalid(
            "--replica: store=replica_read and failover=… need a replica of the server: --replica redis://HOST:PORT \
             (a Redis started with --replicaof HOST PORT of --url)"
                .into(),
        );
    }
    if replica && !uses_replica {
        return invalid(
            "--replica: the query neither reads from the replica (store=replica_read) nor fails over to it \
             (failover=SECONDS); add one of them or drop --replica"
                .into(),
        );
    }
    if sc.product.get(&crate::sim::store_keys::NOW) == 1 {
        return invalid(
            "now: the runner stamps requests as the exported scripts do, with the calling node's time; now=server \
             (a script reading Redis TIME) is simulated only: use now=node"
                .into(),
        );
    }
    if sc.outage.is_some() {
        return invalid(
            "outage: a real Redis cannot be told to go down for a while; pause it yourself (kill -STOP, then \
             kill -CONT within a few seconds) to see the nodes time out and fail open or closed"
                .into(),
        );
    }
    if sc.store == StoreMode::Atomic && sc.count_rejected {
        return invalid(
            "count_rejected: the exported Lua scripts count admitted requests only; with count_rejected=1 use \
             store=race or store=async"
                .into(),
        );
    }
    let policy = crate::production::Policy::of(sc);
    if policy.shape != crate::production::Shape::Bucket && !policy.window_ns.is_multiple_of(1_000_000) {
        return invalid(format!(
            "window: the Redis scripts take whole milliseconds and this window is {} ms; choose a whole number of \
             milliseconds",
            super::layout::ms(policy.window_ns)
        ));
    }
    if !(speed.is_finite() && (0.01..=100.0).contains(&speed)) {
        return invalid(format!(
            "--speed: {speed} is out of range; allowed: from 0.01 to 100 scenario seconds per second"
        ));
    }
    if sc.refill.milli() == 0 {
        return invalid("refill: the Redis scripts divide by the refill rate; allowed: above 0".into());
    }
    crate::sim::report::check_run_size(sc).map_err(|e| RunError::Invalid(e.to_string()))?;
    // The engine's own estimate of the run's requests (arrivals of any shape, retries included).
    let requests = crate::sim::report::run_requests(sc);
    if requests > MAX_REQUESTS {
        return invalid(format!(
            "duration: this run could send {requests} requests (arrivals × (1 + retries)); at most {MAX_REQUESTS} \
             against a real server: lower rate, duration or retries"
        ));
    }
    let wall = Clock::start(speed).wall(sc.duration.as_nanos());
    if wall > MAX_WALL {
        return invalid(format!(
            "duration: {} s at --speed {speed} takes {} s of real time; at most {} s: shorten it or raise --speed",
            sc.duration.as_nanos() / 1_000_000_000,
            wall.as_secs(),
            MAX_WALL.as_secs()
        ));
    }
    Ok(())
}
