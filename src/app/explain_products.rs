//! What each product model does, in a few plain sentences: the whole page's alone (the page's
//! first module hands a product over to it; see [`super::explain`]).

use super::explain::Explanation;
use crate::sim::Algorithm;

/// The explanation shown under the charts for the product model `product`; an empty one for a
/// textbook algorithm ([`super::explain::explain_textbook`] has those).
pub fn explain_product(product: Algorithm) -> Explanation {
    let (title, sentences): (&str, &[&str]) = match product {
        Algorithm::Nginx => (
            "How nginx limit_req behaves",
            &[
                "This is nginx 1.22's own arithmetic: the rate in whole milli-requests per second (r/m truncated), a clock in whole milliseconds, and an excess that only passed requests update.",
                "With nodelay up to burst + 1 requests pass at once from idle; without it nginx holds each request beyond the rate for excess ÷ rate and serves it late, so the latency figures grow instead of the 429s.",
                "Checked decision by decision against a real nginx on this machine's traces (tests/real/nginx.rs).",
            ],
        ),
        Algorithm::Envoy => (
            "How Envoy's local rate limit behaves",
            &[
                "Since Envoy 1.31 the bucket refills continuously on each request, computed in floating-point seconds; envoy_bucket=timer shows the older timer that added tokens_per_fill every fill_interval in steps.",
                "fill_interval is whole milliseconds, so a rate that does not divide evenly runs slightly fast or slow.",
                "Modelled from Envoy's documentation and source; not run against Envoy, which cannot be installed here.",
            ],
        ),
        Algorithm::Governor => (
            "How governor behaves",
            &[
                "governor is GCRA in whole nanoseconds: one cell every period, a burst of allow_burst from idle.",
                "It decides exactly like the token bucket whenever 1 ÷ rate is a whole number of nanoseconds; otherwise the period is rounded to the nearest one.",
                "Checked decision by decision against the governor crate with its fake clock.",
            ],
        ),
        Algorithm::Express => (
            "How express-rate-limit behaves",
            &[
                "Its MemoryStore starts a client's window at the client's first request, not at a clock boundary, and resets it windowMs later.",
                "Every request counts, refused ones too, so a client that keeps knocking stays refused until its window ends.",
                "Checked decision by decision against express-rate-limit 8 under fake timers.",
            ],
        ),
        Algorithm::UpstashFixed | Algorithm::UpstashSliding | Algorithm::UpstashToken => (
            "How Upstash Ratelimit behaves",
            &[
                "Upstash's scripts count in whole milliseconds, with windows aligned to multiples of the window; its token bucket adds refillRate tokens only at whole intervals.",
                "After a refusal, its ephemeral cache (on by default) refuses the identifier in memory until reset, that millisecond included, without asking Redis.",
                "Checked decision by decision against @upstash/ratelimit 2 on a real redis-server.",
            ],
        ),
        Algorithm::RedisLua => (
            "How the exported Lua script behaves",
            &[
                "This runs the production panel's Redis script (lua= picks which) in Lua's floating point, with the caller's clock in milliseconds.",
                "Redis runs each call atomically, so nodes sharing the key never over-admit; the arithmetic in doubles can differ from the exact engine by a request at a boundary.",
                "Checked decision by decision on a real redis-server.",
            ],
        ),
        _ => ("", &[]),
    };
    Explanation { title, sentences }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::options::View;
    use crate::app::options::PRODUCT_VIEWS;

    #[test]
    fn every_product_has_two_to_four_sentences() {
        for v in PRODUCT_VIEWS {
            let View::Single(algo) = v.value else { panic!("{}", v.key) };
            let e = explain_product(algo);
            assert!(e.title.starts_with("How "), "{}", v.key);
            assert!((2..=4).contains(&e.sentences.len()), "{}: {} sentences", v.key, e.sentences.len());
            assert!(e.sentences.iter().all(|s| s.ends_with('.')), "{}", v.key);
        }
    }
}
