//! [`RetryGate`]: what stops clients' retries from feeding an overload (issue #37), on top of
//! their `retry` policy, which says *when* they retry. A retry budget (`retry_budget`): Marc
//! Brooker's token bucket of retries ("Fixing retries with token buckets and circuit breakers",
//! 2022), as gRPC's retry throttling and the AWS SDKs' retry quota keep one; and a retry breaker
//! (`retry_breaker`, `breaker_pause`): after so many failures in a row, no retries for a while.
//!
//! One gate for all the run's clients, as one calling service keeps one for its calls. Exact:
//! tokens are integer thousandths.

use super::keys::{BREAKER_PAUSE, RETRY_BREAKER, RETRY_BUDGET};
use crate::sim::products::options::ProductOptions;
use crate::sim::time::{Nanos, SimTime};

/// The most tokens a retry budget keeps (and starts with), in thousandths: ten retries. A
/// budget of 0.1 then allows a burst of ten retries, and one more per ten new requests.
pub const BUDGET_CAP: u64 = 10_000;

/// One token, in thousandths: what a retry spends.
const TOKEN: u64 = 1_000;

/// The clients' retry budget and breaker, as the scenario sets them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RetryGate {
    /// Thousandths of a token each new request adds; 0 without a budget.
    deposit: u64,
    /// Tokens held, in thousandths.
    tokens: u64,
    /// New requests already paid into the budget.
    paid: u64,
    /// Failures in a row that open the breaker; 0 without one.
    threshold: u32,
    pause: Nanos,
    breaker: Breaker,
    /// What the gate did.
    pub stats: GateStats,
}

/// The breaker's state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Breaker {
    /// Retries pass; this many failures in a row so far.
    #[default]
    Closed,
    /// No retries until then.
    Open(SimTime),
    /// The pause is over: retries pass, and the next failure opens it again.
    HalfOpen,
}

/// What the breaker makes of a failure.
enum Seen {
    /// The retry may go out (the budget permitting).
    Pass,
    /// The pause is over: the retry may go out as the probe.
    Probe,
    /// No retry.
    Refuse,
}

/// What a [`RetryGate`] did over a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct GateStats {
    /// Retries the budget refused: too few tokens.
    pub budget_refused: u64,
    /// Retries the open breaker refused.
    pub breaker_refused: u64,
    /// Times the breaker opened.
    pub breaker_opened: u64,
    /// Failures in a row so far (while closed).
    #[serde(skip)]
    pub failures_in_a_row: u32,
}

impl RetryGate {
    /// The gate the scenario's keys describe, if it has a budget or a breaker.
    ///
    /// ```
    /// use ratelimit_playground::sim::Scenario;
    /// use ratelimit_playground::sim::server::RetryGate;
    /// let gate = |q| RetryGate::of(&Scenario::from_query(q).unwrap().product);
    /// assert!(gate("retry=backoff").is_none());
    /// assert!(gate("retry_budget=0.1").is_some() && gate("retry_breaker=5").is_some());
    /// ```
    pub fn of(o: &ProductOptions) -> Option<RetryGate> {
        let gate = RetryGate {
            deposit: o.get(&RETRY_BUDGET) * 10,
            tokens: BUDGET_CAP,
            threshold: o.get(&RETRY_BREAKER) as u32,
            pause: Nanos(o.get(&BREAKER_PAUSE) * 1_000),
            ..RetryGate::default()
        };
        (gate.deposit > 0 || gate.threshold > 0).then_some(gate)
    }

    /// A client's attempt failed at `now` (a 429, a 503, its timeout), `new_requests` new
    /// requests having been sent so far: whether it may retry, if its policy `wants` to. The
    /// breaker counts every failure; the budget is spent only on a retry that is let through.
    ///
    /// ```
    /// use ratelimit_playground::sim::{Scenario, SimTime};
    /// use ratelimit_playground::sim::server::RetryGate;
    /// let mut gate = RetryGate::of(&Scenario::from_query("retry_budget=0.5").unwrap().product).unwrap();
    /// // It starts with ten tokens: ten retries pass, the eleventh does not.
    /// assert!((0..10).all(|_| gate.failed(SimTime(0), 0, true)));
    /// assert!(!gate.failed(SimTime(0), 0, true));
    /// // Two new requests add one token: one more retry.
    /// assert!(gate.failed(SimTime(0), 2, true));
    /// assert!(!gate.failed(SimTime(0), 2, true));
    /// ```
    pub fn failed(&mut self, now: SimTime, new_requests: u64, wants: bool) -> bool {
        let probe = match self.breaker_sees(now) {
            Seen::Refuse => {
                self.stats.breaker_refused += u64::from(wants);
                return false;
            }
            Seen::Pass => false,
            Seen::Probe => true,
        };
        if !wants || !self.budget_allows(new_requests) {
            return false;
        }
        // The first retry after the pause goes out: the breaker is half open until the next
        // answer (a probe not sent leaves it open, for the next failure to try).
        if probe {
            self.breaker = Breaker::HalfOpen;
        }
        true
    }

    /// A client's attempt succeeded (answered in time) at `now`: the breaker closes, unless it is
    /// open and its pause is not over.
    pub fn succeeded(&mut self, now: SimTime) {
        if !matches!(self.breaker, Breaker::Open(until) if now < until) {
            self.breaker = Breaker::Closed;
            self.stats.failures_in_a_row = 0;
        }
    }

