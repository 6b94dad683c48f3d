//! Spring Cloud Gateway: the route's `RequestRateLimiter` filter in application.yml. The numbers
//! come from [`SpringLimit`], which `algo=spring` runs.

use super::model::SpringLimit;
use crate::sim::products::policy::{Policy, Shape};
use crate::sim::products::product::Config;

pub(super) fn config(p: &Policy) -> Config {
    let SpringLimit { replenish, burst } = SpringLimit::of(p);
    let snippet = format!(
        "# application.yml: with spring-boot-starter-data-redis-reactive, and a KeyResolver bean\n\
         # (e.g. exchange -> Mono.just(exchange.getRequest().getRemoteAddress().getAddress().getHostAddress()))\n\
         spring:\n\
        \x20 cloud:\n\
        \x20   gateway:\n\
        \x20     routes:\n\
        \x20       - id: api\n\
        \x20         uri: http://localhost:8081\n\
        \x20         predicates: [\"Path=/**\"]\n\
        \x20         filters:\n\
        \x20           - name: RequestRateLimiter\n\
        \x20             args:\n\
        \x20               redis-rate-limiter.replenishRate: {replenish}\n\
        \x20               redis-rate-limiter.burstCapacity: {burst}\n\
        \x20               redis-rate-limiter.requestedTokens: 1\n\
        \x20               key-resolver: \"#{{@clientAddress}}\"\n"
    );
    let mut notes = vec![
        format!(
            "A token bucket of {burst} refilled with {replenish} tokens at each turn of the second on Redis's clock \
             (TIME, whole seconds): within a second nothing comes back, so requests spread over a second see the bucket \
             as it was when the second began."
        ),
        "replenishRate and burstCapacity are whole numbers, and burstCapacity must be at least replenishRate."
            .into(),
        "If Redis fails the limiter lets every request through (X-RateLimit-Remaining: -1). Refusals are 429 with \
         the X-RateLimit-* headers, and no Retry-After."
            .into(),
        "Not run here: Spring Cloud Gateway comes from Maven Central, which this machine cannot reach; algo=spring is \
         read from its source (4.x; before 3.0.6 the clock was the gateway's, not Redis's)."
            .into(),
    ];
    if replenish * 1_000 != p.rate_milli || burst != p.burst {
        notes.push(format!(
            "Your {}/s with bursts of {} is rounded to {replenish}/s and a burst of {burst}.",
            p.per_sec(),
            p.burst
        ));
    }
    if p.shape != Shape::Bucket {
        notes.push("Spring Cloud Gateway has no window limiter: this is its bucket with the window's rate.".into());
    }
    Config { target: "Spring Cloud Gateway", language: "yaml", snippet, notes }
}
