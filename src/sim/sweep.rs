//! The edge design's overshoot against node count and sync delay, computed by fast-forward.
//!
//! Each cell runs the scenario with `store=async` to its duration and compares what the nodes
//! admitted with what one exact limiter admits on the same arrivals.

use super::report::{check_run_size, MAX_RUN_REQUESTS};
use super::scenario::{Scenario, StoreMode};
use super::time::{Nanos, SimTime};
use super::{ParamError, Simulation};

/// The edge design in its production band: a sliding window counter of 100 per second, 200
/// requests/s offered, 8 nodes, a 50 ms round trip to the store. It over-admits about 11 %.
pub const EDGE_PRESET: &str =
    "algo=sliding_window&limit=100&window=1&rate=200&traffic=poisson&nodes=8&lb=random&store=async&rtt=50&duration=60";

/// One cell of a sweep.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepCell {
    /// Nodes in the cluster.
    pub nodes: u32,
    /// Round trip to the store: how stale each node's view is.
    pub rtt: Nanos,
    /// What the nodes admitted.
    pub admitted: u64,
    /// What one exact limiter admits on the same arrivals.
    pub reference: u64,
}

impl SweepCell {
    /// Admitted beyond the exact limiter, as a percentage of it.
    pub fn overshoot_percent(&self) -> f64 {
        if self.reference == 0 {
            0.0
        } else {
            (self.admitted as f64 - self.reference as f64) / self.reference as f64 * 100.0
        }
    }
}

/// Runs `base` with `store=async` for every node count × round trip, row by row.
///
/// Refuses a sweep whose runs together exceed what one batch run may simulate.
pub fn edge_sweep(base: &Scenario, nodes: &[u32], rtts: &[Nanos]) -> Result<Vec<SweepCell>, ParamError> {
    base.validate()?;
    check_run_size(base)?;
    let runs = (nodes.len() * rtts.len()) as u128;
    let per_run = u128::from(base.rate.milli()) * u128::from(base.duration.as_nanos()) / 1_000_000_000_000;
    if runs * per_run > MAX_RUN_REQUESTS {
        return Err(ParamError {
            param: "duration".into(),
            message: format!(
                "a sweep of {runs} runs would simulate {} requests; at most {MAX_RUN_REQUESTS}",
                runs * per_run
            ),
        });
    }
    let mut cells = Vec::with_capacity(nodes.len() * rtts.len());
    for &n in nodes {
        for &rtt in rtts {
            let sc = Scenario { nodes: n, rtt, store: StoreMode::Async, ..base.clone() };
            sc.validate()?;
            let mut sim = Simulation::with_history(&sc, 2);
            sim.set_horizon(SimTime(sc.duration.as_nanos()));
            sim.run_to_end();
            let t = sim.metrics().totals;
            cells.push(SweepCell { nodes: n, rtt, admitted: t.admitted, reference: t.reference_admitted });
        }
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_edge_preset_lands_in_the_10_to_15_percent_band() {
        let sc = Scenario::from_query(EDGE_PRESET).unwrap();
        let cell = edge_sweep(&sc, &[sc.nodes], &[sc.rtt]).unwrap()[0];
        let o = cell.overshoot_percent();
        assert!((10.0..=15.0).contains(&o), "{o:.1} %");
    }

    #[test]
    fn overshoot_grows_along_both_axes_of_the_sweep() {
        let sc = Scenario::from_query(EDGE_PRESET).unwrap();
        let rtts = [5, 20, 50, 100].map(Nanos::from_millis);
        let cells = edge_sweep(&sc, &[2, 4, 8, 16], &rtts).unwrap();
        for row in cells.chunks(rtts.len()) {
            assert!(row.windows(2).all(|w| w[0].overshoot_percent() < w[1].overshoot_percent()), "{row:?}");
        }
        for col in 0..rtts.len() {
            let column: Vec<f64> = cells.iter().skip(col).step_by(rtts.len()).map(|c| c.overshoot_percent()).collect();
            assert!(column.windows(2).all(|w| w[0] < w[1]), "{column:?}");
        }
    }

    #[test]
    fn an_oversized_sweep_is_refused() {
        let sc = Scenario::from_query("rate=50000&duration=600").unwrap();
        assert!(edge_sweep(&sc, &[1, 2, 4, 8, 16], &[Nanos::from_millis(1); 10]).is_err());
    }
}
