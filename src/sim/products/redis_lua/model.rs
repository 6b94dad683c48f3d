//! The production panel's Redis Lua scripts ([`super::export`]) as Redis runs them:
//! Lua 5.1 numbers are `double`s, `now` is the caller's clock in milliseconds with a fraction
//! (`1234.567891`), and state round-trips through Redis exactly (a number is written with as
//! many digits as it takes to read the same `double` back).
//!
//! Each function below is its script, line for line, in `f64`: the same operations in the same
//! order, so the same values come out. `tests/real/lua.rs` checks that on a real redis-server.

use crate::sim::decision::{Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::policy::{round_ms, Policy, Shape};
use crate::sim::time::{Nanos, SimTime};
use std::collections::VecDeque;

/// The exported call's arguments before `now`, as the numbers `tonumber` reads from them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LuaArgs {
    /// Which script.
    pub shape: Shape,
    /// `ARGV[1]`: the bucket's capacity or the window's limit.
    pub a: f64,
    /// `ARGV[2]`: the refill per second, or the window in whole ms.
    pub b: f64,
}

impl LuaArgs {
    /// The arguments the panel exports for `p` (see [`policy_args`]).
    pub fn of(p: &Policy) -> LuaArgs {
        let [a, b] = policy_args(p);
        LuaArgs { shape: p.shape, a: lua_number(&a), b: lua_number(&b) }
    }
}

/// The policy's arguments as the exported call writes them before `<now-ms>`: capacity and
/// refill per second for a bucket, the limit and the window in whole ms otherwise.
pub fn policy_args(p: &Policy) -> [String; 2] {
    match p.shape {
        Shape::Bucket => [p.burst.to_string(), p.per_sec()],
        _ => [p.limit.to_string(), round_ms(p.window_ns).to_string()],
    }
}

/// `now` as the callers pass it: milliseconds with six decimals (nanosecond exact).
pub fn now_arg(now: SimTime) -> String {
    let ns = now.as_nanos();
    format!("{}.{:06}", ns / 1_000_000, ns % 1_000_000)
}

/// `tonumber` of a decimal: the nearest `double`, as C's `strtod` reads it (the arguments are
/// plain decimals: integers, a refill like `0.25`, and `now` in ms with six decimals).
fn lua_number(s: &str) -> f64 {
    crate::sim::support::nearest::nearest_f64(s).unwrap_or(0.0)
}

/// Lua 5.1's `a % b`: `a − floor(a / b) × b`.
fn lua_mod(a: f64, b: f64) -> f64 {
    a - (a / b).floor() * b
}

/// The state one of the scripts keeps in its key.
#[derive(Clone, Debug, PartialEq)]
enum Key {
    /// No key (never written, or expired: the scripts' expiries never cut a state short).
    Missing,
    /// `tokens`, `ts`.
    Bucket(f64, f64),
    /// `start`, `count`.
    Fixed(f64, f64),
    /// `start`, `current`, `previous`.
    Sliding(f64, f64, f64),
    /// The sorted set's scores, lowest first.
    Log(VecDeque<f64>),
}

/// One client's key under the exported script.
#[derive(Clone, Debug)]
pub struct RedisLua {
    args: LuaArgs,
    key: Key,
}

/// What a script answers at `now` before writing anything: whether it admits, its Retry-After
/// in ms (0 if it gives none), and the whole requests it would admit back to back.
struct Answer {
    allowed: bool,
    retry_ms: f64,
    room: u64,
}

impl RedisLua {
    /// A client whose key does not exist yet.
    pub fn new(args: LuaArgs) -> Self {
        RedisLua { args, key: Key::Missing }
    }

    /// The bucket script's refill: `(tokens, ts)` at `now`.
    fn bucket_at(&self, now: f64) -> (f64, f64) {
        let (capacity, per_ms) = (self.args.a, self.args.b / 1000.0);
        let (tokens, ts) = match self.key {
            Key::Bucket(tokens, ts) => (tokens, ts),
            _ => (capacity, now),
        };
        (capacity.min(tokens + (now - ts).max(0.0) * per_ms), ts)
    }

    /// The window scripts' `start` at `now` and the stored window it resumes, if the same one.
    fn window_at(&self, now: f64, last: Option<f64>) -> f64 {
        let start = now - lua_mod(now, self.args.b);
        last.filter(|&l| l > start).unwrap_or(start) // a late request counts in the newer window
    }

    /// The sliding window script's `(start, current, previous)` at `now`.
    fn sliding_at(&self, now: f64) -> (f64, f64, f64) {
        let window = self.args.b;
        let (last, mut current, mut previous) = match self.key {
            Key::Sliding(last, current, previous) => (Some(last), current, previous),
            _ => (None, 0.0, 0.0),
        };
        let start = self.window_at(now, last);
        if last != Some(start) {
            previous = if last == Some(start - window) { current } else { 0.0 };
            current = 0.0;
        }
        (start, current, previous)
    }

