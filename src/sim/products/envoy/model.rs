//! Envoy's HTTP local rate limit (`envoy.filters.http.local_ratelimit`), in both of the token
//! buckets Envoy has shipped, read from Envoy's `source/common/common/token_bucket_impl.cc` and
//! `source/extensions/filters/common/local_ratelimit/local_ratelimit_impl.cc`:
//!
//! - **refill on access** (`AtomicTokenBucketImpl`, the default since Envoy 1.31 via the runtime
//!   guard `envoy.reloadable_features.no_timer_based_rate_limit_token_bucket`, envoy PR #35207):
//!   the bucket keeps one `double`, a time in seconds; the tokens at `now` are
//!   `min(max_tokens, (now − time) × fill_rate)`, a request takes one if at least one is there,
//!   and the time moves to `now − (tokens − 1) / fill_rate`. It starts full.
//! - **a fill timer** (Envoy ≤ 1.30, or with the guard off): the bucket starts full and every
//!   `fill_interval` a timer adds `tokens_per_fill`, capped at `max_tokens`: tokens arrive in
//!   steps.
//!
//! `fill_interval` is read in whole milliseconds (`PROTOBUF_GET_MS_REQUIRED`), at least 50 ms.
//! Modelled from Envoy's documentation and source; Envoy cannot be installed on this project's
//! machines, so the model is not run against Envoy (unit tests pin it).

use crate::sim::decision::{Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::policy::Policy;
use crate::sim::rate::TOKEN;
use crate::sim::time::{Nanos, SimTime};

/// Envoy refuses fill intervals shorter than this.
pub const MIN_FILL_NS: u64 = 50_000_000;
const NS_PER_MS: u64 = 1_000_000;

/// The exported `token_bucket { max_tokens, tokens_per_fill, fill_interval }`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnvoyBucket {
    /// `max_tokens`: the burst and the starting level.
    pub max_tokens: u64,
    /// `tokens_per_fill`.
    pub tokens_per_fill: u64,
    /// `fill_interval` as exported, ns.
    pub fill_interval_ns: u64,
    /// Whether `tokens_per_fill / fill_interval` is the policy's rate exactly.
    pub exact: bool,
}

impl EnvoyBucket {
    /// What the production panel exports for `p`: the fewest tokens per fill whose interval is
    /// at least 50 ms, and that interval rounded to the millisecond Envoy reads.
    pub fn of(p: &Policy) -> EnvoyBucket {
        let milli = u128::from(p.rate_milli.max(1));
        // k / r ≥ 0.05 s  ⟺  k ≥ r / 20.
        let k = (milli.div_ceil(20_000)).max(1);
        let ns = (k * TOKEN + milli / 2) / milli;
        let ms = ((ns as u64 + NS_PER_MS / 2) / NS_PER_MS).max(MIN_FILL_NS / NS_PER_MS);
        let exact = (k * TOKEN) == u128::from(ms * NS_PER_MS) * milli;
        EnvoyBucket { max_tokens: p.burst, tokens_per_fill: k as u64, fill_interval_ns: ms * NS_PER_MS, exact }
    }

    /// The fill interval Envoy uses: whole milliseconds, at least 50.
    pub fn fill_interval_ms(&self) -> u64 {
        (self.fill_interval_ns / NS_PER_MS).max(MIN_FILL_NS / NS_PER_MS)
    }

    /// The exact rate `tokens_per_fill / fill_interval` per second, to at most three decimals
    /// (rounded), for prose: `3.003`.
    pub fn fill_rate_text(&self) -> String {
        let ms = u128::from(self.fill_interval_ms());
        let milli = (u128::from(self.tokens_per_fill) * 1_000_000 + ms / 2) / ms;
        crate::sim::support::decimal::format_fixed(milli as u64, 3)
    }

    /// Tokens per second, as Envoy divides them: `tokens_per_fill / fill_interval` in seconds.
    pub fn fill_rate(&self) -> f64 {
        self.tokens_per_fill as f64 / (self.fill_interval_ms() as f64 / 1_000.0)
    }
}

