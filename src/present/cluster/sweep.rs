//! The edge design's sweep as the page runs it: overshoot over a grid of node counts and sync
//! delays, computed at once by the engine's [`edge_sweep`] on the current scenario — its run
//! length shortened when the arrival rate would make the whole grid slow to compute.

use crate::sim::sweep::{edge_sweep, SweepCell};
use crate::sim::{Nanos, ParamError, Scenario};

/// Node counts of the sweep's rows.
pub const SWEEP_NODES: [u32; 4] = [2, 4, 8, 16];
/// Sync delays (round trips to the store) of the sweep's columns, in ms.
pub const SWEEP_RTTS_MS: [u64; 4] = [5, 20, 50, 100];
/// Requests the whole grid simulates at most.
pub const SWEEP_REQUESTS: f64 = 1_000_000.0;
/// Longest run per cell.
pub const CELL_LONGEST: Nanos = Nanos::from_secs(60);

/// The scenario each cell starts from: `sc` run for at most [`CELL_LONGEST`], and shorter when
/// the grid would otherwise simulate more than [`SWEEP_REQUESTS`].
///
/// ```
/// use ratelimit_playground::present::cluster::sweep::sweep_base;
/// use ratelimit_playground::sim::{Nanos, Scenario};
/// let sc = |q| Scenario::from_query(q).unwrap();
/// assert_eq!(sweep_base(&sc("rate=200")).duration, Nanos::from_secs(60));
/// assert_eq!(sweep_base(&sc("rate=25000")).duration, Nanos::from_millis(2500));
/// ```
pub fn sweep_base(sc: &Scenario) -> Scenario {
    let cells = (SWEEP_NODES.len() * SWEEP_RTTS_MS.len()) as f64;
    let fits = SWEEP_REQUESTS / cells / sc.rate.as_per_sec().max(1e-3);
    let secs = fits.min(CELL_LONGEST.as_secs_f64()).max(0.5);
    Scenario { duration: Nanos::from_secs_f64(secs), ..sc.clone() }
}

/// About how many requests the grid for `sc` simulates.
///
/// ```
/// use ratelimit_playground::present::cluster::sweep::sweep_requests;
/// use ratelimit_playground::sim::Scenario;
/// assert_eq!(sweep_requests(&Scenario::from_query("rate=40").unwrap()), 16.0 * 60.0 * 40.0);
/// ```
pub fn sweep_requests(sc: &Scenario) -> f64 {
    let cells = (SWEEP_NODES.len() * SWEEP_RTTS_MS.len()) as f64;
    cells * sweep_base(sc).duration.as_secs_f64() * sc.rate.as_per_sec()
}

/// The grid for `sc`, rows of [`SWEEP_NODES`] × columns of [`SWEEP_RTTS_MS`].
pub fn run_sweep(sc: &Scenario) -> Result<Vec<SweepCell>, ParamError> {
    edge_sweep(&sweep_base(sc), &SWEEP_NODES, &SWEEP_RTTS_MS.map(Nanos::from_millis))
}

/// The band of an overshoot percentage, 0 (none) to 4 (30 % or more), for the cell's shade.
///
/// ```
/// use ratelimit_playground::present::cluster::sweep::band;
/// assert_eq!(band(0.2), 0);
/// assert_eq!(band(11.0), 2);
/// assert_eq!(band(80.0), 4);
/// ```
pub fn band(percent: f64) -> u8 {
    match percent {
        p if p < 1.0 => 0,
        p if p < 10.0 => 1,
        p if p < 15.0 => 2,
        p if p < 30.0 => 3,
        _ => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::cluster::presets::edge_preset;

    #[test]
    fn the_presets_cell_of_the_grid_is_in_the_production_band() {
        let cells = run_sweep(&edge_preset()).unwrap();
        assert_eq!(cells.len(), 16);
        let preset = cells.iter().find(|c| c.nodes == 8 && c.rtt == Nanos::from_millis(50)).unwrap();
        assert!((10.0..=15.0).contains(&preset.overshoot_percent()), "{preset:?}");
        assert_eq!(band(preset.overshoot_percent()), 2);
    }
}
