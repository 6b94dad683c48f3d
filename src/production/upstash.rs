//! Upstash Ratelimit (`@upstash/ratelimit`): token bucket, fixed and sliding windows on Redis.

use super::{gcd, secs, Config, Policy, Shape};

/// `(refillRate, interval)` for a token bucket: the fewest whole tokens per whole-ms interval.
pub(super) fn refill(rate_milli: u64) -> (u64, String) {
    let milli = rate_milli.max(1);
    if milli.is_multiple_of(1_000) {
        return (milli / 1_000, "1 s".into());
    }
    // rate_milli / 1e6 tokens per ms = (rate_milli / g) tokens per (1e6 / g) ms.
    let g = gcd(milli, 1_000_000);
    (milli / g, format!("{} ms", 1_000_000 / g))
}

/// A window as an Upstash duration: whole seconds, else whole milliseconds.
fn duration(ns: u64) -> String {
    if ns.is_multiple_of(1_000_000_000) {
        format!("{} s", ns / 1_000_000_000)
    } else {
        format!("{} ms", ((ns + 500_000) / 1_000_000).max(1))
    }
}

pub(super) fn config(p: &Policy) -> Config {
    let (limiter, mut notes) = match p.shape {
        Shape::Bucket => {
            let (tokens, interval) = refill(p.rate_milli);
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
        Shape::FixedWindow => (
            format!("Ratelimit.fixedWindow({}, \"{}\")", p.limit, duration(p.window_ns)),
            vec![format!("fixedWindow: up to 2 × {} across a window boundary.", p.limit)],
        ),
        Shape::SlidingWindow | Shape::SlidingLog => (
            format!("Ratelimit.slidingWindow({}, \"{}\")", p.limit, duration(p.window_ns)),
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
    fn refill_is_whole_tokens_per_whole_milliseconds() {
        assert_eq!(refill(5_000), (5, "1 s".into()));
        assert_eq!(refill(2_500), (1, "400 ms".into()));
        assert_eq!(refill(7_500), (3, "400 ms".into()));
        assert_eq!(refill(1), (1, "1000000 ms".into()));
    }

    #[test]
    fn windows_are_seconds_or_milliseconds() {
        assert_eq!(duration(60_000_000_000), "60 s");
        assert_eq!(duration(1_500_000_000), "1500 ms");
    }
}
