//! [`ProductOptions`]: the products' own knobs, beyond the policy keys every algorithm shares.

use crate::sim::algorithm::Algorithm;

/// The products' own knobs, beyond the policy keys every algorithm shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProductOptions {
    /// nginx: `nodelay` (the export's default): the burst is answered at once instead of delayed.
    pub nodelay: bool,
    /// nginx: `delay=N` without `nodelay`: the first N requests beyond the rate pass undelayed.
    pub delay: u64,
    /// nginx: `limit_req_status`, the status of a rejection: 429 as exported, 503 nginx's default.
    pub nginx_status: u16,
    /// Envoy: the timer-driven bucket of Envoy ≤ 1.31 instead of today's refill on access.
    pub envoy_timer: bool,
    /// Redis Lua: which exported script runs (one of the four textbook shapes).
    pub lua: Algorithm,
}

impl Default for ProductOptions {
    fn default() -> Self {
        ProductOptions { nodelay: true, delay: 0, nginx_status: 429, envoy_timer: false, lua: Algorithm::TokenBucket }
    }
}

/// The scripts `lua=` picks for `algo=redis_lua`: the four textbook shapes, by query name.
pub const LUA_SCRIPTS: [(&str, Algorithm); 4] = [
    ("token_bucket", Algorithm::TokenBucket),
    ("fixed_window", Algorithm::FixedWindow),
    ("sliding_window", Algorithm::SlidingWindow),
    ("sliding_log", Algorithm::SlidingLog),
];