    /// What the breaker makes of a failure at `now`.
    fn breaker_sees(&mut self, now: SimTime) -> Seen {
        match self.breaker {
            _ if self.threshold == 0 => Seen::Pass,
            Breaker::Open(until) if now < until => Seen::Refuse,
            Breaker::Open(_) => Seen::Probe,
            Breaker::HalfOpen => self.open(now),
            Breaker::Closed => {
                self.stats.failures_in_a_row += 1;
                if self.stats.failures_in_a_row < self.threshold {
                    Seen::Pass
                } else {
                    self.open(now)
                }
            }
        }
    }

    /// Opens the breaker at `now`: no retry passes until its pause is over.
    fn open(&mut self, now: SimTime) -> Seen {
        self.breaker = Breaker::Open(now + self.pause);
        self.stats.breaker_opened += 1;
        self.stats.failures_in_a_row = 0;
        Seen::Refuse
    }

    /// Whether the budget pays for one more retry, `new_requests` new requests having been sent
    /// so far (it spends the token if so).
    fn budget_allows(&mut self, new_requests: u64) -> bool {
        if self.deposit == 0 {
            return true;
        }
        let new = new_requests.saturating_sub(self.paid);
        self.paid = self.paid.max(new_requests);
        self.tokens = self.tokens.saturating_add(new.saturating_mul(self.deposit)).min(BUDGET_CAP);
        if self.tokens < TOKEN {
            self.stats.budget_refused += 1;
            return false;
        }
        self.tokens -= TOKEN;
        true
    }

    /// Whole tokens held now (before new requests since the last failure are paid in).
    pub fn tokens(&self) -> f64 {
        self.tokens as f64 / TOKEN as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Scenario;

    fn gate(q: &str) -> RetryGate {
        RetryGate::of(&Scenario::from_query(q).unwrap().product).unwrap()
    }

    const MS: u64 = 1_000_000;

    #[test]
    fn the_breaker_opens_after_so_many_failures_in_a_row_and_probes_after_its_pause() {
        let mut g = gate("retry_breaker=3&breaker_pause=100");
        assert!(g.failed(SimTime(0), 0, true));
        assert!(g.failed(SimTime(MS), 0, true));
        // The third failure in a row opens it: no retries for 100 ms.
        assert!(!g.failed(SimTime(2 * MS), 0, true));
        assert!(!g.failed(SimTime(101 * MS), 0, true));
        assert_eq!(g.stats.breaker_opened, 1);
        // At 102 ms the pause is over: one probe passes, and its failure opens it again.
        assert!(g.failed(SimTime(102 * MS), 0, true));
        assert!(!g.failed(SimTime(103 * MS), 0, true));
        assert_eq!(g.stats.breaker_opened, 2);
        // A success while open, before the pause is over, changes nothing (at 150 ms; open
        // until 203 ms); the probe at 203 ms passes, and its success closes the breaker.
        g.succeeded(SimTime(150 * MS));
        assert!(!g.failed(SimTime(151 * MS), 0, true));
        assert!(g.failed(SimTime(203 * MS), 0, true));
        g.succeeded(SimTime(210 * MS));
        assert!(g.failed(SimTime(211 * MS), 0, true) && g.failed(SimTime(212 * MS), 0, true));
        assert_eq!(g.stats.breaker_refused, 4);
    }

    #[test]
    fn a_success_after_the_pause_closes_the_breaker_before_any_probe() {
        let mut g = gate("retry_breaker=3&breaker_pause=100");
        for t in 0..3 {
            g.failed(SimTime(t * MS), 0, true);
        }
        g.succeeded(SimTime(150 * MS));
        // Closed again: it takes three failures in a row to open it.
        assert!(g.failed(SimTime(160 * MS), 0, true) && g.failed(SimTime(161 * MS), 0, true));
        assert!(!g.failed(SimTime(162 * MS), 0, true));
        assert_eq!(g.stats.breaker_opened, 2);
    }

    #[test]
    fn a_probe_not_sent_leaves_the_breaker_open_for_the_next_failure() {
        let mut g = gate("retry_breaker=1&breaker_pause=100&retry_budget=0.01");
        assert!(!g.failed(SimTime(0), 0, true), "one failure opens it");
        // After the pause, a failure the policy does not retry sends no probe…
        assert!(!g.failed(SimTime(150 * MS), 0, false));
        // …so the next one may: it goes out, half open.
        assert!(g.failed(SimTime(151 * MS), 0, true));
        assert!(!g.failed(SimTime(152 * MS), 0, true), "its failure opens the breaker again");
    }

    #[test]
    fn a_success_resets_the_failures_in_a_row() {
        let mut g = gate("retry_breaker=2");
        assert!(g.failed(SimTime(0), 0, true));
        g.succeeded(SimTime(0));
        assert!(g.failed(SimTime(1), 0, true));
        assert!(!g.failed(SimTime(2), 0, true));
    }

    #[test]
    fn over_a_long_run_the_budget_lets_through_its_share_of_new_requests() {
        let mut g = gate("retry_budget=0.1");
        let (mut sent, mut retried) = (0, 0);
        for _ in 0..100_000 {
            sent += 1;
            retried += u64::from(g.failed(SimTime(0), sent, true));
        }
        // Ten from the start, then one per ten new requests: 10 000 tenths, but the first finds
        // the bucket full (it holds at most ten tokens), so 9 999 tokens and nine tenths.
        assert_eq!(retried, 10 + 9_999);
    }

    #[test]
    fn a_failure_the_policy_does_not_retry_spends_no_token_but_counts_for_the_breaker() {
        let mut g = gate("retry_budget=0.1&retry_breaker=2");
        assert!(!g.failed(SimTime(0), 0, false));
        assert_eq!(g.tokens(), 10.0);
        assert!(!g.failed(SimTime(1), 0, true), "the second failure in a row opens the breaker");
        assert_eq!((g.stats.breaker_refused, g.stats.budget_refused), (1, 0));
    }
}
