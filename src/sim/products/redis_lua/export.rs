//! A Redis Lua script per algorithm: the atomic read-modify-write the playground's `atomic` store
//! mode runs. One key per client; the caller passes its clock, so every node decides on one
//! timeline (the same choice the simulation makes).

use crate::sim::products::policy::{secs, Policy, Shape};
use crate::sim::products::product::Config;

const TOKEN_BUCKET: &str = r#"-- KEYS[1]: the client's bucket   ARGV: capacity, refill (tokens/s), now (ms)
local capacity = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2]) / 1000
local now = tonumber(ARGV[3])
local s = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(s[1]) or capacity          -- a new bucket starts full
local ts = tonumber(s[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - ts) * per_ms)
local allowed, retry_ms = 0, 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retry_ms = math.ceil((1 - tokens) / per_ms)
end
redis.call('HSET', KEYS[1], 'tokens', tokens, 'ts', math.max(ts, now))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / per_ms))
return { allowed, math.floor(tokens), retry_ms }"#;

const FIXED_WINDOW: &str = r#"-- KEYS[1]: the client's counter   ARGV: limit, window (ms), now (ms)
local limit, window, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local start = now - (now % window)                 -- windows aligned to multiples of window
local s = redis.call('HMGET', KEYS[1], 'start', 'count')
local last, count = tonumber(s[1]), 0
if last and last > start then start = last end     -- a request that arrives late counts in the newer window
if last == start then count = tonumber(s[2]) end
if count + 1 > limit then
  return { 0, 0, math.ceil(start + window - now) }
end
redis.call('HSET', KEYS[1], 'start', start, 'count', count + 1)
redis.call('PEXPIRE', KEYS[1], math.ceil(start + window - now))  -- now may have a fraction
return { 1, limit - count - 1, 0 }"#;

const SLIDING_WINDOW: &str = r#"-- KEYS[1]: the client's counters   ARGV: limit, window (ms), now (ms)
local limit, window, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local start = now - (now % window)
local s = redis.call('HMGET', KEYS[1], 'start', 'current', 'previous')
local current, previous = tonumber(s[2]) or 0, tonumber(s[3]) or 0
local last = tonumber(s[1])
if last and last > start then start = last end     -- a request that arrives late counts in the newer window
if last ~= start then
  if last == start - window then previous = current else previous = 0 end
  current = 0
end
local elapsed = math.max(0, now - start)
-- previous × (1 − elapsed/window) + current + 1 ≤ limit, multiplied through by window
if previous * (window - elapsed) + (current + 1) * window > limit * window then
  return { 0, 0 }
end
redis.call('HSET', KEYS[1], 'start', start, 'current', current + 1, 'previous', previous)
redis.call('PEXPIRE', KEYS[1], 2 * window)
return { 1, 0 }"#;

const SLIDING_LOG: &str = r#"-- KEYS[1]: the client's log (a sorted set)   ARGV: limit, window (ms), now (ms), request id
local limit, window, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)   -- keep (now − window, now]
local count = redis.call('ZCARD', KEYS[1])
if count >= limit then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return { 0, 0, tonumber(oldest[2]) + window - now }
end
redis.call('ZADD', KEYS[1], now, ARGV[4])           -- members must be unique: a request id
redis.call('PEXPIRE', KEYS[1], window)
return { 1, limit - count - 1, 0 }"#;

/// The script the panel exports for a policy of this shape.
pub fn script(shape: Shape) -> &'static str {
    match shape {
        Shape::Bucket => TOKEN_BUCKET,
        Shape::FixedWindow => FIXED_WINDOW,
        Shape::SlidingWindow => SLIDING_WINDOW,
        Shape::SlidingLog => SLIDING_LOG,
    }
}

pub use super::model::policy_args;

/// The window in whole milliseconds (at least 1), as the scripts take it.
pub fn window_ms(p: &Policy) -> u64 {
    crate::sim::products::policy::round_ms(p.window_ns)
}

pub(super) fn config(p: &Policy) -> Config {
    let window_ms = window_ms(p);
    let [a, b] = policy_args(p);
    let (call, returns) = match p.shape {
        Shape::Bucket => (
            format!("EVALSHA <sha> 1 rl:{{client}} {a} {b} <now-ms>"),
            "{ allowed (1/0), tokens left, Retry-After in ms }",
        ),
        Shape::FixedWindow => {
            (format!("EVALSHA <sha> 1 rl:{{client}} {a} {b} <now-ms>"), "{ allowed, remaining, Retry-After in ms }")
        }
        Shape::SlidingWindow => (format!("EVALSHA <sha> 1 rl:{{client}} {a} {b} <now-ms>"), "{ allowed, 0 }"),
        Shape::SlidingLog => (
            format!("EVALSHA <sha> 1 rl:{{client}} {a} {b} <now-ms> <request-id>"),
            "{ allowed, remaining, Retry-After in ms }",
        ),
    };
    let script = script(p.shape);
    let snippet = format!("{script}\n\n-- SCRIPT LOAD it once, then per request:\n-- {call}\n");
    let mut notes = vec![
        "Redis runs the whole script atomically: no other command interleaves, so nodes sharing the key \
         never over-admit (the playground's atomic mode). The same steps as separate GET and SET \
         commands race (its race mode)."
            .into(),
        "Two nodes' requests can reach Redis out of order: a late one never moves the bucket's time or the \
         window backwards, so it cannot free quota (ratelimit-sim redis checks this on a real server)."
            .into(),
        format!("Times are milliseconds from the caller's clock; it returns {returns}."),
    ];
    if window_ms * 1_000_000 != p.window_ns && p.shape != Shape::Bucket {
        notes.push(format!("The window is whole milliseconds: {} s rounded.", secs(p.window_ns)));
    }
    if p.shape == Shape::Bucket {
        notes.push("Lua numbers are doubles: the refill is exact to about 15 significant digits, not to the nanosecond as in the playground.".into());
    }
    Config { target: "Redis Lua script", language: "lua", snippet, notes }
}
