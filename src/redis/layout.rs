//! [`Layout`]: where one run keeps its limiter in Redis, and the commands that read, write and
//! script it, for each store mode.
//!
//! The state lives in one key, `rlp:{run-…}:limiter` (one hash tag, so one Redis Cluster slot), in
//! the fields of the exported Lua scripts (`src/production/redis_lua.rs`): `tokens`/`ts` for a
//! bucket, `start`/`count` for a fixed window, `start`/`current`/`previous` for the sliding
//! counter, and for the sliding log a sorted set (atomic and async: the scripts) or a field `log`
//! listing the timestamps (race: one value to GET and SET). Times are milliseconds with six decimals (exact
//! nanoseconds); token counts have twelve decimals (exact fixed point). The racing mode adds a
//! version field `v`, incremented by every SET, to count lost updates.

use super::increments;
use super::resp::Reply;
use crate::production::redis_lua;
use crate::production::{Policy, Shape};
use crate::sim::{Algorithm, AnyLimiter, LimiterState, Nanos, Scenario, TokenBucket, Verdict};

/// One run's key and the commands of each mode.
#[derive(Clone, Debug)]
pub struct Layout {
    key: String,
    policy: Policy,
    /// The engine limiter the nodes decide with (GCRA runs as the equivalent token bucket, the
    /// script the production panel exports for it).
    fresh: AnyLimiter,
    ttl_ms: u64,
}

/// Nanoseconds as milliseconds with six decimals: exact.
///
/// ```
/// use ratelimit_playground::redis::layout::ms;
/// assert_eq!(ms(1_234_567_891), "1234.567891");
/// ```
pub fn ms(ns: u64) -> String {
    format!("{}.{:06}", ns / 1_000_000, ns % 1_000_000)
}

/// A decimal number scaled by `10^digits` to an integer: exact for plain decimals, rounded for
/// the `%.17g` forms Lua writes (`2.9999999999999996`, `1e-05`).
fn scaled(s: &str, digits: u32) -> Option<i128> {
    let s = s.trim();
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let exact = crate::sim::support::decimal::parse_fixed(body, digits).ok().map(i128::from);
    let v = match exact {
        Some(v) => v,
        None => {
            let f: f64 = body.parse().ok()?;
            if !f.is_finite() || f < 0.0 {
                return None;
            }
            (f * 10f64.powi(digits as i32)).round() as i128
        }
    };
    Some(if neg { -v } else { v })
}

fn field(items: &[Reply], i: usize) -> Option<String> {
    items.get(i).and_then(Reply::text)
}

fn bad(what: &str, reply: &Reply) -> String {
    format!("unexpected reply to {what}: {reply:?}")
}

impl Layout {
    /// The layout of scenario `sc`'s limiter under key prefix `run` (e.g. `run-1f2e-3d4c`); every
    /// write sets the key to expire after `ttl_ms`, or twice the policy's window if longer.
    pub fn new(run: &str, sc: &Scenario, ttl_ms: u64) -> Layout {
        let policy = Policy::of(sc);
        let fresh = match sc.algo {
            Algorithm::Gcra => AnyLimiter::token_bucket(TokenBucket::new(sc.capacity, sc.refill)),
            _ => sc.limiter(),
        }
        .counting_rejected(sc.count_rejected);
        let ttl_ms = ttl_ms.max(2 * policy.window_ns.div_ceil(1_000_000) + 1_000);
        Layout { key: format!("rlp:{{{run}}}:limiter"), policy, fresh, ttl_ms }
    }

    /// The key this run keeps its limiter in.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Another key of this run, `name` in place of `limiter` (same hash tag: same slot):
    /// `ledger`, `probe`.
    pub fn aux(&self, name: &str) -> String {
        format!("{}{name}", self.key.strip_suffix("limiter").unwrap_or(&self.key))
    }

    /// The expiry every write sets on the key, ms: it disappears by itself after this long idle.
    pub fn ttl_ms(&self) -> u64 {
        self.ttl_ms
    }

