//! The production panel's Redis Lua scripts (`crate::production::redis_lua`) as Redis runs them:
//! Lua 5.1 numbers are `double`s, `now` is the caller's clock in milliseconds with a fraction
//! (`1234.567891`), and state round-trips through Redis exactly (a number is written with as
//! many digits as it takes to read the same `double` back).
//!
//! Each function below is its script, line for line, in `f64`: the same operations in the same
//! order, so the same values come out. `tests/real/lua.rs` checks that on a real redis-server.

use crate::sim::decision::{Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::{round_ms, Policy, Shape};
use crate::sim::time::{Nanos, SimTime};

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
    /// The arguments the panel exports for `p` (see `production::redis_lua::policy_args`).
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

/// `tonumber` of a decimal: the nearest `double`, as C's `strtod` reads it.
fn lua_number(s: &str) -> f64 {
    s.parse().unwrap_or(0.0)
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
    /// The sorted set's scores, oldest first.
    Log(Vec<f64>),
}

/// One client's key under the exported script.
#[derive(Clone, Debug)]
pub struct RedisLua {
    args: LuaArgs,
    key: Key,
}

/// A script's answer: allowed, and the Retry-After in ms it returns (0 if none).
type Reply = (bool, f64);

impl RedisLua {
    /// A client whose key does not exist yet.
    pub fn new(args: LuaArgs) -> Self {
        RedisLua { args, key: Key::Missing }
    }

    /// Runs the script for a request at `now`, returning its answer and the key it leaves.
    fn run(&self, now: SimTime) -> (Reply, Key) {
        let now = lua_number(&now_arg(now));
        let LuaArgs { shape, a, b } = self.args;
        match shape {
            Shape::Bucket => self.token_bucket(a, b, now),
            Shape::FixedWindow => self.fixed_window(a, b, now),
            Shape::SlidingWindow => self.sliding_window(a, b, now),
            Shape::SlidingLog => self.sliding_log(a, b, now),
        }
    }

    fn token_bucket(&self, capacity: f64, refill: f64, now: f64) -> (Reply, Key) {
        let per_ms = refill / 1000.0;
        let (mut tokens, ts) = match self.key {
            Key::Bucket(tokens, ts) => (tokens, ts),
            _ => (capacity, now),
        };
        tokens = capacity.min(tokens + (now - ts).max(0.0) * per_ms);
        let reply = if tokens >= 1.0 {
            tokens -= 1.0;
            (true, 0.0)
        } else {
            (false, ((1.0 - tokens) / per_ms).ceil())
        };
        (reply, Key::Bucket(tokens, ts.max(now)))
    }

    fn fixed_window(&self, limit: f64, window: f64, now: f64) -> (Reply, Key) {
        let mut start = now - lua_mod(now, window);
        let (last, stored) = match self.key {
            Key::Fixed(last, count) => (Some(last), count),
            _ => (None, 0.0),
        };
        let mut count = 0.0;
        if let Some(last) = last.filter(|&l| l > start) {
            start = last;
        }
        if last == Some(start) {
            count = stored;
        }
        if count + 1.0 > limit {
            return ((false, (start + window - now).ceil()), self.key.clone());
        }
        ((true, 0.0), Key::Fixed(start, count + 1.0))
    }

    fn sliding_window(&self, limit: f64, window: f64, now: f64) -> (Reply, Key) {
        let mut start = now - lua_mod(now, window);
        let (last, mut current, mut previous) = match self.key {
            Key::Sliding(last, current, previous) => (Some(last), current, previous),
            _ => (None, 0.0, 0.0),
        };
        if let Some(last) = last.filter(|&l| l > start) {
            start = last;
        }
        if last != Some(start) {
            previous = if last == Some(start - window) { current } else { 0.0 };
            current = 0.0;
        }
        let elapsed = (now - start).max(0.0);
        if previous * (window - elapsed) + (current + 1.0) * window > limit * window {
            return ((false, 0.0), self.key.clone());
        }
        ((true, 0.0), Key::Sliding(start, current + 1.0, previous))
    }

    fn sliding_log(&self, limit: f64, window: f64, now: f64) -> (Reply, Key) {
        let mut log = match &self.key {
            Key::Log(log) => log.clone(),
            _ => Vec::new(),
        };
        let cutoff = now - window;
        log.retain(|&score| score > cutoff); // ZREMRANGEBYSCORE -inf (now − window), inclusive
        if log.len() as f64 >= limit {
            let retry = log.first().map_or(0.0, |&oldest| oldest + window - now);
            return ((false, retry), Key::Log(log));
        }
        // ZADD keeps the set ordered by score; a late request's score goes in its place.
        let at = log.partition_point(|&s| s <= now);
        log.insert(at, now);
        ((true, 0.0), Key::Log(log))
    }

    /// The first instant at or after `now` at which the script would admit, searched on the
    /// millisecond grid its replies use; exact enough for Retry-After and charts.
    fn wait_from(&self, now: SimTime) -> Nanos {
        let ((allowed, retry_ms), _) = self.run(now);
        if allowed {
            return Nanos::ZERO;
        }
        if retry_ms > 0.0 {
            return Nanos::from_secs_f64(retry_ms / 1000.0);
        }
        // The sliding window says only "no": step forward until it says yes (≤ one window).
        let step = Nanos::from_millis(1).as_nanos();
        let window = (self.args.b.max(1.0) as u64).saturating_mul(2);
        (1..=window).map(|k| Nanos(k * step)).find(|&d| self.run(now + d).0 .0).unwrap_or(Nanos::from_millis(window))
    }
}

impl Limiter for RedisLua {
    fn acquire(&mut self, now: SimTime) -> bool {
        let ((allowed, _), key) = self.run(now);
        self.key = key;
        allowed
    }

    fn consume(&mut self, now: SimTime) {
        // The scripts never record a refused request: run it for its state change alone.
        self.acquire(now);
    }

    fn status(&self, now: SimTime) -> Status {
        let mut probe = self.clone();
        let mut remaining = 0;
        let cap = self.quota().limit;
        while remaining < cap && probe.acquire(now) {
            remaining += 1;
        }
        let wait = if remaining > 0 { Nanos::ZERO } else { self.wait_from(now) };
        // The scripts keep no "full again" time: at most one window (the bucket: capacity ÷ refill).
        let reset = if remaining == cap { Nanos::ZERO } else { self.quota().window };
        Status { remaining, reset, wait }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let now_ms = lua_number(&now_arg(now));
        match &self.key {
            Key::Missing => {
                Gauge { level: if self.args.shape == Shape::Bucket { self.args.a } else { 0.0 }, ..Gauge::default() }
            }
            Key::Bucket(tokens, ts) => {
                let level = self.args.a.min(tokens + (now_ms - ts).max(0.0) * self.args.b / 1000.0);
                Gauge { level, ..Gauge::default() }
            }
            Key::Fixed(_, count) => Gauge { level: *count, current: *count as u64, previous: 0 },
            Key::Sliding(_, current, previous) => {
                Gauge { level: current + previous, current: *current as u64, previous: *previous as u64 }
            }
            Key::Log(log) => Gauge { level: log.len() as f64, current: log.len() as u64, previous: 0 },
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
    fn the_log_script_frees_a_slot_exactly_one_window_later() {
        let mut l = lua(Shape::SlidingLog, 1.0, 1000.0);
        assert!(l.acquire(SimTime(1_000_000)));
        assert!(!l.acquire(SimTime(1_000_999_999)));
        assert!(l.acquire(SimTime(1_001_000_000)));
    }
}
