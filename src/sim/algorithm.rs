//! [`Algorithm`]: which limiter decides, a textbook algorithm, the leaky bucket's queue, or a
//! product from the registry ([`super::products`]).

/// Which limiting algorithm decides: one of the five textbook algorithms (meters: they admit or
/// refuse at once), the leaky bucket as a queue (it also holds what it admits), or a product's
/// model from the products' registry.
///
/// A product is a slot (`P0`, `P1`, …) whose number is its index in the registry
/// ([`super::products::REGISTRY`]): [`Algorithm::product`] reads it and
/// [`super::products::PRODUCTS`] lists the slots in use. Slots rather than a
/// `Product(ProductId)` variant keep the enum one byte without a payload, so comparing two is
/// one byte compare: the variant with a payload made every comparison and match of an
/// algorithm (in views, cards and links) larger, +0.5 KB brotli in each module.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Algorithm {
    /// Continuous refill up to a capacity.
    #[default]
    TokenBucket,
    /// A counter per window aligned to t = 0.
    FixedWindow,
    /// The current window plus a decaying share of the previous one.
    SlidingWindow,
    /// Exact: timestamps of the last `limit` admitted requests.
    SlidingLog,
    /// The token bucket as a single theoretical arrival time.
    Gcra,
    /// The leaky bucket as a queue: admitted requests wait and leave at the drain rate, a full
    /// queue refuses ([`super::limiter::LeakyQueue`]). Only the whole page runs it (like a
    /// product, see [`Algorithm::in_first_modules`]).
    LeakyBucket,
    /// The registry's products, by index (see [`Algorithm::product`]).
    #[doc(hidden)]
    P0,
    P1,
    P2,
    P3,
    P4,
    P5,
    P6,
    P7,
    P8,
    P9,
    P10,
    P11,
    P12,
    P13,
    P14,
    P15,
    P16,
    P17,
    P18,
    P19,
    P20,
    P21,
    P22,
    P23,
    P24,
    P25,
    P26,
    P27,
    P28,
    P29,
    P30,
    P31,
}

/// The algorithms before the product slots: the five textbook ones and the leaky bucket.
const BEFORE_PRODUCTS: u8 = 6;

/// A product in the products' registry ([`super::products::REGISTRY`]): its index there. Only
/// the registry hands these out ([`super::products::find`], [`super::products::PRODUCTS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProductId(pub(crate) u8);

impl ProductId {
    /// The index of this product in the registry.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// Every product slot, by index.
const SLOTS: [Algorithm; 32] = {
    use Algorithm::*;
    [
        P0, P1, P2, P3, P4, P5, P6, P7, P8, P9, P10, P11, P12, P13, P14, P15, P16, P17, P18, P19, P20, P21, P22, P23,
        P24, P25, P26, P27, P28, P29, P30, P31,
    ]
};

impl Algorithm {
    /// The five textbook algorithms, in the order the app shows them: the meters, which Compare
    /// all runs side by side (the leaky bucket's queue is not one of them).
    pub const TEXTBOOK: [Algorithm; 5] = [
        Algorithm::TokenBucket,
        Algorithm::Gcra,
        Algorithm::FixedWindow,
        Algorithm::SlidingWindow,
        Algorithm::SlidingLog,
    ];

    /// The product `id`'s model.
    ///
    /// # Panics
    /// Beyond the 32 slots (at compile time, for the registry's table).
    pub const fn of_product(id: ProductId) -> Algorithm {
        SLOTS[id.0 as usize]
    }

    /// Whether this is a model of a product rather than a textbook algorithm.
    pub fn is_product(self) -> bool {
        self as u8 >= BEFORE_PRODUCTS
    }

    /// The product this runs, if it is one.
    pub fn product(self) -> Option<ProductId> {
        (self as u8).checked_sub(BEFORE_PRODUCTS).map(ProductId)
    }

    /// Whether the page's and a frame's first modules run this: the five textbook algorithms
    /// ([`Algorithm::TEXTBOOK`]). The leaky bucket's queue and the products' models are the
    /// whole page's (`sim::products::models`), to which a first module hands them over.
    pub fn in_first_modules(self) -> bool {
        (self as u8) < Algorithm::LeakyBucket as u8
    }
}