/// Envoy's local rate limit bucket, either implementation.
#[derive(Clone, Debug)]
pub enum Envoy {
    /// `AtomicTokenBucketImpl`: refilled on access, in `double` seconds.
    Atomic {
        /// `max_tokens_`.
        max_tokens: f64,
        /// `fill_rate_`, tokens per second.
        fill_rate: f64,
        /// `time_in_seconds_`.
        time: f64,
    },
    /// The timer-driven bucket: whole tokens, `tokens_per_fill` added at each tick.
    Timer {
        /// `max_tokens`.
        max_tokens: u64,
        /// `tokens_per_fill`.
        per_fill: u64,
        /// `fill_interval`, ns.
        interval: u64,
        /// Tokens now.
        tokens: u64,
        /// Ticks applied so far (the k-th fires at k × interval).
        ticks: u64,
    },
}

fn secs(now: SimTime) -> f64 {
    // `std::chrono::duration<double>` of a nanosecond count: the count divided by 1e9.
    now.as_nanos() as f64 / 1e9
}

impl Envoy {
    /// The bucket Envoy makes for `b` at t = 0, full; `timer` picks the older implementation.
    pub fn new(b: &EnvoyBucket, timer: bool) -> Self {
        if timer {
            Envoy::Timer {
                max_tokens: b.max_tokens,
                per_fill: b.tokens_per_fill,
                interval: b.fill_interval_ms() * NS_PER_MS,
                tokens: b.max_tokens,
                ticks: 0,
            }
        } else {
            let (max_tokens, fill_rate) = (b.max_tokens as f64, b.fill_rate());
            // `init_fill`: the time is set back far enough that the bucket is full.
            Envoy::Atomic { max_tokens, fill_rate, time: 0.0 - max_tokens / fill_rate }
        }
    }

    /// Tokens at `now` (the timer's ticks up to and including `now` applied).
    fn tokens(&self, now: SimTime) -> f64 {
        match *self {
            Envoy::Atomic { max_tokens, fill_rate, time } => max_tokens.min((secs(now) - time) * fill_rate),
            Envoy::Timer { .. } => {
                let mut b = self.clone();
                b.tick(now);
                match b {
                    Envoy::Timer { tokens, .. } => tokens as f64,
                    Envoy::Atomic { .. } => unreachable!("a timer bucket stays one"),
                }
            }
        }
    }

    fn tick(&mut self, now: SimTime) {
        if let Envoy::Timer { max_tokens, per_fill, interval, tokens, ticks } = self {
            let due = now.as_nanos() / *interval;
            if due > *ticks {
                let added = (due - *ticks).saturating_mul(*per_fill);
                *tokens = (*tokens).saturating_add(added).min(*max_tokens);
                *ticks = due;
            }
        }
    }
}

crate::sim::limiter::model!(Envoy);

impl Limiter for Envoy {
    fn acquire(&mut self, now: SimTime) -> bool {
        match self {
            Envoy::Atomic { max_tokens, fill_rate, time } => {
                let t = secs(now);
                let total = max_tokens.min((t - *time) * *fill_rate);
                if total < 1.0 {
                    return false;
                }
                *time = t - (total - 1.0) / *fill_rate;
                true
            }
            Envoy::Timer { .. } => {
                self.tick(now);
                let Envoy::Timer { tokens, .. } = self else { return false };
                if *tokens == 0 {
                    return false;
                }
                *tokens -= 1;
                true
            }
        }
    }

    fn consume(&mut self, now: SimTime) {
        // Envoy never takes a token it does not have.
        self.acquire(now);
    }

