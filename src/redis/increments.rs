//! The increment scripts of store = async and store = replica_read (ours; the production panel
//! exports no such script): count one request at the node's time, even past the limit (the node
//! has already decided), and reply the state, which an edge node takes as its new view.

/// The async mode's increment for a bucket: refill, take one token even into debt, reply the state.
pub const BUCKET_INCREMENT: &str = r#"-- KEYS[1]: the bucket   ARGV: capacity, refill (tokens/s), now (ms), ttl (ms)
local capacity, per_ms, now = tonumber(ARGV[1]), tonumber(ARGV[2]) / 1000, tonumber(ARGV[3])
local s = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(s[1]) or capacity
local ts = tonumber(s[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - ts) * per_ms) - 1
ts = math.max(ts, now)
local t, n = string.format('%.17g', tokens), string.format('%.17g', ts)
redis.call('HSET', KEYS[1], 'tokens', t, 'ts', n)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return { t, n }"#;

/// The async mode's increment for a fixed window.
pub const FIXED_INCREMENT: &str = r#"-- KEYS[1]: the counter   ARGV: limit, window (ms), now (ms), ttl (ms)
local window, now = tonumber(ARGV[2]), tonumber(ARGV[3])
local start = now - (now % window)
local s = redis.call('HMGET', KEYS[1], 'start', 'count')
local last, count = tonumber(s[1]), tonumber(s[2]) or 0
if last == nil or last < start then last, count = start, 0 end
count = count + 1
redis.call('HSET', KEYS[1], 'start', string.format('%.17g', last), 'count', count)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return { string.format('%.17g', last), count }"#;

/// The async mode's increment for the sliding window counter.
pub const SLIDING_INCREMENT: &str = r#"-- KEYS[1]: the counters   ARGV: limit, window (ms), now (ms), ttl (ms)
local window, now = tonumber(ARGV[2]), tonumber(ARGV[3])
local start = now - (now % window)
local s = redis.call('HMGET', KEYS[1], 'start', 'current', 'previous')
local last, current, previous = tonumber(s[1]), tonumber(s[2]) or 0, tonumber(s[3]) or 0
if last == nil or last < start then
  if last == start - window then previous = current else previous = 0 end
  last, current = start, 0
end
current = current + 1
redis.call('HSET', KEYS[1], 'start', string.format('%.17g', last), 'current', current, 'previous', previous)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return { string.format('%.17g', last), current, previous }"#;

/// The async mode's increment for the sliding log: one more timestamp, the newest `limit` kept.
pub const LOG_INCREMENT: &str = r#"-- KEYS[1]: the log   ARGV: limit, window (ms), now (ms), ttl (ms), member
local limit, window, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], now, ARGV[5])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -(limit + 1))
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')"#;
