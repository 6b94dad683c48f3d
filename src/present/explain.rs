//! What each algorithm does and what its charts show, in a few plain sentences. The wording
//! matches the engine's exact rules (see the README's "How the engine decides").

use crate::present::options::View;
use crate::sim::Algorithm;

pub use crate::sim::products::Explanation;

/// The explanation shown under the charts for `view`: the whole page's, every view's.
pub fn explain(view: View) -> Explanation {
    match view {
        View::Single(algo) if algo.is_product() => crate::present::explain_products::explain_product(algo),
        View::Single(Algorithm::LeakyBucket) => explain_queue(),
        View::Compare => explain_compare(),
        _ => explain_textbook(view),
    }
}

/// The explanation of a textbook algorithm; for a product or Compare all, an empty one. The
/// page's first module shows these only: it hands a product and Compare all over to the whole
/// page, and their texts stay out of it (in [`crate::present::explain_products`] and
/// [`explain_compare`]).
pub fn explain_textbook(view: View) -> Explanation {
    let (title, sentences): (&str, &[&str]) = match view {
        View::Single(Algorithm::TokenBucket) => (
            "How the token bucket behaves",
            &[
                "The bucket starts full and refills continuously at the refill rate, never above its capacity; every request spends one whole token, and with none left it is answered 429 with a Retry-After saying when the next token arrives.",
                "A full bucket lets a burst of up to capacity requests through at once, so the first rejection comes later than you might expect: with steady arrivals above the refill rate, after about C ÷ (λ − r) seconds.",
                "After that, admissions settle at the refill rate, and the pass ratio converges on refill ÷ arrival — the dashed line in the steady-state chart.",
            ],
        ),
        View::Single(Algorithm::Gcra) => (
            "How GCRA behaves",
            &[
                "GCRA, the leaky bucket used as a meter, is the token bucket kept as a single timestamp: the theoretical arrival time at which the next request would be perfectly on schedule.",
                "A request is admitted unless it comes earlier than that time minus the burst allowance, and each admission moves the time on by 1 ÷ refill.",
                "It decides exactly like the token bucket (the inner-state chart shows the equivalent tokens), but stores one number per client instead of a level and a timestamp.",
            ],
        ),
        View::Single(Algorithm::FixedWindow) => (
            "How the fixed window behaves",
            &[
                "Time is cut into windows that start at t = 0, each with a counter that admits requests until it reaches the limit and resets to zero at the next boundary.",
                "Because the counter forgets everything at the boundary, a client can spend the whole limit just before it and the whole limit again just after: up to 2 × limit in far less than one window.",
                "Pick the seam-attack traffic to see it: the throughput chart marks the moment, and the callout above it counts the burst.",
            ],
        ),
        View::Single(Algorithm::SlidingWindow) => (
            "How the sliding window counter behaves",
            &[
                "It keeps only two counters, this window's and the previous one's, and estimates the last window's requests as previous × (the share of the previous window still in view) + current.",
                "That estimate assumes the previous window's requests were spread evenly, so it can be wrong in both directions; Compare counts how often it disagrees with the exact log.",
                "A request is admitted while the estimate plus one stays within the limit, which under steady overload settles at limit − 1 per window.",
            ],
        ),
        View::Single(Algorithm::SlidingLog) => (
            "How the sliding log behaves",
            &[
                "The exact rule: a request is admitted only if fewer than limit requests were admitted in the window that ends now.",
                "It remembers the timestamps of the last limit admissions, so its memory grows with the limit, but no window-length interval ever holds more than limit admitted requests — not even at the seam.",
                "It is the yardstick the sliding window counter is measured against.",
            ],
        ),
        _ => ("", &[]),
    };
    Explanation { title, sentences }
}

/// How the leaky bucket's queue behaves: the whole page's alone (the first modules hand it over).
fn explain_queue() -> Explanation {
    Explanation {
        title: "How the leaky bucket (as a queue) behaves",
        sentences: &[
            "Admitted requests wait in a queue that drains at the refill rate, one every 1 ÷ refill seconds in arrival order; a request that finds capacity requests already waiting is answered 429 at once.",
            "So a burst is not refused but smoothed: it leaves as a steady stream at the drain rate, and each request's wait, up to capacity ÷ refill, is part of its latency (the slants in the strip).",
            "It admits exactly the requests a token bucket of capacity + 1 admits, only later; nginx's limit_req without nodelay is this queue with burst = capacity.",
            "Used as a meter instead, refusing what would overflow and holding nothing, the leaky bucket is GCRA.",
        ],
    }
}

/// How to read Compare all: the whole page's alone (the first modules hand Compare over).
fn explain_compare() -> Explanation {
    Explanation {
        title: "How to read the comparison",
        sentences: &[
            "The same arrivals (same traffic, same seed) go through all five meters at once (not the leaky bucket's queue, which admits what a token bucket one larger admits, only later); unless you set them, the windows get limit = capacity and window = capacity ÷ refill, so every algorithm allows the same burst and the same long-run rate.",
            "Token bucket and GCRA always match exactly; the fixed window differs most at window boundaries.",
            "The line under the columns compares how many requests the sliding window counter admitted with the exact sliding log: under steady overload the counter admits one fewer than the limit per window; after a burst its even-spread estimate can let more through.",
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::options::VIEWS;

    #[test]
    fn every_view_has_two_to_four_sentences() {
        for v in VIEWS {
            let e = explain(v.value);
            assert!((2..=4).contains(&e.sentences.len()), "{}: {} sentences", v.key, e.sentences.len());
            assert!(e.sentences.iter().all(|s| s.ends_with('.')), "{}", v.key);
        }
    }

    #[test]
    fn the_facts_the_charts_rely_on_are_stated() {
        let text = |v| explain(v).sentences.join(" ");
        assert!(text(View::Single(Algorithm::FixedWindow)).contains("2 × limit"));
        assert!(text(View::Single(Algorithm::SlidingWindow)).contains("limit − 1"));
        assert!(text(View::Single(Algorithm::SlidingWindow)).contains("spread evenly"));
        assert!(text(View::Single(Algorithm::Gcra)).contains("exactly like the token bucket"));
        assert!(text(View::Single(Algorithm::TokenBucket)).contains("C ÷ (λ − r)"));
        assert!(text(View::Single(Algorithm::LeakyBucket)).contains("capacity + 1"));
        assert!(text(View::Single(Algorithm::Gcra)).contains("leaky bucket used as a meter"));
    }
}
