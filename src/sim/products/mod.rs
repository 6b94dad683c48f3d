//! The limiters people actually run, modelled as those products compute: nginx `limit_req`,
//! Envoy's local rate limit, the `governor` crate, express-rate-limit's MemoryStore, Upstash
//! Ratelimit's three scripts and the Lua scripts the production panel exports.
//!
//! Each model takes the product's own parameters in the product's own units — derived from the
//! scenario's [`Policy`] by the same functions the production panel's exports print — and
//! implements [`crate::sim::Limiter`], so the engine runs it like any textbook algorithm. The
//! file of each product names the source it was read from; `tests/real/` checks the models
//! decision by decision against the real software.

pub mod envoy;
pub mod express;
pub mod governor;
pub mod models;
pub mod nginx;
mod policy;
pub mod redis_lua;
pub mod upstash;

pub use policy::{Policy, Shape};

use super::scenario::Algorithm;

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

/// Every product model, in the production panel's order.
pub const PRODUCTS: [Algorithm; 8] = [
    Algorithm::Nginx,
    Algorithm::Envoy,
    Algorithm::Governor,
    Algorithm::Express,
    Algorithm::UpstashFixed,
    Algorithm::UpstashSliding,
    Algorithm::UpstashToken,
    Algorithm::RedisLua,
];

/// Whole milliseconds of `ns`, rounded to the nearest and at least 1: how the exports write a
/// window (`windowMs`, an Upstash duration, the Lua scripts' window argument).
pub fn round_ms(ns: u64) -> u64 {
    (ns.saturating_add(500_000) / 1_000_000).max(1)
}

/// Greatest common divisor.
pub(crate) fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The production tab a product belongs to, as the CLI's `--export` names it.
pub fn export_name(product: Algorithm) -> Option<&'static str> {
    Some(match product {
        Algorithm::Nginx => "nginx",
        Algorithm::Envoy => "envoy",
        Algorithm::Governor => "governor",
        Algorithm::Express => "express",
        Algorithm::UpstashFixed | Algorithm::UpstashSliding | Algorithm::UpstashToken => "upstash",
        Algorithm::RedisLua => "redis-lua",
        _ => return None,
    })
}

/// The product model that runs what the production tab `export` (a CLI `--export` name)
/// exports for `sc`'s policy: the Upstash tab's limiter and the Lua tab's script follow the
/// policy's shape.
pub fn model_of_export(sc: &super::Scenario, export: &str) -> Option<Algorithm> {
    let shape = Policy::of(sc).shape;
    Some(match export {
        "nginx" => Algorithm::Nginx,
        "envoy" => Algorithm::Envoy,
        "governor" => Algorithm::Governor,
        "express" => Algorithm::Express,
        "upstash" => match shape {
            Shape::Bucket => Algorithm::UpstashToken,
            Shape::FixedWindow => Algorithm::UpstashFixed,
            Shape::SlidingWindow | Shape::SlidingLog => Algorithm::UpstashSliding,
        },
        "redis-lua" => Algorithm::RedisLua,
        _ => return None,
    })
}

/// "Run this config": `sc` switched to the model of the production tab `export`, with the
/// policy keys set so the model runs exactly the configuration that tab exports for `sc` (the
/// export of the result equals the export of `sc`). `None` for an unknown tab.
pub fn run_config(sc: &super::Scenario, export: &str) -> Option<super::Scenario> {
    let product = model_of_export(sc, export)?;
    let p = Policy::of(sc);
    let mut out = sc.clone();
    out.algo = product;
    out.product.lua = p.shape.algorithm();
    if !out.algo.is_window(out.product.lua) {
        out.capacity = p.burst;
        out.refill = super::Rate::from_milli(p.rate_milli);
    } else {
        out.limit = Some(p.limit);
        out.window = Some(super::Nanos(p.window_ns));
    }
    Some(out)
}

/// A product model and its textbook algorithm on the same arrivals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideBySide {
    /// The product model, e.g. nginx.
    pub product: Algorithm,
    /// Its textbook algorithm, e.g. the token bucket.
    pub textbook: Algorithm,
    /// Admitted by the product's model over the run.
    pub product_admitted: u64,
    /// Admitted by the textbook algorithm.
    pub textbook_admitted: u64,
    /// Admitted requests the product held before serving (nginx without `nodelay`).
    pub delayed: u64,
    /// The difference in one sentence, with the reason where the configuration gives one.
    pub statement: String,
}

/// Runs `sc` (a product model) and its textbook algorithm with the same policy on the same
/// arrivals for the scenario's duration, and states the difference in numbers.
pub fn side_by_side(sc: &super::Scenario) -> Result<SideBySide, super::ParamError> {
    let textbook = sc.algo.textbook(sc.product.lua);
    let theirs = super::report::run(sc)?;
    let ours = super::report::run(&super::Scenario { algo: textbook, ..sc.clone() })?;
    let (a, b) = (theirs.admitted, ours.admitted);
    let name = product_name(sc.algo);
    let span = super::decimal::format_fixed(sc.duration.as_nanos(), 9);
    let diff = match a.cmp(&b) {
        std::cmp::Ordering::Equal => {
            format!("{name} admits the same {a} as the textbook {} in these {span} s", label(textbook))
        }
        std::cmp::Ordering::Less => format!("{name} admits {} fewer in these {span} s: {a} against {b}", b - a),
        std::cmp::Ordering::Greater => format!("{name} admits {} more in these {span} s: {a} against {b}", a - b),
    };
    let why = reason(sc);
    let delayed = theirs.delayed;
    let mut statement = if a != b && !why.is_empty() { format!("{diff}: {why}.") } else { format!("{diff}.") };
    if delayed > 0 {
        let p99 = duration_text(theirs.latency_ns.p99);
        statement.push_str(&format!(" It delays {delayed} of them instead of refusing (p99 added latency {p99})."));
    }
    Ok(SideBySide { product: sc.algo, textbook, product_admitted: a, textbook_admitted: b, delayed, statement })
}

