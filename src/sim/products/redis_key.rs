//! [`RedisKey`]: one Redis key's value and expiry as a script sees it, for the models of libraries
//! that keep their counts in Redis. Redis's clock is whole milliseconds (`mstime()`, the wall
//! clock's ms truncated) and a key with an expiry is still there at exactly that millisecond:
//! it is gone once `now > when` (`keyIsExpired` in Redis 7's `src/db.c`).

use crate::sim::time::SimTime;

/// Redis's `mstime()` at `now`, counted from simulated 0.
pub fn ms(now: SimTime) -> u64 {
    now.as_nanos() / 1_000_000
}

/// A key's value and its expiry (ms, on [`ms`]'s clock), `None` for a key without one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RedisKey {
    /// The integer it holds.
    pub value: u64,
    /// When it expires.
    pub when: Option<u64>,
}

impl RedisKey {
    /// `SET key value PX ttl` at `now` (ms): `ttl` 0 for no expiry, as `SET key value` alone.
    pub fn set(value: u64, now: u64, ttl: u64) -> RedisKey {
        RedisKey { value, when: (ttl > 0).then_some(now + ttl) }
    }

    /// The key as a command at `now` (ms) finds it: `None` once it has expired.
    pub fn live(key: Option<RedisKey>, now: u64) -> Option<RedisKey> {
        key.filter(|k| k.when.is_none_or(|w| now <= w))
    }

    /// `PTTL` at `now` (ms): −2 for no key, −1 for a key without an expiry, else the ms left.
    pub fn pttl(key: Option<RedisKey>, now: u64) -> i64 {
        match Self::live(key, now) {
            None => -2,
            Some(RedisKey { when: None, .. }) => -1,
            Some(RedisKey { when: Some(w), .. }) => (w - now) as i64,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_still_there_at_its_expiry_millisecond() {
        let k = Some(RedisKey::set(3, 1_000, 2_000));
        assert_eq!(RedisKey::pttl(k, 3_000), 0);
        assert_eq!(RedisKey::live(k, 3_000).map(|k| k.value), Some(3));
        assert_eq!(RedisKey::pttl(k, 3_001), -2);
        assert_eq!(RedisKey::pttl(Some(RedisKey::set(1, 0, 0)), u64::MAX), -1);
    }
}
