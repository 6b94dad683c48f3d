//! Laravel's `RateLimiter` (8.83, `Illuminate/Cache/RateLimiter.php`, under the `throttle`
//! middleware's `Illuminate/Routing/Middleware/ThrottleRequests.php`) over the cache's
//! `ArrayStore`, as the Debian packages `php-illuminate-cache` and `php-illuminate-routing`
//! 8.83.26 compute it (read from the packages):
//!
//! - the clock is `Carbon::now()->getTimestamp()`: whole Unix seconds (simulated time 0 is a UTC
//!   midnight, [`crate::sim::time::EPOCH_S`]);
//! - `tooManyAttempts` is checked before the hit: a request is refused when the key's attempts
//!   have reached `maxAttempts`, and a refused request is not counted (`attempt`, the middleware);
//! - the first admitted hit puts the counter and its `:timer` (holding `now + decay`) with a
//!   lifetime of `decay` seconds; later hits increment it without extending it. The store forgets
//!   an entry once `now > expiresAt`, strictly, so a window lasts `decay + 1` whole seconds: at
//!   `first + decay` it still refuses, with `availableIn` 0;
//! - the middleware answers 429 with `Retry-After: availableIn` (`timer − now`, at least 0) and
//!   `X-RateLimit-Reset` (now + that), and every answer carries `X-RateLimit-Limit` and
//!   `X-RateLimit-Remaining` (`maxAttempts − attempts`, 0 on a refusal).

use crate::sim::decision::{Decision, Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::policy::Policy;
use crate::sim::time::{Nanos, SimTime, EPOCH_S};

const SEC: u64 = 1_000_000_000;

/// The exported `RateLimiter::attempt($key, $maxAttempts, $callback, $decaySeconds)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempts {
    /// `$maxAttempts` per window.
    pub max_attempts: u64,
    /// `$decaySeconds`: whole seconds.
    pub decay_s: u64,
}

impl Attempts {
    /// What the production panel exports for `p`: the window in whole seconds, rounded to the
    /// nearest and at least 1 (a bucket's policy is counted as a window of its burst).
    pub fn of(p: &Policy) -> Attempts {
        Attempts { max_attempts: p.limit.max(1), decay_s: (p.window_ns.saturating_add(500_000_000) / SEC).max(1) }
    }
}

/// One key's counter in the `ArrayStore`.
#[derive(Clone, Debug)]
pub struct Laravel {
    limit: Attempts,
    /// The live counter: its attempts and its `:timer`, the Unix second it expires after.
    counter: Option<(u64, u64)>,
    /// The last answer's `(remaining, availableIn, now)`, for its headers.
    last: (u64, u64, u64),
}

impl Laravel {
    /// A key the store has not seen.
    pub fn new(limit: Attempts) -> Self {
        Laravel { limit, counter: None, last: (limit.max_attempts, 0, EPOCH_S) }
    }

    /// `Carbon::now()->getTimestamp()` at `now`.
    fn clock(now: SimTime) -> u64 {
        EPOCH_S + now.as_nanos() / SEC
    }

    /// The counter as the store reads it at Unix second `s`: none once `s > timer`.
    fn live(&self, s: u64) -> Option<(u64, u64)> {
        self.counter.filter(|&(_, timer)| s <= timer)
    }

    /// `hit`: starts a window at `s` or counts one more in the live one.
    fn hit(&mut self, s: u64) {
        self.counter = Some(match self.live(s) {
            Some((attempts, timer)) => (attempts + 1, timer),
            None => (1, s + self.limit.decay_s),
        });
    }
}

crate::sim::limiter::model!(Laravel);

impl Limiter for Laravel {
    fn acquire(&mut self, now: SimTime) -> bool {
        let s = Self::clock(now);
        if let Some((_, timer)) = self.live(s).filter(|&(attempts, _)| attempts >= self.limit.max_attempts) {
            self.last = (0, timer - s, s);
            return false;
        }
        self.hit(s);
        let attempts = self.live(s).map_or(0, |c| c.0);
        self.last = (self.limit.max_attempts.saturating_sub(attempts), 0, s);
        true
    }

    fn consume(&mut self, now: SimTime) {
        self.hit(Self::clock(now));
    }

    fn status(&self, now: SimTime) -> Status {
        let s = Self::clock(now);
        match self.live(s) {
            None => Status { remaining: self.limit.max_attempts, reset: Nanos::ZERO, wait: Nanos::ZERO },
            Some((attempts, timer)) => {
                // The store forgets the counter at the first second after its timer.
                let gone = Nanos((timer + 1 - EPOCH_S) * SEC - now.as_nanos());
                let remaining = self.limit.max_attempts.saturating_sub(attempts);
                Status { remaining, reset: gone, wait: if remaining > 0 { Nanos::ZERO } else { gone } }
            }
        }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let attempts = self.live(Self::clock(now)).map_or(0, |c| c.0);
        Gauge { level: attempts as f64, current: attempts, previous: 0 }
    }

    fn quota(&self) -> Quota {
        Quota { limit: self.limit.max_attempts, window: Nanos(self.limit.decay_s * SEC) }
    }

    /// The `throttle` middleware's headers: the limit and what remains, and on a 429
    /// `Retry-After` (whole seconds, 0 in a window's last second) and `X-RateLimit-Reset` (a Unix
    /// time).
    fn headers(&self, d: &Decision) -> Vec<(&'static str, String)> {
        let (remaining, available_in, s) = self.last;
        let mut h = vec![
            ("X-RateLimit-Limit", self.limit.max_attempts.to_string()),
            ("X-RateLimit-Remaining", remaining.to_string()),
        ];
        if !d.allowed {
            h.push(("Retry-After", available_in.to_string()));
            h.push(("X-RateLimit-Reset", (s + available_in).to_string()));
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_ms(ms: u64) -> SimTime {
        SimTime(ms * 1_000_000)
    }

    #[test]
    fn a_window_starts_at_the_first_hit_and_lasts_one_second_more_than_its_decay() {
        let mut l = Laravel::new(Attempts { max_attempts: 2, decay_s: 1 });
        assert!(l.acquire(at_ms(500)));
        assert!(l.acquire(at_ms(900)));
        assert!(!l.acquire(at_ms(999)));
        // Second 1 is the timer's own: still refused, Retry-After 0.
        assert!(!l.acquire(at_ms(1_999)));
        let refused = Decision { allowed: false, remaining: 0, reset: Nanos::ZERO, retry_after: None };
        assert!(l.headers(&refused).contains(&("Retry-After", "0".to_string())));
        assert_eq!(l.status(at_ms(1_999)).wait, Nanos::from_millis(1));
        assert!(l.acquire(at_ms(2_000)));
    }

    #[test]
    fn refused_requests_are_not_counted() {
        let mut l = Laravel::new(Attempts { max_attempts: 1, decay_s: 3 });
        assert!(l.acquire(at_ms(0)));
        for ms in [100, 1_000, 3_999] {
            assert!(!l.acquire(at_ms(ms)), "{ms}");
        }
        assert!(l.acquire(at_ms(4_000)));
        assert_eq!(l.gauge(at_ms(4_000)).current, 1);
    }
}
