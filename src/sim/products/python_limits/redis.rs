//! Python's `limits` 5.8 with its `RedisStorage` (`storage=redis`): `limits/storage/redis.py` and
//! the scripts in `limits/resources/redis/lua_scripts/` of the PyPI package, read from the wheel.
//! Where the counts live in Redis, Redis's clock decides, not `time.time()`:
//!
//! - **fixed window** (`incr_expire.lua`): `INCRBY key 1`, and on the hit that creates the key
//!   `EXPIRE key expiry`. The window is whole seconds on Redis's millisecond clock from the first
//!   hit, and lasts one millisecond longer than `MemoryStorage`'s: a key is still there at its
//!   expiry millisecond ([`RedisKey`]);
//! - **moving window** (`acquire_moving_window.lua`): the hit times are `time.time()`, sent by the
//!   client, and compared as `MemoryStorage` compares them; the list's `EXPIRE expiry` after each
//!   admitted hit outlives every entry that could still refuse, so it decides as
//!   `MemoryStorage` does (the [`super::model`] moving window runs it);
//! - **sliding-window counter** (`acquire_sliding_window.lua`): not aligned to the epoch. The
//!   current window's counter is created at its first admitted hit with `PX 2 × expiry`; a hit
//!   that finds its `PTTL` strictly between 0 and `expiry` renames it to the previous window's key
//!   (keeping its expiry) and starts a new current counter at 0 that expires `expiry` after it.
//!   So windows are anchored at the client's first hit, and the previous window weighs
//!   `floor(previous_count × PTTL(previous) / expiry)`; a hit is refused when that plus the
//!   current count plus 1 is above the limit, and refused hits change nothing.

use crate::sim::products::redis_key::RedisKey;

/// The keys one client's limit holds in Redis, by strategy.
#[derive(Clone, Copy, Debug, Default)]
pub struct RedisCounts {
    /// The fixed window's counter, or the sliding counter's current window (`{key}`).
    current: Option<RedisKey>,
    /// The sliding counter's previous window (`{key}/-1`).
    previous: Option<RedisKey>,
}

impl RedisCounts {
    /// The fixed window's hits counted at `now` (ms).
    pub fn fixed_count(&self, now: u64) -> u64 {
        RedisKey::live(self.current, now).map_or(0, |k| k.value)
    }

    /// One fixed-window hit at `now` (ms) with the window `expiry_ms`: the count after it.
    pub fn fixed_hit(&mut self, now: u64, expiry_ms: u64) -> u64 {
        let key = match RedisKey::live(self.current, now) {
            Some(k) => RedisKey { value: k.value + 1, ..k },
            None => RedisKey::set(1, now, expiry_ms),
        };
        self.current = Some(key);
        key.value
    }

    /// The sliding counter's keys as a script at `now` (ms) sees them after its shift: the
    /// previous window's count and `PTTL` (0 when gone) and the current window's count, and the
    /// keys to store if the script runs.
    fn shifted(&self, now: u64, expiry_ms: u64) -> (u64, u64, u64, RedisCounts) {
        let mut keys = *self;
        let ttl = RedisKey::pttl(self.current, now);
        if ttl > 0 && (ttl as u64) < expiry_ms {
            keys.previous = RedisKey::live(self.current, now);
            keys.current = Some(RedisKey::set(0, now, ttl as u64 + expiry_ms));
        }
        let previous = RedisKey::live(keys.previous, now).map_or(0, |k| k.value);
        let previous_ttl = RedisKey::pttl(keys.previous, now).max(0) as u64;
        let current = RedisKey::live(keys.current, now).map_or(0, |k| k.value);
        (previous, previous_ttl, current, keys)
    }

    /// The sliding counter's `floor(previous × PTTL / expiry) + current` at `now` (ms), in the
    /// script's doubles.
    pub fn sliding_weighted(&self, now: u64, expiry_ms: u64) -> u64 {
        let (previous, ttl, current, _) = self.shifted(now, expiry_ms);
        (previous as f64 * ttl as f64 / expiry_ms as f64).floor() as u64 + current
    }

    /// One sliding-counter hit at `now` (ms): whether it is admitted under `limit`.
    pub fn sliding_hit(&mut self, now: u64, expiry_ms: u64, limit: u64) -> bool {
        let weighted = self.sliding_weighted(now, expiry_ms);
        let (.., mut keys) = self.shifted(now, expiry_ms);
        let admitted = weighted < limit;
        if admitted {
            keys.current = Some(match RedisKey::live(keys.current, now) {
                Some(k) => RedisKey { value: k.value + 1, ..k },
                None => RedisKey::set(1, now, 2 * expiry_ms),
            });
        }
        *self = keys;
        admitted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixed_window_is_still_counting_at_its_expiry_millisecond() {
        let mut r = RedisCounts::default();
        assert_eq!(r.fixed_hit(700, 1_000), 1);
        assert_eq!(r.fixed_hit(1_700, 1_000), 2);
        assert_eq!(r.fixed_hit(1_701, 1_000), 1);
    }

    #[test]
    fn the_sliding_counter_starts_its_windows_at_the_first_hit() {
        let mut r = RedisCounts::default();
        // Limit 2 per 10 s, first hit at 3.5 s: windows end at 13.5 s, 23.5 s, … not at 10 s.
        assert!(r.sliding_hit(3_500, 10_000, 2));
        assert!(r.sliding_hit(4_000, 10_000, 2));
        assert!(!r.sliding_hit(10_500, 10_000, 2));
        // At 13.5 s exactly the PTTL is the expiry: no shift yet, still the first window.
        assert!(!r.sliding_hit(13_500, 10_000, 2));
        // At 18.5 s the previous 2 weigh floor(2 × 5 000 / 10 000) = 1: one more gets in.
        assert!(r.sliding_hit(18_500, 10_000, 2));
        assert!(!r.sliding_hit(18_500, 10_000, 2));
    }
}
