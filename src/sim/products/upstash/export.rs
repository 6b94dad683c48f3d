//! Upstash Ratelimit (`@upstash/ratelimit`): token bucket, fixed and sliding windows on Redis.
//! The numbers come from [`UpstashLimiter`], which `algo=upstash_token|upstash_fixed|upstash_sliding` runs.

use super::model::UpstashLimiter;
use crate::sim::products::policy::{secs, Policy, Shape};
use crate::sim::products::product::Config;

pub(super) fn config(p: &Policy) -> Config {
    let (limiter, mut notes) = match UpstashLimiter::of(p) {
        UpstashLimiter::Token { refill_rate: tokens, interval_ms, .. } => {
            let interval = UpstashLimiter::duration(interval_ms);
            (
                format!("Ratelimit.tokenBucket({tokens}, \"{interval}\", {})", p.burst),
                vec![format!(
                    "tokenBucket(refillRate, interval, maxTokens): {tokens} token(s) every {interval} \
                     ({}/s) up to {}; a new bucket starts full. Refill is in steps of {tokens}.",
                    p.per_sec(),
                    p.burst
                )],
            )
        }
        UpstashLimiter::Fixed { tokens, window_ms } => (
            format!("Ratelimit.fixedWindow({tokens}, \"{}\")", UpstashLimiter::duration(window_ms)),
            vec![format!("fixedWindow: up to 2 × {} across a window boundary.", p.limit)],
        ),
        UpstashLimiter::Sliding { tokens, window_ms } => (
            format!("Ratelimit.slidingWindow({tokens}, \"{}\")", UpstashLimiter::duration(window_ms)),
            vec!["slidingWindow is the weighted two-window counter (the playground's sliding window counter).".into()],
        ),
    };
    if p.shape == Shape::SlidingLog {
        notes.push("Upstash has no exact sliding log: the counter is the closest; compare mode shows how its admissions differ from the exact log's.".into());
    }
    if p.shape != Shape::Bucket && !p.window_ns.is_multiple_of(1_000_000) {
        notes.push(format!("Durations are whole milliseconds: {} s rounded.", secs(p.window_ns)));
    }
    notes.push(
        "Refused identifiers are cached in memory (ephemeralCache, on by default) and refused without \
         asking Redis until reset, that millisecond included (algo=upstash_* runs this)."
            .into(),
    );
    notes.push(
        "limit(identifier) returns { success, reset }: reset is a Unix time in ms, so Retry-After is \
         ceil((reset − Date.now()) / 1000)."
            .into(),
    );
    let snippet = format!(
        "import {{ Ratelimit }} from \"@upstash/ratelimit\";\n\
         import {{ Redis }} from \"@upstash/redis\";\n\n\
         const ratelimit = new Ratelimit({{\n\
        \x20 redis: Redis.fromEnv(),\n\
        \x20 limiter: {limiter},\n\
         }});\n\n\
         const {{ success, reset }} = await ratelimit.limit(clientId);\n"
    );
    Config { target: "Upstash Ratelimit", language: "js", snippet, notes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_whole_tokens_per_whole_milliseconds_and_windows_seconds_or_milliseconds() {
        let p = |shape, rate_milli, window_ns| Policy { shape, burst: 4, rate_milli, limit: 4, window_ns };
        assert!(config(&p(Shape::Bucket, 2_500, 1)).snippet.contains("Ratelimit.tokenBucket(1, \"400 ms\", 4)"));
        assert!(config(&p(Shape::Bucket, 5_000, 1)).snippet.contains("Ratelimit.tokenBucket(5, \"1 s\", 4)"));
        assert!(config(&p(Shape::FixedWindow, 1, 60_000_000_000)).snippet.contains("fixedWindow(4, \"60 s\")"));
        assert!(config(&p(Shape::SlidingLog, 1, 1_500_000_000)).snippet.contains("slidingWindow(4, \"1500 ms\")"));
    }
}
