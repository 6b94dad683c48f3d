//! The limiters people actually run, modelled as those products compute: nginx `limit_req`,
//! Envoy's local rate limit, the `governor` crate, express-rate-limit's MemoryStore, Upstash
//! Ratelimit's three scripts and the Lua scripts the production panel exports.
//!
//! A product is one module (`nginx/`, …) defining one [`Product`]: its `algo=` name, its model
//! (which implements [`crate::sim::Limiter`], so the engine runs it like any textbook
//! algorithm), the configuration the production panel exports (from which the model takes its
//! numbers, so `algo=nginx` runs exactly what is exported), its explanation and what it sends
//! on the wire. [`REGISTRY`] lists them; nothing else in the crate names a product. The file
//! of each model names the source it was read from; `tests/real/` checks the models decision by
//! decision against the real software.
//!
//! Adding a product: its module (`mod.rs` with its [`Product`], `model.rs`, `export.rs`), one
//! line in [`REGISTRY`], and its test in `tests/real/`.

pub mod envoy;
pub mod express;
pub mod governor;
pub mod models;
pub mod nginx;
pub mod options;
pub mod policy;
pub(crate) mod probe;
pub mod product;
pub mod redis_lua;
pub mod upstash;

pub use options::{ProductOptions, LUA_SCRIPTS};
pub use policy::{round_ms, Policy, Shape};
pub use product::{Config, Explanation, Headers, Product, Toggle};

use crate::sim::algorithm::{Algorithm, ProductId};
use crate::sim::decision::{Decision, Quota};

/// Every product, in the product picker's and the production panel's order: a product's
/// [`ProductId`] is its index here.
pub const REGISTRY: [Product; 8] = [
    nginx::PRODUCT,
    envoy::PRODUCT,
    governor::PRODUCT,
    express::PRODUCT,
    upstash::FIXED,
    upstash::SLIDING,
    upstash::TOKEN,
    redis_lua::PRODUCT,
];

const N: usize = REGISTRY.len();

/// Every product model, in [`REGISTRY`]'s order.
pub const PRODUCTS: [Algorithm; N] = {
    let mut out = [Algorithm::TokenBucket; N];
    let mut i = 0;
    while i < N {
        out[i] = Algorithm::Product(ProductId(i as u8));
        i += 1;
    }
    out
};

// The tables below are computed from REGISTRY at compile time and hold one field each, so a
// module that reads, say, a product's name carries the names and none of the models, exports
// or texts: the page's first module has no product models (see `models`).

/// Each field of every product, by [`ProductId`].
macro_rules! column {
    ($field:ident: $t:ty) => {{
        let mut out: [$t; N] = [REGISTRY[0].$field; N];
        let mut i = 1;
        while i < N {
            out[i] = REGISTRY[i].$field;
            i += 1;
        }
        out
    }};
}

const KEYS: [&str; N] = column!(key: &'static str);
const TEXTBOOKS: [Option<Algorithm>; N] = column!(textbook: Option<Algorithm>);
const REJECT_STATUS: [fn(&ProductOptions) -> u16; N] = column!(reject_status: fn(&ProductOptions) -> u16);
const HEADERS: [Headers; N] = column!(headers: Headers);
const DELAYS: [fn(&ProductOptions) -> bool; N] = column!(delays: fn(&ProductOptions) -> bool);
pub(crate) const MODELS: [product::Build; N] = column!(model: product::Build);

/// Every `algo=` value: the textbook algorithms', then every product's.
pub const ALGO_NAMES: [(&str, Algorithm); 5 + N] = {
    let mut out = [
        ("token_bucket", Algorithm::TokenBucket),
        ("fixed_window", Algorithm::FixedWindow),
        ("sliding_window", Algorithm::SlidingWindow),
        ("sliding_log", Algorithm::SlidingLog),
        ("gcra", Algorithm::Gcra),
        ("", Algorithm::TokenBucket),
        ("", Algorithm::TokenBucket),
        ("", Algorithm::TokenBucket),
        ("", Algorithm::TokenBucket),
        ("", Algorithm::TokenBucket),
        ("", Algorithm::TokenBucket),
        ("", Algorithm::TokenBucket),
        ("", Algorithm::TokenBucket),
    ];
    let mut i = 0;
    while i < N {
        out[5 + i] = (KEYS[i], PRODUCTS[i]);
        i += 1;
    }
    out
};

/// The product registered as `key` (its `algo=` value).
///
/// ```
/// use ratelimit_playground::sim::{products, Algorithm};
/// assert_eq!(products::find("nginx"), Some(products::PRODUCTS[0]));
/// assert_eq!(products::find("token_bucket"), None);
/// ```
pub fn find(key: &str) -> Option<Algorithm> {
    KEYS.iter().position(|k| *k == key).map(|i| PRODUCTS[i])
}

/// The registry's entry for `id`.
pub fn product(id: ProductId) -> &'static Product {
    &REGISTRY[id.index()]
}

/// `algo`'s entry in the registry, if it is a product.
pub fn of(algo: Algorithm) -> Option<&'static Product> {
    algo.product().map(product)
}

