//! The limiters people actually run, modelled as those products compute (the list is
//! [`REGISTRY`]; docs/products.md says what each runs). Kong, Envoy, envoyproxy/ratelimit, Spring
//! Cloud Gateway, AWS and Cloudflare are read from their source or documentation, not run here.
//!
//! A product is one module (`nginx/`, …) defining one [`Product`]: its `algo=` name, its model
//! (which implements [`crate::sim::Limiter`], so the engine runs it like any textbook
//! algorithm), the configuration the production panel exports (from which the model takes its
//! numbers, so `algo=nginx` runs exactly what is exported), its explanation and what it sends
//! on the wire. [`REGISTRY`] lists them; nothing else in the crate names a product. The file
//! of each model names the source it was read from; `tests/real/` checks the models decision by
//! decision against the real software.
//!
//! Adding a product: its module (`mod.rs` with its [`Product`], `model.rs`, `export.rs`, and
//! any query keys of its own as [`ProductKey`]s), one line in [`REGISTRY`], and its test in
//! `tests/real/`.

pub mod aws;
pub mod cloudflare;
pub mod django;
pub mod envoy;
pub mod envoy_global;
pub mod express;
pub mod go_rate;
pub mod governor;
pub mod haproxy;
pub mod key;
pub mod kong;
pub mod laravel;
pub mod models;
pub mod nestjs;
pub mod nginx;
pub mod options;
pub mod policy;
pub(crate) mod probe;
pub mod product;
pub mod python_limits;
mod query_keys;
pub mod rack_attack;
pub mod redis_cell;
pub mod redis_key;
pub mod redis_lua;
pub mod rlflex;
pub mod second_window;
pub mod spring;
pub mod traefik;
pub mod upstash;

pub use key::{KeyKind, ProductKey};
pub use options::ProductOptions;
pub use policy::{round_ms, Policy, Shape};
pub use product::{Choice, Config, Explanation, Product, Textbook, Toggle, Traits};
pub use query_keys::{product_key, PRODUCT_KEYS};

use crate::sim::algorithm::{Algorithm, ProductId};

/// Every product, in the product picker's and the production panel's order: a product's
/// [`ProductId`] is its index here.
pub const REGISTRY: [Product; 23] = [
    nginx::PRODUCT,
    envoy::PRODUCT,
    governor::PRODUCT,
    express::PRODUCT,
    upstash::FIXED,
    upstash::SLIDING,
    upstash::TOKEN,
    redis_lua::PRODUCT,
    go_rate::PRODUCT,
    traefik::PRODUCT,
    redis_cell::PRODUCT,
    haproxy::PRODUCT,
    kong::PRODUCT,
    envoy_global::PRODUCT,
    spring::PRODUCT,
    aws::PRODUCT,
    cloudflare::PRODUCT,
    python_limits::PRODUCT,
    rack_attack::PRODUCT,
    laravel::PRODUCT,
    rlflex::PRODUCT,
    django::PRODUCT,
    nestjs::PRODUCT,
];

const N: usize = REGISTRY.len();

/// Every product model, in [`REGISTRY`]'s order.
pub const PRODUCTS: [Algorithm; N] = {
    let mut out = [Algorithm::TokenBucket; N];
    let mut i = 0;
    while i < N {
        out[i] = Algorithm::of_product(ProductId(i as u8));
        i += 1;
    }
    out
};

/// The registry's product whose key is `key`, at compile time (`products::KONG`).
const fn product_named(key: &str) -> Algorithm {
    let mut i = 0;
    while !same(REGISTRY[i].key, key) {
        i += 1;
        assert!(i < N, "no such product");
    }
    PRODUCTS[i]
}

