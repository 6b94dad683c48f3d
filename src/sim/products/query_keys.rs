//! The query keys beyond those every algorithm shares — each product's own, the shared store's
//! failures', the server's — gathered once at compile time into [`PRODUCT_KEYS`], and
//! [`ProductOptions`] read and written by key.

use super::key::{KeyKind, ProductKey};
use super::options::{ProductOptions, MAX_PRODUCT_KEYS};
use super::{same, N, REGISTRY};

/// Every list of query keys besides the shared ones, in the order the query format prints them:
/// each product's own, in the registry's order, then the shared store's failures
/// ([`crate::sim::store_keys`]) and the server's behind the limiter ([`crate::sim::server::keys`]).
const KEY_LISTS: [&[ProductKey]; N + 2] = {
    let mut out: [&[ProductKey]; N + 2] = [&[]; N + 2];
    let mut i = 0;
    while i < N {
        out[i] = REGISTRY[i].keys;
        i += 1;
    }
    out[N] = &crate::sim::store_keys::KEYS;
    out[N + 1] = &crate::sim::server::keys::KEYS;
    out
};

/// Every key of [`KEY_LISTS`], each once: the query format reads, prints and validates them
/// after the keys every algorithm shares, and [`ProductOptions`] holds their values.
pub const PRODUCT_KEYS: [ProductKey; KEY_COUNT] = {
    let mut out = [ProductKey { key: "", kind: KeyKind::Names(&[]), default: 0 }; KEY_COUNT];
    let mut n = 0;
    let mut i = 0;
    while i < KEY_LISTS.len() {
        let keys = KEY_LISTS[i];
        let mut j = 0;
        while j < keys.len() {
            if !declared(&out, n, keys[j].key) {
                out[n] = keys[j];
                n += 1;
            }
            j += 1;
        }
        i += 1;
    }
    out
};

/// How many distinct keys [`KEY_LISTS`] holds.
const KEY_COUNT: usize = {
    let mut seen = [ProductKey { key: "", kind: KeyKind::Names(&[]), default: 0 }; MAX_PRODUCT_KEYS];
    let mut n = 0;
    let mut i = 0;
    while i < KEY_LISTS.len() {
        let keys = KEY_LISTS[i];
        let mut j = 0;
        while j < keys.len() {
            if !declared(&seen, n, keys[j].key) {
                assert!(n < MAX_PRODUCT_KEYS, "more product keys than ProductOptions holds");
                seen[n] = keys[j];
                n += 1;
            }
            j += 1;
        }
        i += 1;
    }
    n
};

/// Whether one of the first `n` keys of `keys` is `key`.
const fn declared(keys: &[ProductKey], n: usize, key: &str) -> bool {
    let mut i = 0;
    while i < n {
        if same(keys[i].key, key) {
            return true;
        }
        i += 1;
    }
    false
}

/// The product key named `key`, if a product declares one.
pub fn product_key(key: &str) -> Option<&'static ProductKey> {
    PRODUCT_KEYS.iter().find(|k| k.key == key)
}

impl ProductOptions {
    /// The value of `key`: as set, or its default.
    ///
    /// ```
    /// use ratelimit_playground::sim::products::{nginx, ProductOptions};
    /// let mut o = ProductOptions::default();
    /// assert_eq!(o.get(&nginx::NODELAY), 1);
    /// o.set(&nginx::NODELAY, 0);
    /// assert_eq!(o.get(&nginx::NODELAY), 0);
    /// o.set(&nginx::NODELAY, 1);
    /// assert_eq!(o, ProductOptions::default());
    /// ```
    pub fn get(&self, key: &ProductKey) -> u64 {
        match slot(key.key) {
            Some(i) if self.set & (1 << i) != 0 => self.values[i],
            _ => key.default,
        }
    }

    /// Sets `key` to `value` (its default: as if never set). A key no product declares is
    /// ignored.
    pub fn set(&mut self, key: &ProductKey, value: u64) {
        if let Some(i) = slot(key.key) {
            let differs = value != key.default;
            self.set = self.set & !(1 << i) | u32::from(differs) << i;
            self.values[i] = if differs { value } else { 0 };
        }
    }
}

/// The slot of the product key named `key`.
fn slot(key: &str) -> Option<usize> {
    PRODUCT_KEYS.iter().position(|k| k.key == key)
}
