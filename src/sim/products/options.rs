//! [`ProductOptions`]: the values of the products' own query keys ([`ProductKey`], declared in
//! each product's module), beyond the policy keys every algorithm shares.

use super::key::ProductKey;

/// The most product keys that may differ from their defaults at once: the registry declares
/// fewer in all (`sim::products` checks it at compile time), so every key always fits.
pub const MAX_PRODUCT_KEYS: usize = 16;

/// The values of the products' own query keys: the keys set to something else than their
/// default, by name, in name order (so two options that say the same are equal).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ProductOptions {
    set: [(&'static str, u64); MAX_PRODUCT_KEYS],
    len: u8,
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
        self.entries().iter().find(|(k, _)| *k == key.key).map_or(key.default, |&(_, v)| v)
    }

    /// Sets `key` to `value` (its default: as if never set).
    pub fn set(&mut self, key: &ProductKey, value: u64) {
        let at = self.entries().iter().position(|(k, _)| *k >= key.key).unwrap_or(self.entries().len());
        let here = self.entries().get(at).is_some_and(|(k, _)| *k == key.key);
        let len = usize::from(self.len);
        match (here, value == key.default) {
            (true, true) => {
                self.set.copy_within(at + 1..len, at);
                // The slots past `len` stay empty, so derived equality and hashing hold.
                self.set[len - 1] = ("", 0);
                self.len -= 1;
            }
            (true, false) => self.set[at].1 = value,
            (false, false) if len < MAX_PRODUCT_KEYS => {
                self.set.copy_within(at..len, at + 1);
                self.set[at] = (key.key, value);
                self.len += 1;
            }
            _ => {}
        }
    }

    fn entries(&self) -> &[(&'static str, u64)] {
        &self.set[..usize::from(self.len)]
    }
}