/// Kong's `rate-limiting` plugin: the one algorithm `store=sync` (its `policy: redis`) runs.
pub const KONG: Algorithm = product_named("kong");

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
const NAMES: [&str; N] = column!(name: &'static str);
const EXPORTS: [&str; N] = column!(export: &'static str);
const RUNS: [&[Shape]; N] = column!(runs: &'static [Shape]);
const CONFIGS: [fn(&Policy, &ProductOptions) -> Config; N] = column!(config: fn(&Policy, &ProductOptions) -> Config);
const REASONS: [fn(&Policy, &ProductOptions) -> String; N] = column!(reason: fn(&Policy, &ProductOptions) -> String);
const EXPLANATIONS: [Explanation; N] = column!(explanation: Explanation);
const TOGGLES: [&[Toggle]; N] = column!(toggles: &'static [Toggle]);
const CHOICES: [Option<Choice>; N] = column!(choice: Option<Choice>);
const OWN_KEYS: [&[ProductKey]; N] = column!(keys: &'static [ProductKey]);
const TRAITS: [Traits; N] = column!(traits: Traits);
const TEXTBOOKS: [Textbook; N] = column!(textbook: Textbook);
const CHECKED: [Option<&str>; N] = column!(checked: Option<&'static str>);
pub(crate) const MODELS: [product::Build; N] = column!(model: product::Build);

/// Every `algo=` value: the textbook algorithms', the leaky bucket's, then every product's.
pub const ALGO_NAMES: [(&str, Algorithm); 6 + N] = {
    let mut out = [("", Algorithm::TokenBucket); 6 + N];
    let own = [
        ("token_bucket", Algorithm::TokenBucket),
        ("fixed_window", Algorithm::FixedWindow),
        ("sliding_window", Algorithm::SlidingWindow),
        ("sliding_log", Algorithm::SlidingLog),
        ("gcra", Algorithm::Gcra),
        ("leaky_bucket", Algorithm::LeakyBucket),
    ];
    let mut i = 0;
    while i < 6 {
        out[i] = own[i];
        i += 1;
    }
    while i < 6 + N {
        out[i] = (KEYS[i - 6], PRODUCTS[i - 6]);
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

/// The registry's whole entry for `id`. A module that calls this carries every product's model,
/// export and texts: the functions below read one field each, and carry only that.
pub fn product(id: ProductId) -> &'static Product {
    &REGISTRY[id.index()]
}

/// The explanation of `algo` if it is a product ([`Product::explanation`]).
pub fn explanation(algo: Algorithm) -> Option<Explanation> {
    algo.product().map(|id| EXPLANATIONS[id.index()])
}

/// The toggles of `algo` ([`Product::toggles`]): none for a textbook algorithm.
pub fn toggles(algo: Algorithm) -> &'static [Toggle] {
    algo.product().map_or(&[], |id| TOGGLES[id.index()])
}

/// How `algo` differs where limiters differ most ([`Product::traits`]), if it is a product.
pub fn traits(algo: Algorithm) -> Option<Traits> {
    algo.product().map(|id| TRAITS[id.index()])
}

/// The query keys of `algo`'s own ([`Product::keys`]): none for a textbook algorithm.
pub fn keys_of(algo: Algorithm) -> &'static [ProductKey] {
    algo.product().map_or(&[], |id| OWN_KEYS[id.index()])
}

/// The menu `algo` shows while it runs ([`Product::choice`]), if it has one.
pub fn choice(algo: Algorithm) -> Option<Choice> {
    algo.product().and_then(|id| CHOICES[id.index()])
}

/// The configuration of every production tab for `p`, in [`EXPORT_NAMES`]' order.
pub fn configs(p: &Policy, o: &ProductOptions) -> Vec<Config> {
    (0..N).filter(|&i| !EXPORTS[..i].contains(&EXPORTS[i])).map(|i| CONFIGS[i](p, o)).collect()
}

/// The configuration the production tab `export` writes for `p`; `None` for an unknown tab.
pub fn config(export: &str, p: &Policy, o: &ProductOptions) -> Option<Config> {
    let i = EXPORTS.iter().position(|e| *e == export)?;
    Some(CONFIGS[i](p, o))
}

impl Algorithm {
    /// The textbook algorithm a product implements under its options `o` (itself for a textbook
    /// one).
    pub fn textbook(self, o: &ProductOptions) -> Algorithm {
        let Some(id) = self.product() else { return self };
        match TEXTBOOKS[id.index()] {
            Textbook::Is(t) => t,
            Textbook::ChosenBy(key) => {
                let chosen = o.get(key);
                Algorithm::TEXTBOOK.into_iter().find(|&a| a.number() == chosen).unwrap_or(Algorithm::TokenBucket)
            }
        }
    }

    /// Whether the algorithm (or the product's, under `o`) counts requests in windows rather
    /// than tokens.
    pub fn is_window(self, o: &ProductOptions) -> bool {
        matches!(self.textbook(o), Algorithm::FixedWindow | Algorithm::SlidingWindow | Algorithm::SlidingLog)
    }

    /// Makes a product whose textbook algorithm is chosen by a key of its own run `textbook`
    /// ("Run this config" on a tab that exports one script per shape), when the key offers it
    /// (Python limits has no bucket: its default stands); nothing for another.
    pub fn choose_textbook(self, o: &mut ProductOptions, textbook: Algorithm) {
        if let Some(Textbook::ChosenBy(key)) = self.product().map(|id| TEXTBOOKS[id.index()]) {
            if key.name_of(textbook.number()).is_some() {
                o.set(key, textbook.number());
            }
        }
    }
}

/// The production tab a product belongs to, as the CLI's `--export` names it.
pub fn export_name(algo: Algorithm) -> Option<&'static str> {
    algo.product().map(|id| EXPORTS[id.index()])
}

/// How many production tabs there are: the registry's distinct exports.
const TABS: usize = {
    let (mut i, mut n) = (0, 0);
    while i < N {
        let mut j = 0;
        while j < i && !same(REGISTRY[j].export, REGISTRY[i].export) {
            j += 1;
        }
        if j == i {
            n += 1;
        }
        i += 1;
    }
    n
};

/// The production tabs, as the CLI's `--export` names them, in the panel's order.
pub const EXPORT_NAMES: [&str; TABS] = {
    let mut out = [""; TABS];
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
            out[n] = name;
            n += 1;
        }
        i += 1;
    }
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
    let i = (0..N).find(|&i| EXPORTS[i] == export && RUNS[i].contains(&shape))?;
    Some(PRODUCTS[i])
}

/// The product's name in prose.
pub fn product_name(algo: Algorithm) -> &'static str {
    algo.product().map_or("The textbook algorithm", |id| NAMES[id.index()])
}

/// Whether the real software behind `algo` is run against its model in `make test`
/// ([`Product::checked`]); true for a textbook algorithm.
pub fn run_here(algo: Algorithm) -> bool {
    algo.product().is_none_or(|id| CHECKED[id.index()].is_some())
}

/// The real software and version `algo`'s model is checked against in `make test`
/// ([`Product::checked`]); `None` for a textbook algorithm and a model not run here.
///
/// ```
/// use ratelimit_playground::sim::products::{checked_against, find};
/// assert_eq!(checked_against(find("nginx").unwrap()), Some("nginx 1.22.1"));
/// assert_eq!(checked_against(find("envoy").unwrap()), None);
/// ```
pub fn checked_against(algo: Algorithm) -> Option<&'static str> {
    CHECKED[algo.product()?.index()]
}

/// Why `algo` decides differently from its textbook algorithm under `p`; empty for a textbook one.
pub fn reason(algo: Algorithm, p: &Policy, o: &ProductOptions) -> String {
    algo.product().map_or_else(String::new, |id| REASONS[id.index()](p, o))
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
        format!("{} ms", crate::sim::support::decimal::format_fixed(ns / 1_000, 3))
    } else {
        format!("{} s", crate::sim::support::decimal::format_fixed(ns / 1_000_000, 3))
    }
}
