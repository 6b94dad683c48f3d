//! [`Algorithm`]: which limiter decides, a textbook algorithm or a product from the registry
//! ([`super::products`]).

/// Which limiting algorithm decides.
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
    /// A product's model, as that product computes (nginx, Envoy, …): the entry
    /// [`ProductId`] names in the products' registry.
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
    /// The five textbook algorithms, in the order the app shows them.
    pub const TEXTBOOK: [Algorithm; 5] = [
        Algorithm::TokenBucket,
        Algorithm::Gcra,
        Algorithm::FixedWindow,
        Algorithm::SlidingWindow,
        Algorithm::SlidingLog,
    ];

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
}
