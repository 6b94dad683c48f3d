//! What each chart of the page shows, read out of the running engine: plain data for the
//! drawing code in [`crate::chart`]. Plain Rust, tested natively; the values are the engine's.

use crate::chart::convergence::ConvergenceView;
use crate::chart::state::StateWindow;
use crate::chart::strip::Strip;
use crate::chart::throughput::ThroughputWindow;
use crate::sim::{Algorithm, Simulation};

use crate::present::options::is_windowed;
use crate::present::runner::{Runner, STATE_SPAN_SECS, STRIP_SECONDS};
use crate::present::snapshot::Column;

/// Seconds of history on the throughput chart.
pub const THROUGHPUT_SECONDS: u64 = 60;
/// Seconds of history on a compare-mode small multiple.
pub const MINI_SECONDS: u64 = 30;

/// What the predicted pass ratio is, in words, for `algo`.
pub fn predicted_label(algo: Algorithm) -> &'static str {
    if is_windowed(algo) {
        "limit ÷ window ÷ arrival"
    } else {
        "refill ÷ arrival"
    }
}

/// The throughput chart of `sim` over its last `seconds`, with the allowed rate and, when a
/// window algorithm admitted more than its limit within one window, a marker where it did.
pub fn throughput(sim: &Simulation, seconds: u64) -> ThroughputWindow {
    let sc = sim.scenario();
    let column = Column::of(sim);
    let over = column.over_limit();
    // The fixed window's seam: the boundary, and the two windows it joins.
    let seam = column.seam.filter(|_| over);
    ThroughputWindow {
        allowed_rate: Some(sc.allowed_rate()),
        marker_secs: over.then(|| seam.map_or(column.peak.1, |s| s.boundary).as_secs_f64()),
        marker_label: if seam.is_some() {
            "the seam: over the limit across this boundary (shaded: its two windows)"
        } else {
            "most in one window: over the limit"
        },
        marker_span: seam.map(|_| sc.effective_window().as_secs_f64()),
        ..ThroughputWindow::from_metrics(sim.metrics(), sim.now(), seconds)
    }
}

/// The inner-state chart of `sim` (empty if it does not sample its state).
pub fn state(sim: &Simulation) -> StateWindow {
    StateWindow::of(sim, STATE_SPAN_SECS as f64)
}

/// The request strip of `sim`.
pub fn strip(sim: &Simulation) -> Strip {
    let alone = sim.scenario().nodes == 1 && sim.scenario().store == crate::sim::scenario::StoreMode::Local;
    Strip::from_events(sim.metrics().events(), sim.now(), STRIP_SECONDS, alone)
}

/// The steady-state chart of the runner's first simulation.
pub fn convergence(runner: &Runner) -> Option<ConvergenceView> {
    let sim = runner.sims().first()?;
    let sc = sim.scenario();
    let mut view = ConvergenceView::new(
        runner.history(),
        sim.now().as_secs_f64(),
        sc.predicted_pass_ratio(),
        predicted_label(sc.algo),
    );
    view.first_rejection = sim.metrics().totals.first_rejection.map(|t| t.as_secs_f64());
    view.predicted_first = sc.predicted_first_rejection();
    Some(view)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Nanos, Scenario, SimTime};

    #[test]
    fn the_fixed_window_seam_is_marked_where_the_engine_found_it() {
        let mut sim = Simulation::new(&Scenario::from_query("algo=fixed_window&traffic=seam").unwrap());
        sim.step_until(SimTime::from_secs(10));
        let w = throughput(&sim, 60);
        // The marker is the boundary the peak straddles, and both windows are shaded: the
        // window before it admitted its limit at its end, the window after its limit at its start.
        let seam = sim.peak_seam();
        assert_eq!((seam.before, seam.after), (10, 10), "{seam:?}");
        assert_eq!(sim.peak_in_window().0, 20);
        assert_eq!(w.marker_secs, Some(seam.boundary.as_secs_f64()));
        assert_eq!(seam.boundary.as_nanos() % 2_000_000_000, 0, "a window boundary");
        assert!(seam.boundary < sim.peak_in_window().1);
        assert_eq!(w.marker_span, Some(2.0));
        assert_eq!(w.allowed_rate, Some(5.0), "10 per 2 s");
    }

    #[test]
    fn no_marker_for_the_log_and_the_bucket_line_is_its_refill() {
        let mut sim = Simulation::new(&Scenario::from_query("algo=sliding_log&traffic=seam").unwrap());
        sim.step_until(SimTime::from_secs(10));
        assert_eq!(throughput(&sim, 60).marker_secs, None);
        let sim = Simulation::new(&Scenario::from_query("refill=2.5").unwrap());
        assert_eq!(throughput(&sim, 60).allowed_rate, Some(2.5));
    }

    #[test]
    fn the_convergence_view_carries_both_first_rejections() {
        let mut r = Runner::new(&Scenario::from_query("capacity=10&refill=5&rate=20").unwrap(), false);
        r.jump(Nanos::from_secs(30));
        let v = convergence(&r).unwrap();
        assert_eq!(v.first_rejection, Some(0.65));
        assert!((v.predicted_first.unwrap() - 10.0 / 15.0).abs() < 1e-9);
        assert_eq!(v.predicted, Some(0.25));
    }
}
