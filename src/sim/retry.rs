//! Client behaviour after a 429: when (and whether) a rejected request is sent again.

use super::rng::SimRng;
use super::scenario::{RetryPolicy, Scenario};
use super::time::Nanos;

/// The retry rule of a run's clients.
#[derive(Clone, Copy, Debug)]
pub struct Retry {
    policy: RetryPolicy,
    max_retries: u32,
    headroom: Nanos,
    jitter: Nanos,
    base: Nanos,
    cap: Nanos,
}

impl Retry {
    /// The clients' rule from the scenario.
    pub fn new(sc: &Scenario) -> Self {
        Retry {
            policy: sc.retry,
            max_retries: sc.max_retries,
            headroom: sc.headroom,
            jitter: sc.jitter,
            base: sc.backoff_base,
            cap: sc.backoff_cap,
        }
    }

    /// How long a client waits before sending again a request rejected on its `attempt`-th try
    /// (0 for the first), told `retry_after`; `None` if it gives up.
    ///
    /// ```
    /// use ratelimit_playground::sim::{Nanos, Retry, RetryPolicy, Scenario, SimRng};
    /// let sc = Scenario { retry: RetryPolicy::Exact, max_retries: 2, ..Scenario::default() };
    /// let (r, mut rng) = (Retry::new(&sc), SimRng::new(1));
    /// let wait = Some(Nanos::from_millis(250));
    /// assert_eq!(r.delay(0, wait, &mut rng), Some(Nanos::from_millis(250)));
    /// assert_eq!(r.delay(2, wait, &mut rng), None); // two retries used up
    /// ```
    pub fn delay(&self, attempt: u32, retry_after: Option<Nanos>, rng: &mut SimRng) -> Option<Nanos> {
        if attempt >= self.max_retries {
            return None;
        }
        // A rejection without a usable Retry-After (a store timeout) waits one backoff base.
        let told = retry_after.unwrap_or(self.base);
        match self.policy {
            RetryPolicy::GiveUp => None,
            RetryPolicy::Exact => Some(told),
            RetryPolicy::Jitter => Some(told + self.headroom + Nanos(rng.below(self.jitter.as_nanos()))),
            RetryPolicy::Backoff => {
                let ceiling = self.base.as_nanos().saturating_mul(1u64 << attempt.min(40)).min(self.cap.as_nanos());
                Some(Nanos(rng.below(ceiling.saturating_add(1))))
            }
        }
    }
}