    /// The log entries still in the window at `now` (ZREMRANGEBYSCORE −inf (now − window)).
    fn log_kept(&self, now: f64) -> usize {
        match &self.key {
            Key::Log(log) => log.len() - log.partition_point(|&score| score <= now - self.args.b),
            _ => 0,
        }
    }

    /// The script's answer at `now`, computed as it does but written nowhere.
    fn answer(&self, now: f64) -> Answer {
        let LuaArgs { shape, a: limit, b: window } = self.args;
        let whole = |x: f64| x.max(0.0).floor() as u64;
        match shape {
            Shape::Bucket => {
                let (tokens, _) = self.bucket_at(now);
                let retry = if tokens >= 1.0 { 0.0 } else { ((1.0 - tokens) / (self.args.b / 1000.0)).ceil() };
                Answer { allowed: tokens >= 1.0, retry_ms: retry, room: whole(tokens) }
            }
            Shape::FixedWindow => {
                let (last, stored) = match self.key {
                    Key::Fixed(last, count) => (Some(last), count),
                    _ => (None, 0.0),
                };
                let start = self.window_at(now, last);
                let count = if last == Some(start) { stored } else { 0.0 };
                let allowed = count + 1.0 <= limit;
                let retry = if allowed { 0.0 } else { (start + window - now).ceil() };
                Answer { allowed, retry_ms: retry, room: whole(limit - count) }
            }
            Shape::SlidingWindow => {
                let (start, current, previous) = self.sliding_at(now);
                let elapsed = (now - start).max(0.0);
                // previous × (1 − elapsed/window) + current + 1 ≤ limit, multiplied through by window
                let used = previous * (window - elapsed);
                let allowed = used + (current + 1.0) * window <= limit * window;
                Answer { allowed, retry_ms: 0.0, room: whole((limit * window - used) / window - current) }
            }
            Shape::SlidingLog => {
                let kept = self.log_kept(now);
                let allowed = (kept as f64) < limit;
                let retry = match &self.key {
                    Key::Log(log) if !allowed => log[log.len() - kept] + window - now,
                    _ => 0.0,
                };
                Answer { allowed, retry_ms: retry, room: whole(limit - kept as f64) }
            }
        }
    }

    /// Runs the script for a request at `now`: its answer, and the key as it leaves it.
    fn run(&mut self, now: f64) -> bool {
        let allowed = self.answer(now).allowed;
        match self.args.shape {
            Shape::Bucket => {
                let (tokens, ts) = self.bucket_at(now);
                self.key = Key::Bucket(if allowed { tokens - 1.0 } else { tokens }, ts.max(now));
            }
            Shape::FixedWindow if allowed => {
                let last = match self.key {
                    Key::Fixed(last, _) => Some(last),
                    _ => None,
                };
                let start = self.window_at(now, last);
                let count = match self.key {
                    Key::Fixed(l, c) if l == start => c,
                    _ => 0.0,
                };
                self.key = Key::Fixed(start, count + 1.0);
            }
            Shape::SlidingWindow if allowed => {
                let (start, current, previous) = self.sliding_at(now);
                self.key = Key::Sliding(start, current + 1.0, previous);
            }
            Shape::SlidingLog => {
                let cutoff = now - self.args.b;
                let Key::Log(log) = &mut self.key else {
                    self.key = Key::Log(VecDeque::new());
                    return self.run(now);
                };
                while log.front().is_some_and(|&score| score <= cutoff) {
                    log.pop_front();
                }
                if allowed {
                    // ZADD keeps the set ordered by score; a late request's score goes in its place.
                    if log.back().is_none_or(|&last| last <= now) {
                        log.push_back(now);
                    } else {
                        log.insert(log.partition_point(|&s| s <= now), now);
                    }
                }
            }
            _ => {} // a refused window request writes nothing
        }
        allowed
    }

    /// The first instant at or after `now` at which the script would admit: its own
    /// Retry-After where it gives one, else (the sliding window) the first such millisecond.
    fn wait_from(&self, now: SimTime) -> Nanos {
        let a = self.answer(lua_number(&now_arg(now)));
        if a.allowed {
            return Nanos::ZERO;
        }
        if a.retry_ms > 0.0 {
            return Nanos::from_secs_f64(a.retry_ms / 1000.0);
        }
        let from = now.as_nanos().div_ceil(1_000_000);
        let to = from + (self.args.b.max(1.0) as u64).saturating_mul(2);
        let admits = |ms: u64| self.answer(ms as f64).allowed;
        let at = crate::sim::products::probe::first(from, to, admits).unwrap_or(to);
        Nanos((at * 1_000_000).saturating_sub(now.as_nanos()))
    }
}

crate::sim::limiter::model!(RedisLua);

impl Limiter for RedisLua {
    fn acquire(&mut self, now: SimTime) -> bool {
        self.run(lua_number(&now_arg(now)))
    }

