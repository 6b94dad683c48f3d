//! [`ProductKey`]: a query key of one product's own (nginx's `nodelay`, the Lua script's `lua`),
//! declared in that product's module. The query format reads, prints and validates these beside
//! the keys every algorithm shares, and [`super::ProductOptions`] holds their values.

/// A product's own query key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProductKey {
    /// The key, e.g. `nodelay`.
    pub key: &'static str,
    /// What it takes.
    pub kind: KeyKind,
    /// Its value when a link does not give it.
    pub default: u64,
}

/// What a product key takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKind {
    /// A decimal with `digits` fractional digits in `min..=max` (in those units), held as an
    /// integer.
    Num {
        /// What the number counts, e.g. "requests".
        unit: &'static str,
        /// Fractional digits.
        digits: u32,
        /// The least value allowed.
        min: u64,
        /// The greatest value allowed.
        max: u64,
    },
    /// One of these names, each standing for a value; a value is printed as its first name.
    Names(&'static [(&'static str, u64)]),
    /// A stretch of simulated time, `START-END` in seconds to the millisecond with
    /// `START < END ≤ 86400` (as `outage`), or `none`: held as `START_ms × 2³² + END_ms`, 0 for
    /// none ([`span`]).
    Span,
}

/// A [`KeyKind::Span`] key's value as `(start, end)` in milliseconds, `None` for none.
///
/// ```
/// use ratelimit_playground::sim::products::key::span;
/// assert_eq!(span((10_000 << 32) | 20_500), Some((10_000, 20_500)));
/// assert_eq!(span(0), None);
/// ```
pub fn span(value: u64) -> Option<(u64, u64)> {
    (value != 0).then_some((value >> 32, value & 0xFFFF_FFFF))
}

/// [`KeyKind::Names`] of an on/off key: `0` or `1` (also `false` or `true`).
pub const ON_OFF: KeyKind = KeyKind::Names(&[("0", 0), ("1", 1), ("false", 0), ("true", 1)]);

impl ProductKey {
    /// The value `name` stands for, if this key takes names and `name` is one.
    pub fn value_of(&self, name: &str) -> Option<u64> {
        match self.kind {
            KeyKind::Names(names) => names.iter().find(|(n, _)| *n == name).map(|&(_, v)| v),
            _ => None,
        }
    }

    /// The first name of `value`, if this key takes names and one stands for it.
    pub fn name_of(&self, value: u64) -> Option<&'static str> {
        match self.kind {
            KeyKind::Names(names) => names.iter().find(|&&(_, v)| v == value).map(|&(n, _)| n),
            _ => None,
        }
    }
}

/// `storage=memory|redis` (memory, the default): where an application library keeps its counts.
/// In process memory (Python limits' `MemoryStorage`, rate-limiter-flexible's
/// `RateLimiterMemory`) the library's own clock decides; in Redis (`RedisStorage`,
/// `RateLimiterRedis`) Redis's millisecond clock and whole-second expiries do.
pub const STORAGE: ProductKey =
    ProductKey { key: "storage", kind: KeyKind::Names(&[("memory", 0), ("redis", 1)]), default: 0 };