    fn status(&self, now: SimTime) -> Status {
        let tokens = self.tokens(now);
        let remaining = tokens.max(0.0).floor() as u64;
        let (wait, reset) = match *self {
            Envoy::Atomic { max_tokens, fill_rate, .. } => {
                let until = |level: f64| Nanos::from_secs_f64(((level - tokens) / fill_rate).max(0.0));
                (until(1.0), until(max_tokens))
            }
            Envoy::Timer { max_tokens, per_fill, interval, .. } => {
                let next_tick = (now.as_nanos() / interval + 1) * interval - now.as_nanos();
                let fills = (max_tokens.saturating_sub(remaining)).div_ceil(per_fill.max(1));
                let reset = if fills == 0 { 0 } else { next_tick + (fills - 1) * interval };
                (Nanos(if remaining > 0 { 0 } else { next_tick }), Nanos(reset))
            }
        };
        Status { remaining, reset, wait: if remaining > 0 { Nanos::ZERO } else { wait } }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        Gauge { level: self.tokens(now).max(0.0), current: 0, previous: 0 }
    }

    fn quota(&self) -> Quota {
        let (limit, per_sec) = match *self {
            Envoy::Atomic { max_tokens, fill_rate, .. } => (max_tokens as u64, fill_rate),
            Envoy::Timer { max_tokens, per_fill, interval, .. } => {
                (max_tokens, per_fill as f64 * 1e9 / interval as f64)
            }
        };
        Quota { limit, window: Nanos::from_secs_f64(limit as f64 / per_sec) }
    }

    /// Envoy's local rate limit marks a refusal with `x-envoy-ratelimited` and sets no other
    /// header.
    fn headers(&self, d: &crate::sim::decision::Decision) -> Vec<(&'static str, String)> {
        if d.allowed {
            Vec::new()
        } else {
            vec![("x-envoy-ratelimited", "true".to_string())]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bucket(max_tokens: u64, tokens_per_fill: u64, ms: u64) -> EnvoyBucket {
        EnvoyBucket { max_tokens, tokens_per_fill, fill_interval_ns: ms * NS_PER_MS, exact: true }
    }

    #[test]
    fn the_refill_on_access_bucket_refills_continuously() {
        // 1 token per 200 ms: after 100 ms half a token, after 200 ms one.
        let mut e = Envoy::new(&bucket(1, 1, 200), false);
        assert!(e.acquire(SimTime::ZERO));
        assert!(!e.acquire(SimTime(199_000_000)));
        assert!(e.acquire(SimTime(200_000_000)));
        assert!(!e.acquire(SimTime(300_000_000)));
        assert!(e.acquire(SimTime(400_000_000)));
    }

    #[test]
    fn the_timer_bucket_refills_in_steps_at_each_tick() {
        // 5 tokens per second, one tick: nothing at 999 ms, five at 1 s.
        let mut e = Envoy::new(&bucket(5, 5, 1_000), true);
        assert_eq!((0..5).filter(|_| e.acquire(SimTime::ZERO)).count(), 5);
        assert!(!e.acquire(SimTime(999_000_000)));
        assert_eq!((0..9).filter(|_| e.acquire(SimTime(1_000_000_000))).count(), 5);
    }

    #[test]
    fn the_refill_on_access_bucket_never_bursts_above_max_tokens_after_idle() {
        let mut e = Envoy::new(&bucket(3, 1, 100), false);
        assert_eq!((0..10).filter(|_| e.acquire(SimTime::from_secs(60))).count(), 3);
    }

    #[test]
    fn fill_intervals_are_whole_milliseconds_of_at_least_50() {
        let p = |rate_milli| Policy {
            shape: crate::sim::products::policy::Shape::Bucket,
            burst: 10,
            rate_milli,
            limit: 10,
            window_ns: 1,
        };
        assert_eq!(EnvoyBucket::of(&p(5_000)), bucket(10, 1, 200));
        assert_eq!(EnvoyBucket::of(&p(1_000_000)), bucket(10, 50, 50));
        // 3/s: 1 token every 333 ms, which is 3.003/s.
        let b = EnvoyBucket::of(&p(3_000));
        assert_eq!((b.tokens_per_fill, b.fill_interval_ms(), b.exact), (1, 333, false));
    }
}
