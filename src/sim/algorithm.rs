//! [`Algorithm`]: which limiter decides, a textbook algorithm, the leaky bucket's queue, or a
//! product from the registry ([`super::products`]).

/// Which limiting algorithm decides: one of the five textbook algorithms (meters: they admit or
/// refuse at once), the leaky bucket as a queue (it also holds what it admits), or a product's
/// model from the products' registry.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
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
    /// queue refuses ([`super::limiter::LeakyQueue`]). Run as a product's model is (see
    /// [`Algorithm::in_first_modules`]).
    LeakyBucket,
    /// A product of the registry ([`super::products::REGISTRY`]), run as its model.
    Product(ProductId),
}

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

    /// The algorithm's number, as a product's key that chooses a textbook algorithm stores it:
    /// the textbook algorithms and the leaky bucket in declaration order (the token bucket 0),
    /// then the registry's products by index.
    ///
    /// ```
    /// use ratelimit_playground::sim::Algorithm;
    /// assert_eq!(Algorithm::TokenBucket.number(), 0);
    /// assert_eq!(Algorithm::Gcra.number(), 4);
    /// ```
    pub const fn number(self) -> u64 {
        match self {
            Algorithm::TokenBucket => 0,
            Algorithm::FixedWindow => 1,
            Algorithm::SlidingWindow => 2,
            Algorithm::SlidingLog => 3,
            Algorithm::Gcra => 4,
            Algorithm::LeakyBucket => 5,
            Algorithm::Product(id) => 6 + id.0 as u64,
        }
    }

    /// The product `id`'s model.
    pub const fn of_product(id: ProductId) -> Algorithm {
        Algorithm::Product(id)
    }

    /// Whether this is a model of a product rather than a textbook algorithm.
    pub fn is_product(self) -> bool {
        matches!(self, Algorithm::Product(_))
    }

    /// The product this runs, if it is one.
    pub fn product(self) -> Option<ProductId> {
        match self {
            Algorithm::Product(id) => Some(id),
            _ => None,
        }
    }

    /// Whether this is one of the five textbook algorithms ([`Algorithm::TEXTBOOK`]), which run
    /// without the products' models: the leaky bucket's queue and the products' models need
    /// them ([`crate::sim::engine::capabilities::Part::Models`]).
    pub fn in_first_modules(self) -> bool {
        Algorithm::TEXTBOOK.contains(&self)
    }
}