impl Algorithm {
    /// The textbook algorithm a product implements (itself for a textbook one); `lua` is the
    /// script the Redis Lua model runs.
    pub fn textbook(self, lua: Algorithm) -> Algorithm {
        match self {
            Algorithm::Product(id) => match TEXTBOOKS[id.index()] {
                Some(t) => t,
                None if !lua.is_product() => lua,
                None => Algorithm::TokenBucket,
            },
            textbook => textbook,
        }
    }

    /// Whether the algorithm (or the product's) counts requests in windows rather than tokens.
    pub fn is_window(self, lua: Algorithm) -> bool {
        matches!(self.textbook(lua), Algorithm::FixedWindow | Algorithm::SlidingWindow | Algorithm::SlidingLog)
    }
}

/// The HTTP status of `algo`'s rejections, under the products' options `o`.
pub fn reject_status(algo: Algorithm, o: &ProductOptions) -> u16 {
    algo.product().map_or(429, |id| REJECT_STATUS[id.index()](o))
}

/// Whether `algo` may hold an admitted request before serving it (nginx without `nodelay`).
pub fn delays(algo: Algorithm, o: &ProductOptions) -> bool {
    algo.product().is_some_and(|id| DELAYS[id.index()](o))
}

/// The model of product `id` for the policy `p`: see [`models`] for which modules have them.
pub(crate) fn model(id: ProductId, p: &Policy, o: &ProductOptions) -> Box<dyn crate::sim::limiter::Model> {
    models::model(id.index(), p, o)
}

/// The production tab a product belongs to, as the CLI's `--export` names it.
pub fn export_name(algo: Algorithm) -> Option<&'static str> {
    of(algo).map(|p| p.export)
}

/// The production tabs, as the CLI's `--export` names them, in the panel's order.
pub const EXPORT_NAMES: [&str; 6] = {
    let mut out = [""; 6];
    let (mut i, mut n) = (0, 0);
    while i < N {
        let name = REGISTRY[i].export;
        let mut seen = false;
        let mut j = 0;
        while j < n {
            seen = seen || same(out[j], name);
            j += 1;
        }
        if !seen {
            out[n] = name; // a seventh tab fails to compile here: grow the array
            n += 1;
        }
        i += 1;
    }
    assert!(n == out.len(), "EXPORT_NAMES's length is the number of tabs");
    out
};

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The product whose model runs what the tab `export` exports for a policy of `shape`.
pub fn of_export(export: &str, shape: Shape) -> Option<Algorithm> {
    let i = REGISTRY.iter().position(|p| p.export == export && p.runs.contains(&shape))?;
    Some(PRODUCTS[i])
}

/// The product's name in prose.
pub fn product_name(algo: Algorithm) -> &'static str {
    of(algo).map_or("The textbook algorithm", |p| p.name)
}

/// Why `algo` decides differently from its textbook algorithm under `p`; empty for a textbook one.
pub fn reason(algo: Algorithm, p: &Policy, o: &ProductOptions) -> String {
    of(algo).map_or_else(String::new, |product| (product.reason)(p, o))
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

/// The answer a request gets on the wire under `algo`: the status and the headers the product
/// sets itself. nginx `limit_req` sets none (and answers 503 without `limit_req_status`);
/// Envoy's local rate limit marks a 429 with `x-envoy-ratelimited`; the libraries (governor,
/// Upstash, a Lua script) leave headers to your code, shown here as the playground's IETF
/// `RateLimit` headers, as for the textbook algorithms.
///
/// ```
/// use ratelimit_playground::sim::{products::response, Decision, Nanos, Quota, Scenario};
/// let no = Decision { allowed: false, remaining: 0, reset: Nanos::from_secs(1), retry_after: Some(Nanos::from_secs(1)) };
/// let q = Quota { limit: 5, window: Nanos::from_secs(1) };
/// let nginx = Scenario::from_query("algo=nginx&nginx_status=503").unwrap();
/// assert_eq!(response(nginx.algo, &nginx.product, &no, q), (503, vec![]));
/// let envoy = Scenario::from_query("algo=envoy").unwrap();
/// assert_eq!(response(envoy.algo, &envoy.product, &no, q), (429, vec![("x-envoy-ratelimited", "true".to_string())]));
/// let sc = Scenario::default();
/// assert_eq!(response(sc.algo, &sc.product, &no, q).1.len(), 3);
/// ```
pub fn response(algo: Algorithm, o: &ProductOptions, d: &Decision, quota: Quota) -> (u16, Vec<(&'static str, String)>) {
    let status = if d.allowed { 200 } else { reject_status(algo, o) };
    let headers = match algo.product().map_or(Headers::Ietf, |id| HEADERS[id.index()]) {
        Headers::Ietf => d.headers(quota),
        Headers::Bare => Vec::new(),
        Headers::OnReject(_, _) if d.allowed => Vec::new(),
        Headers::OnReject(name, value) => vec![(name, value.to_string())],
    };
    (status, headers)
}