    /// A fresh limiter of the run's policy, as the nodes decide with it.
    pub fn fresh(&self) -> AnyLimiter {
        self.fresh.clone()
    }

    fn fields(&self) -> &'static [&'static str] {
        match self.policy.shape {
            Shape::Bucket => &["tokens", "ts"],
            Shape::FixedWindow => &["start", "count"],
            Shape::SlidingWindow => &["start", "current", "previous"],
            Shape::SlidingLog => &["log"],
        }
    }

    /// store = race, the read: `HMGET key <fields> v`.
    pub fn get(&self) -> Vec<String> {
        let mut cmd = vec!["HMGET".to_string(), self.key.clone()];
        cmd.extend(self.fields().iter().map(|f| f.to_string()));
        cmd.push("v".into());
        cmd
    }

    /// The limiter and version a `get` reply holds (a fresh limiter and version 0 if the key
    /// does not exist yet).
    pub fn read(&self, reply: &Reply) -> Result<(AnyLimiter, i64), String> {
        let items = reply.items();
        if items.len() != self.fields().len() + 1 {
            return Err(bad("HMGET", reply));
        }
        let version = items.last().and_then(Reply::int).unwrap_or(0);
        let mut limiter = self.fresh();
        let values: Option<Vec<String>> = (0..self.fields().len()).map(|i| field(items, i)).collect();
        if let Some(v) = values {
            let state = self.parse(&v).ok_or_else(|| bad("HMGET", reply))?;
            limiter.restore(&state);
        }
        Ok((limiter, version))
    }

    fn parse(&self, v: &[String]) -> Option<LimiterState> {
        let ns = |s: &str| u64::try_from(scaled(s, 6)?).ok();
        let count = |s: &str| u64::try_from(scaled(s, 0)?).ok();
        Some(match self.policy.shape {
            Shape::Bucket => LimiterState::Bucket { level: i64::try_from(scaled(&v[0], 12)?).ok()?, last: ns(&v[1])? },
            Shape::FixedWindow => LimiterState::FixedWindow { start: ns(&v[0])?, count: count(&v[1])? },
            Shape::SlidingWindow => {
                LimiterState::SlidingWindow { start: ns(&v[0])?, current: count(&v[1])?, previous: count(&v[2])? }
            }
            Shape::SlidingLog => LimiterState::SlidingLog {
                log: v[0].split(',').filter(|s| !s.is_empty()).map(ns).collect::<Option<_>>()?,
            },
        })
    }

    fn print(&self, state: &LimiterState) -> Vec<String> {
        match state {
            LimiterState::Bucket { level, last } => {
                let mag = crate::sim::support::decimal::format_fixed(level.unsigned_abs(), 12);
                vec![if *level < 0 { format!("-{mag}") } else { mag }, ms(*last)]
            }
            LimiterState::FixedWindow { start, count } => vec![ms(*start), count.to_string()],
            LimiterState::SlidingWindow { start, current, previous } => {
                vec![ms(*start), current.to_string(), previous.to_string()]
            }
            LimiterState::SlidingLog { log } => vec![log.iter().map(|&t| ms(t)).collect::<Vec<_>>().join(",")],
            LimiterState::Gcra { .. } => unreachable!("GCRA runs as the equivalent token bucket"),
        }
    }

    /// store = race, the write of `limiter`'s state: `MULTI`, `HSET`, `HINCRBY v 1`, `PEXPIRE`,
    /// `EXEC`. Five replies; the last is `[_, new version, _]`.
    pub fn set(&self, limiter: &AnyLimiter) -> Vec<Vec<String>> {
        let mut hset = vec!["HSET".to_string(), self.key.clone()];
        for (f, v) in self.fields().iter().zip(self.print(&limiter.state().expect("the runner refuses product models")))
        {
            hset.extend([f.to_string(), v]);
        }
        vec![
            vec!["MULTI".into()],
            hset,
            vec!["HINCRBY".into(), self.key.clone(), "v".into(), "1".into()],
            vec!["PEXPIRE".into(), self.key.clone(), self.ttl_ms.to_string()],
            vec!["EXEC".into()],
        ]
    }

    /// The version an `EXEC` reply of [`set`](Self::set) wrote.
    pub fn written_version(&self, reply: &Reply) -> Result<i64, String> {
        reply.items().get(1).and_then(Reply::int).ok_or_else(|| bad("EXEC", reply))
    }

    /// store = atomic: the exported script.
    pub fn script(&self) -> &'static str {
        redis_lua::script(self.policy.shape)
    }

    /// `EVALSHA`'s arguments after the sha for a request at `at` (the exported call).
    pub fn script_args(&self, at: u64, id: u64) -> Vec<String> {
        let [a, b] = redis_lua::policy_args(&self.policy);
        let mut args = vec!["1".into(), self.key.clone(), a, b, ms(at)];
        if self.policy.shape == Shape::SlidingLog {
            args.push(format!("r{id}"));
        }
        args
    }

    /// The verdict in the exported script's reply `{ allowed, …, retry_ms }`.
    pub fn verdict(&self, reply: &Reply) -> Result<Verdict, String> {
        let items = reply.items();
        let allowed = items.first().and_then(Reply::int).ok_or_else(|| bad("the script", reply))? == 1;
        let retry_ms = items.get(2).and_then(Reply::int).filter(|&ms| ms > 0 && !allowed);
        Ok(Verdict::new(allowed, retry_ms.map(|ms| Nanos::from_millis(ms as u64))))
    }

    /// store = async: the increment script (ours; the panel exports no such script).
    pub fn increment_script(&self) -> &'static str {
        match self.policy.shape {
            Shape::Bucket => increments::BUCKET_INCREMENT,
            Shape::FixedWindow => increments::FIXED_INCREMENT,
            Shape::SlidingWindow => increments::SLIDING_INCREMENT,
            Shape::SlidingLog => increments::LOG_INCREMENT,
        }
    }

    /// The increment's arguments after the sha, for node `node`'s increment `seq` at `at`.
    pub fn increment_args(&self, at: u64, node: usize, seq: u64) -> Vec<String> {
        let [a, b] = redis_lua::policy_args(&self.policy);
        let mut args = vec!["1".into(), self.key.clone(), a, b, ms(at), self.ttl_ms.to_string()];
        if self.policy.shape == Shape::SlidingLog {
            args.push(format!("n{node}-{seq}"));
        }
        args
    }

    /// store = replica_read, the read at the replica: `MULTI`, the state (`HMGET` of the
    /// increment scripts' fields, or the log's `ZRANGE … WITHSCORES`), `LLEN <ledger>`, `EXEC`.
    pub fn replica_read(&self, ledger: &str) -> Vec<Vec<String>> {
        let k = self.key.clone();
        let read = match self.policy.shape {
            Shape::SlidingLog => vec!["ZRANGE".into(), k, "0".into(), "-1".into(), "WITHSCORES".into()],
            _ => [vec!["HMGET".to_string(), k], self.fields().iter().map(|f| f.to_string()).collect()].concat(),
        };
        vec![vec!["MULTI".into()], read, vec!["LLEN".into(), ledger.into()], vec!["EXEC".into()]]
    }

    /// The limiter a replica read's state holds (fresh if the key does not exist there yet).
    pub fn replica_state(&self, reply: &Reply) -> Result<AnyLimiter, String> {
        if reply.items().iter().all(|r| r.text().is_none()) {
            return Ok(self.fresh());
        }
        self.incremented(reply)
    }

    /// The store's state in an increment's reply, as a limiter of the run's policy.
    pub fn incremented(&self, reply: &Reply) -> Result<AnyLimiter, String> {
        let items = reply.items();
        let values: Option<Vec<String>> = match self.policy.shape {
            // WITHSCORES: member, score, member, score, …
            Shape::SlidingLog => {
                let scores: Option<Vec<String>> = items.iter().skip(1).step_by(2).map(Reply::text).collect();
                scores.map(|s| vec![s.join(",")])
            }
            _ => (0..self.fields().len()).map(|i| field(items, i)).collect(),
        };
        let state = values.and_then(|v| self.parse(&v)).ok_or_else(|| bad("the increment", reply))?;
        let mut limiter = self.fresh();
        limiter.restore(&state);
        Ok(limiter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Limiter, SimTime};

    /// One token in the engine's fixed point.
    const ONE: i64 = crate::sim::rate::TOKEN as i64;

    fn layout(q: &str) -> Layout {
        Layout::new("run-test", &Scenario::from_query(q).unwrap(), 60_000)
    }

    fn bulk(s: &str) -> Reply {
        Reply::Bulk(Some(s.as_bytes().to_vec()))
    }

    /// The reply HMGET would give after `set` wrote `limiter`, at version `v`.
    fn round_trip(l: &Layout, limiter: &AnyLimiter, v: i64) -> AnyLimiter {
        let hset = &l.set(limiter)[1];
        let mut items: Vec<Reply> = hset[2..].chunks(2).map(|fv| bulk(&fv[1])).collect();
        items.push(Reply::Int(v));
        let (back, version) = l.read(&Reply::Array(Some(items))).unwrap();
        assert_eq!(version, v);
        back
    }

    #[test]
    fn every_algorithm_state_survives_a_set_and_a_get_exactly() {
        for q in [
            "capacity=3&refill=0.7",
            "algo=gcra&capacity=3",
            "algo=fixed_window",
            "algo=sliding_window",
            "algo=sliding_log",
        ] {
            let l = layout(q);
            let mut a = l.fresh();
            for t in [0, 1, 333_333_333, 1_500_000_001, 2_000_000_000, 9_999_999_999] {
                a.acquire(SimTime(t));
                let b = round_trip(&l, &a, 7);
                assert_eq!(a.state(), b.state(), "{q} at {t}");
            }
        }
    }

    #[test]
    fn a_bucket_in_debt_keeps_its_sign() {
        let l = layout("capacity=1&count_rejected=1");
        let mut a = l.fresh();
        for _ in 0..3 {
            a.acquire(SimTime(5));
        }
        assert_eq!(round_trip(&l, &a, 1).state(), Some(LimiterState::Bucket { level: -2 * ONE, last: 5 }));
    }

    #[test]
    fn a_missing_key_reads_as_a_fresh_limiter_at_version_0() {
        let l = layout("capacity=4");
        let (lim, v) =
            l.read(&Reply::Array(Some(vec![Reply::Bulk(None), Reply::Bulk(None), Reply::Bulk(None)]))).unwrap();
        assert_eq!((lim.state(), v), (l.fresh().state(), 0));
    }

    #[test]
    fn lua_float_output_is_rounded_to_the_engine_units() {
        let l = layout("capacity=4");
        let reply = Reply::Array(Some(vec![bulk("2.9999999999999996"), bulk("1234.5678909999999")]));
        let lim = l.incremented(&reply).unwrap();
        assert_eq!(lim.state(), Some(LimiterState::Bucket { level: 3 * ONE, last: 1_234_567_891 }));
        assert_eq!(scaled("1e-05", 6), Some(10));
    }

    #[test]
    fn the_atomic_call_is_the_exported_one() {
        let l = layout("algo=sliding_log&capacity=5&refill=1");
        assert_eq!(l.script_args(2_000_000, 9), ["1", "rlp:{run-test}:limiter", "5", "5000", "2.000000", "r9"]);
        assert!(l.script().contains("ZREMRANGEBYSCORE"));
        let l = layout("capacity=10&refill=5");
        assert_eq!(l.script_args(0, 0)[2..4], ["10".to_string(), "5".to_string()]);
    }
}