    fn consume(&mut self, now: SimTime) {
        // The scripts never record a refused request: run it for its state change alone.
        self.acquire(now);
    }

    fn status(&self, now: SimTime) -> Status {
        let remaining = self.answer(lua_number(&now_arg(now))).room;
        let wait = if remaining > 0 { Nanos::ZERO } else { self.wait_from(now) };
        // The scripts keep no "full again" time: at most one window (the bucket: capacity ÷ refill).
        let reset = if remaining >= self.quota().limit { Nanos::ZERO } else { self.quota().window };
        Status { remaining, reset, wait }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let now_ms = lua_number(&now_arg(now));
        match &self.key {
            Key::Missing if self.args.shape == Shape::Bucket => Gauge { level: self.args.a, ..Gauge::default() },
            Key::Missing => Gauge::default(),
            Key::Bucket(..) => Gauge { level: self.bucket_at(now_ms).0, ..Gauge::default() },
            Key::Fixed(_, count) => Gauge { level: *count, current: *count as u64, previous: 0 },
            Key::Sliding(_, current, previous) => {
                Gauge { level: current + previous, current: *current as u64, previous: *previous as u64 }
            }
            Key::Log(_) => {
                let kept = self.log_kept(now_ms) as u64;
                Gauge { level: kept as f64, current: kept, previous: 0 }
            }
        }
    }

    fn quota(&self) -> Quota {
        let LuaArgs { shape, a, b } = self.args;
        let window = match shape {
            Shape::Bucket => Nanos::from_secs_f64(a / b.max(1e-9)),
            _ => Nanos::from_millis(b as u64),
        };
        Quota { limit: a as u64, window }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lua(shape: Shape, a: f64, b: f64) -> RedisLua {
        RedisLua::new(LuaArgs { shape, a, b })
    }

    fn at_ms(ms: u64) -> SimTime {
        SimTime(ms * 1_000_000)
    }

    #[test]
    fn now_is_milliseconds_with_six_decimals() {
        assert_eq!(now_arg(SimTime(1_234_567_891)), "1234.567891");
        assert_eq!(now_arg(SimTime(5)), "0.000005");
    }

    #[test]
    fn the_bucket_script_admits_capacity_then_refills_per_millisecond() {
        let mut l = lua(Shape::Bucket, 2.0, 4.0);
        assert!(l.acquire(at_ms(0)) && l.acquire(at_ms(0)));
        assert!(!l.acquire(at_ms(249)));
        assert!(l.acquire(at_ms(250)));
    }

    #[test]
    fn a_late_request_never_moves_the_fixed_window_back() {
        let mut l = lua(Shape::FixedWindow, 1.0, 1000.0);
        assert!(l.acquire(at_ms(1_500)));
        // A request stamped in the previous window, reaching Redis after: counted in the newer one.
        assert!(!l.acquire(at_ms(900)));
        assert!(l.acquire(at_ms(2_000)));
    }

    #[test]
    fn the_sliding_window_script_weighs_the_previous_window() {
        let mut l = lua(Shape::SlidingWindow, 2.0, 1000.0);
        assert!(l.acquire(at_ms(100)) && l.acquire(at_ms(200)));
        // At 1.5 s half of the previous window's 2 still count: 1 + 1 ≤ 2 admits once.
        assert!(l.acquire(at_ms(1_500)));
        assert!(!l.acquire(at_ms(1_500)));
    }

    #[test]
    fn the_wait_of_a_day_long_sliding_window_script_lands_on_its_first_admitting_millisecond() {
        let mut l = lua(Shape::SlidingWindow, 10.0, 86_400_000.0);
        assert_eq!((0..11).filter(|_| l.acquire(at_ms(5))).count(), 10);
        let wait = l.status(at_ms(5)).wait;
        let at = SimTime(at_ms(5).as_nanos() + wait.as_nanos());
        assert!(!l.clone().acquire(SimTime(at.as_nanos() - 1_000_000)), "one ms earlier is refused");
        assert!(l.acquire(at), "{wait:?}");
    }

    #[test]
    fn a_refused_log_request_still_drops_what_left_the_window() {
        let mut l = lua(Shape::SlidingLog, 1.0, 10.0);
        assert!(l.acquire(at_ms(0)));
        assert!(!l.acquire(at_ms(5)));
        assert_eq!(l.status(at_ms(5)).wait, Nanos::from_millis(5));
        assert!(l.acquire(at_ms(10)));
        assert_eq!(l.gauge(at_ms(10)).current, 1);
    }

    #[test]
    fn the_log_script_frees_a_slot_exactly_one_window_later() {
        let mut l = lua(Shape::SlidingLog, 1.0, 1000.0);
        assert!(l.acquire(SimTime(1_000_000)));
        assert!(!l.acquire(SimTime(1_000_999_999)));
        assert!(l.acquire(SimTime(1_001_000_000)));
    }
}
