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

/// Why the grid's columns hardly differ, when they do not (every row within half a percentage
/// point from the shortest sync delay to the longest), in words with the scenario's numbers; `None`
/// when the sync delay matters.
///
/// A node learns the others' count only from the store's replies to its own increments, which it
/// sends as it admits. When a node admits less often than the longest sync delay in the grid, its
/// view is as old as its own last admission whatever the delay, and the overshoot comes from the
/// nodes acting on those views — about one request per node where the limit first bites.
pub fn flat_reason(sc: &Scenario, cells: &[SweepCell]) -> Option<String> {
    let flat = cells.chunks(SWEEP_RTTS_MS.len()).all(|row| {
        let percents = row.iter().map(SweepCell::overshoot_percent);
        let (lo, hi) = percents.fold((f64::MAX, f64::MIN), |(lo, hi), p| (lo.min(p), hi.max(p)));
        hi - lo < 0.5
    });
    let first = cells.first()?;
    let secs = sweep_base(sc).duration.as_secs_f64();
    let admitted_per_s = first.reference as f64 / secs;
    if !flat || admitted_per_s <= 0.0 {
        return None;
    }
    let longest = SWEEP_RTTS_MS[SWEEP_RTTS_MS.len() - 1];
    let every_ms = first.nodes as f64 / admitted_per_s * 1e3;
    Some(format!(
        "Here the sync delay hardly matters. A node learns the others' count only from the store's replies to its own \
         admissions: about {} requests/s are admitted, so even with {} nodes each hears every {} ms or so — longer than \
         the longest delay here ({longest} ms) — and its view is that old whatever the delay. The extra admissions \
         come where the limit first bites, about one per node. The delay matters when nodes admit more often than \
         it: in the preset about 100 requests/s are admitted, every 20 ms at each of two nodes.",
        crate::present::units::format_number(admitted_per_s),
        first.nodes,
        crate::present::units::format_number(every_ms.round()),
    ))
    .filter(|_| every_ms > longest as f64)
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
    fn a_grid_flat_across_sync_delays_says_why_and_the_preset_s_does_not() {
        // The multi-node view's opening bucket: 5/s admitted, so a node of two hears from the store
        // every ~400 ms, beyond every delay of the grid.
        let sc = Scenario::from_query("capacity=10&refill=5&rate=40&nodes=4&store=race&rtt=20").unwrap();
        let reason = flat_reason(&sc, &run_sweep(&sc).unwrap()).expect("flat");
        assert!(reason.contains("about 5.15 requests/s are admitted"), "{reason}");
        assert!(reason.contains("each hears every 388 ms"), "{reason}");
        assert_eq!(flat_reason(&edge_preset(), &run_sweep(&edge_preset()).unwrap()), None);
    }

    #[test]
    fn the_presets_cell_of_the_grid_is_in_the_production_band() {
        let cells = run_sweep(&edge_preset()).unwrap();
        assert_eq!(cells.len(), 16);
        let preset = cells.iter().find(|c| c.nodes == 8 && c.rtt == Nanos::from_millis(50)).unwrap();
        assert!((10.0..=15.0).contains(&preset.overshoot_percent()), "{preset:?}");
        assert_eq!(band(preset.overshoot_percent()), 2);
    }
}
