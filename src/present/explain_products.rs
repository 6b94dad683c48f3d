//! What each product model does, in a few plain sentences (each product's own, from the
//! registry): the whole page's alone (the page's first module hands a product over to it; see
//! [`crate::present::explain`]).

use crate::sim::products::Explanation;
use crate::sim::{products, Algorithm};

/// The explanation shown under the charts for the product model `product`; an empty one for a
/// textbook algorithm ([`crate::present::explain::explain_textbook`] has those).
pub fn explain_product(product: Algorithm) -> Explanation {
    products::explanation(product).unwrap_or(Explanation { title: "", sentences: &[] })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_product_has_two_to_four_sentences() {
        for p in &products::REGISTRY {
            let e = p.explanation;
            assert!(e.title.starts_with("How "), "{}", p.key);
            assert!((2..=4).contains(&e.sentences.len()), "{}: {} sentences", p.key, e.sentences.len());
            assert!(e.sentences.iter().all(|s| s.ends_with('.')), "{}", p.key);
        }
    }
}
