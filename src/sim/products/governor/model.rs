//! The `governor` crate's GCRA as governor 0.10 computes it, read from `governor/src/gcra.rs`
//! (`Gcra::new`, `test_and_update`): the emission interval `t` is the quota's replenishment
//! period in whole nanoseconds, the tolerance `τ = t × (burst − 1)`, and a cell at `t0`
//! (nanoseconds since the limiter was made) conforms iff `t0 ≥ TAT − τ` (saturating), after
//! which `TAT = max(TAT, t0) + t`. A key never seen starts at `TAT = t0`.
//!
//! It differs from the playground's GCRA only where the period is rounded: the exported
//! `Quota::with_period` takes whole nanoseconds.

use crate::sim::decision::{Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::policy::Policy;
use crate::sim::rate::TOKEN;
use crate::sim::time::{Nanos, SimTime};

/// The exported `Quota::with_period(period).allow_burst(burst)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GovernorQuota {
    /// The replenishment period of one cell, ns (at least 1).
    pub period_ns: u64,
    /// `allow_burst`: cells admitted at once from idle.
    pub burst: u64,
    /// Whether the period is exactly 1 / rate.
    pub exact: bool,
}

impl GovernorQuota {
    /// What the production panel exports for `p`: the period rounded to the nearest nanosecond.
    pub fn of(p: &Policy) -> GovernorQuota {
        let milli = u128::from(p.rate_milli.max(1));
        let period_ns = (((TOKEN + milli / 2) / milli) as u64).max(1);
        GovernorQuota { period_ns, burst: p.burst.max(1), exact: TOKEN.is_multiple_of(milli) }
    }
}

/// One governor direct limiter (or one key of a keyed one).
#[derive(Clone, Debug)]
pub struct Governor {
    t: u64,
    tau: u64,
    tat: Option<u64>,
}

impl Governor {
    /// A limiter made at t = 0 that has seen no cell.
    pub fn new(q: &GovernorQuota) -> Self {
        let t = q.period_ns.max(1);
        Governor { t, tau: t.saturating_mul(q.burst.max(1) - 1), tat: None }
    }

    fn earliest(&self, t0: u64) -> u64 {
        self.tat.unwrap_or(t0).saturating_sub(self.tau)
    }
}

crate::sim::limiter::model!(Governor);

impl Limiter for Governor {
    fn acquire(&mut self, now: SimTime) -> bool {
        let t0 = now.as_nanos();
        if t0 < self.earliest(t0) {
            return false;
        }
        self.consume(now);
        true
    }

    fn consume(&mut self, now: SimTime) {
        let t0 = now.as_nanos();
        self.tat = Some(self.tat.unwrap_or(t0).max(t0).saturating_add(self.t));
    }

    fn status(&self, now: SimTime) -> Status {
        let t0 = now.as_nanos();
        let tat = self.tat.unwrap_or(t0).max(t0);
        // Cells that conform back to back at t0: the k-th needs t0 ≥ tat + (k−1)·t − τ.
        let room = (t0 + self.tau).saturating_sub(self.tat.unwrap_or(t0));
        let remaining = if self.tat.is_some_and(|x| x > t0 + self.tau) { 0 } else { room / self.t + 1 };
        // `NotUntil::wait_time_from`: until TAT − τ.
        Status { remaining, reset: Nanos(tat - t0), wait: Nanos(self.earliest(t0).saturating_sub(t0)) }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let t0 = now.as_nanos();
        let ahead = self.tat.unwrap_or(t0).saturating_sub(t0);
        let level = (self.tau + self.t).saturating_sub(ahead) as f64 / self.t as f64;
        Gauge { level, current: 0, previous: 0 }
    }

    fn quota(&self) -> Quota {
        Quota { limit: self.tau / self.t + 1, window: Nanos(self.tau + self.t) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_of_exactly_allow_burst_conforms_from_idle() {
        let mut g = Governor::new(&GovernorQuota { period_ns: 1_000, burst: 3, exact: true });
        let passed = (0..5).filter(|_| g.acquire(SimTime(10))).count();
        assert_eq!(passed, 3);
        assert_eq!(g.status(SimTime(10)).wait, Nanos(1_000));
        assert!(g.acquire(SimTime(1_010)));
    }

    #[test]
    fn the_period_is_the_rate_rounded_to_the_nanosecond() {
        let p = |rate_milli| Policy {
            shape: crate::sim::products::policy::Shape::Bucket,
            burst: 1,
            rate_milli,
            limit: 1,
            window_ns: 1,
        };
        assert_eq!(GovernorQuota::of(&p(3_000)), GovernorQuota { period_ns: 333_333_333, burst: 1, exact: false });
        assert_eq!(GovernorQuota::of(&p(4_000)).period_ns, 250_000_000);
    }
}
