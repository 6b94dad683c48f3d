//! [`ProductOptions`]: the values of the products' own query keys ([`super::key::ProductKey`],
//! declared in each product's module), beyond the policy keys every algorithm shares.

/// The most product keys the registry may declare, all products together (`sim::products`
/// checks it at compile time).
pub const MAX_PRODUCT_KEYS: usize = 32;

/// The values of the products' own query keys, by each key's slot in the registry's list of
/// keys (`sim::products::PRODUCT_KEYS`): a key not set reads as its default. Read and written by
/// key with `ProductOptions::get` and `set`, defined beside that list. Plain integers, all zero
/// by default, so making, copying and comparing options is cheap in every module.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ProductOptions {
    /// Bit `i`: slot `i` holds a value other than its key's default.
    pub(crate) set: u32,
    /// The values of the slots whose bit is set; zero otherwise.
    pub(crate) values: [u64; MAX_PRODUCT_KEYS],
}