/// A latency for prose: milliseconds to the microsecond below a second, else seconds to the ms.
///
/// ```
/// # use ratelimit_playground::sim::products::duration_text;
/// assert_eq!(duration_text(2_500_000), "2.5 ms");
/// assert_eq!(duration_text(249_500_000_000), "249.5 s");
/// ```
pub fn duration_text(ns: u64) -> String {
    if ns < 1_000_000_000 {
        format!("{} ms", super::decimal::format_fixed(ns / 1_000, 3))
    } else {
        format!("{} s", super::decimal::format_fixed(ns / 1_000_000, 3))
    }
}

/// The product's name in prose.
pub fn product_name(product: Algorithm) -> &'static str {
    match product {
        Algorithm::Nginx => "nginx",
        Algorithm::Envoy => "Envoy",
        Algorithm::Governor => "governor",
        Algorithm::Express => "express-rate-limit",
        Algorithm::UpstashFixed | Algorithm::UpstashSliding | Algorithm::UpstashToken => "Upstash",
        Algorithm::RedisLua => "The Lua script",
        _ => "The textbook algorithm",
    }
}

fn label(algo: Algorithm) -> &'static str {
    match algo {
        Algorithm::TokenBucket => "token bucket",
        Algorithm::Gcra => "GCRA",
        Algorithm::FixedWindow => "fixed window",
        Algorithm::SlidingWindow => "sliding window counter",
        Algorithm::SlidingLog => "sliding log",
        _ => "algorithm",
    }
}

/// Why the product decides differently, from its configuration: the roundings and clocks its
/// model applies to this scenario.
fn reason(sc: &super::Scenario) -> String {
    let p = Policy::of(sc);
    match sc.algo {
        Algorithm::Nginx => {
            let c = nginx::NginxConfig::of(&p, &sc.product);
            if c.rate.milli() != p.rate_milli {
                format!(
                    "its {} rate truncates to {} milli-requests/s (the policy is {})",
                    c.rate.to_config(),
                    c.rate.milli(),
                    p.rate_milli
                )
            } else {
                "it counts whole milliseconds and truncates each refill to whole milli-requests".into()
            }
        }
        Algorithm::Envoy if sc.product.envoy_timer => {
            "Envoy's timer adds tokens in steps, once per fill_interval".into()
        }
        Algorithm::Envoy => {
            let b = envoy::EnvoyBucket::of(&p);
            if b.exact {
                "it refills in floating-point seconds".into()
            } else {
                format!("its whole-millisecond fill_interval makes the rate {}/s", b.fill_rate_text())
            }
        }
        Algorithm::Governor => "its period is 1 ÷ rate rounded to the nanosecond".into(),
        Algorithm::Express => "its windows start at the client's first request and count refused requests too".into(),
        Algorithm::UpstashFixed | Algorithm::UpstashSliding => {
            "its ephemeral cache refuses in memory until the window's end, that millisecond included".into()
        }
        Algorithm::UpstashToken => {
            "it refills whole intervals only, and its cache refuses until the next refill, inclusive".into()
        }
        Algorithm::RedisLua => "it counts in floating-point milliseconds".into(),
        _ => String::new(),
    }
}

/// The first millisecond in `from..=to` at which `admits` holds, for a predicate that, once true,
/// stays true while nothing else happens (a limiter left alone only frees quota): a binary search,
/// so a day-long window costs 27 probes, not 86 million.
pub(crate) fn first_ms(from: u64, to: u64, admits: impl Fn(u64) -> bool) -> Option<u64> {
    if !admits(to) {
        return None;
    }
    let (mut lo, mut hi) = (from, to);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if admits(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(lo)
}

/// The answer a request gets on the wire under `sc`'s algorithm: the status and the headers the
/// product sets itself. nginx `limit_req` sets none (and answers 503 without
/// `limit_req_status`); Envoy's local rate limit marks a 429 with `x-envoy-ratelimited`; the
/// libraries (governor, Upstash, a Lua script) leave headers to your code, shown here as the
/// playground's IETF `RateLimit` headers, as for the textbook algorithms.
///
/// ```
/// use ratelimit_playground::sim::{products::response, Decision, Nanos, Quota, Scenario};
/// let no = Decision { allowed: false, remaining: 0, reset: Nanos::from_secs(1), retry_after: Some(Nanos::from_secs(1)) };
/// let q = Quota { limit: 5, window: Nanos::from_secs(1) };
/// let nginx = Scenario::from_query("algo=nginx&nginx_status=503").unwrap();
/// assert_eq!(response(&nginx, &no, q), (503, vec![]));
/// let envoy = Scenario::from_query("algo=envoy").unwrap();
/// assert_eq!(response(&envoy, &no, q), (429, vec![("x-envoy-ratelimited", "true".to_string())]));
/// assert_eq!(response(&Scenario::default(), &no, q).1.len(), 3);
/// ```
pub fn response(sc: &super::Scenario, d: &super::Decision, quota: super::Quota) -> (u16, Vec<(&'static str, String)>) {
    let status = if d.allowed { 200 } else { sc.reject_status() };
    let headers = match sc.algo {
        Algorithm::Nginx => Vec::new(),
        Algorithm::Envoy if d.allowed => Vec::new(),
        Algorithm::Envoy => vec![("x-envoy-ratelimited", "true".to_string())],
        _ => d.headers(quota),
    };
    (status, headers)
}
