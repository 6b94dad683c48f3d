//! The four store modes (five for Kong, with its `policy: redis`) side by side on the current scenario, each computed by a short
//! fast-forward: what each admits against one exact limiter, and what its decisions cost in
//! latency — the price of the round trip to the store.

use crate::sim::{Nanos, Scenario, SimTime, Simulation, StoreMode};

/// The store modes in the order the page lists them.
pub const STORE_MODES: [StoreMode; 5] =
    [StoreMode::Local, StoreMode::Race, StoreMode::Atomic, StoreMode::Async, StoreMode::ReplicaRead];

/// [`STORE_MODES`] and Kong's own, for `algo=kong`.
pub const KONG_MODES: [StoreMode; 6] =
    [StoreMode::Local, StoreMode::Race, StoreMode::Atomic, StoreMode::Async, StoreMode::ReplicaRead, StoreMode::Sync];

/// Requests each mode's run simulates at most, so recomputing on every slider move stays quick.
pub const REQUESTS_PER_MODE: f64 = 20_000.0;
/// Longest stretch each mode is run for.
pub const LONGEST: Nanos = Nanos::from_secs(60);
/// Shortest stretch each mode is run for.
pub const SHORTEST: Nanos = Nanos::from_secs(2);

/// One mode's run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModeRow {
    /// The store mode.
    pub mode: StoreMode,
    /// Admitted by the nodes.
    pub admitted: u64,
    /// What one exact limiter admits on the same arrivals.
    pub reference: u64,
    /// Median decision latency.
    pub p50: Nanos,
    /// 99th-percentile decision latency.
    pub p99: Nanos,
}

impl ModeRow {
    /// Admitted beyond the exact limiter, as a fraction of it (`None` if it admitted nothing).
    pub fn over(&self) -> Option<f64> {
        (self.reference > 0).then(|| (self.admitted as f64 - self.reference as f64) / self.reference as f64)
    }
}

/// How long each mode is run: [`REQUESTS_PER_MODE`] at the offered rate, within
/// [`SHORTEST`]..=[`LONGEST`].
///
/// ```
/// use ratelimit_playground::present::cluster::modes::stretch;
/// use ratelimit_playground::sim::{Nanos, Scenario};
/// let sc = |q| Scenario::from_query(q).unwrap();
/// assert_eq!(stretch(&sc("rate=40")), Nanos::from_secs(60));
/// assert_eq!(stretch(&sc("rate=1000")), Nanos::from_secs(20));
/// assert_eq!(stretch(&sc("rate=100000")), Nanos::from_secs(2));
/// ```
pub fn stretch(sc: &Scenario) -> Nanos {
    let rate = sc.rate.as_per_sec().max(1e-3);
    let secs = (REQUESTS_PER_MODE / rate).clamp(SHORTEST.as_secs_f64(), LONGEST.as_secs_f64());
    Nanos::from_secs_f64(secs)
}

/// Runs `sc` in each of [`STORE_MODES`] (Kong in [`KONG_MODES`]) for [`stretch`] and reports each.
pub fn compare_modes(sc: &Scenario) -> Vec<ModeRow> {
    let horizon = SimTime(stretch(sc).as_nanos());
    let modes = if sc.algo == crate::sim::products::KONG { &KONG_MODES[..] } else { &STORE_MODES[..] };
    modes
        .iter()
        .map(|&mode| {
            let mut sim = Simulation::with_history(&Scenario { store: mode, ..sc.clone() }, 2);
            sim.set_horizon(horizon);
            sim.run_to_end();
            let m = sim.metrics();
            ModeRow {
                mode,
                admitted: m.totals.admitted,
                reference: m.totals.reference_admitted,
                p50: m.latency.percentile(50.0),
                p99: m.latency.percentile(99.0),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_atomic_script_is_exact_and_it_costs_one_round_trip() {
        let sc = Scenario::from_query("nodes=8&rtt=20&rate=100&traffic=poisson").unwrap();
        let rows = compare_modes(&sc);
        let row = |m| rows.iter().find(|r| r.mode == m).copied().unwrap();
        assert_eq!(row(StoreMode::Atomic).over(), Some(0.0));
        assert_eq!(row(StoreMode::Atomic).p99, Nanos::from_millis(20));
        assert!(row(StoreMode::Race).over().unwrap() > 0.1, "{rows:?}");
        assert_eq!(row(StoreMode::Race).p99, Nanos::from_millis(40));
        assert!(row(StoreMode::Local).over().unwrap() > 5.0, "8 unshared limiters: {rows:?}");
        assert_eq!(row(StoreMode::Async).p99, Nanos::ZERO, "the edge decides at once");
        assert!(rows.iter().all(|r| r.mode != StoreMode::Sync), "Kong's own mode is Kong's only");
    }

    #[test]
    fn kong_gets_its_policy_redis_row() {
        let sc = Scenario::from_query("algo=kong&limit=100&window=60&nodes=8&rtt=20&rate=100&sync_rate=1").unwrap();
        let rows = compare_modes(&sc);
        let sync = rows.iter().find(|r| r.mode == StoreMode::Sync).copied().unwrap();
        assert!(sync.over().unwrap() > 0.5, "8 nodes deciding alone between syncs: {rows:?}");
        assert_eq!(sync.p50, Nanos::ZERO, "most requests decided on the node's own count");
    }
}
