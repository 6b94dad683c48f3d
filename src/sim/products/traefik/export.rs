//! Traefik: the `rateLimit` middleware in its dynamic configuration (file provider, YAML). The
//! numbers come from [`TraefikLimit`], which `algo=traefik` runs.

use super::model::{go_duration, TraefikLimit};
use crate::sim::products::policy::{secs, Policy, Shape};
use crate::sim::products::product::Config;

pub(super) fn config(p: &Policy) -> Config {
    let l = TraefikLimit::of(p);
    let TraefikLimit { average, burst, .. } = l;
    let period = l.period();
    let snippet = format!(
        "# Dynamic configuration (file provider). Attach it to a router: middlewares: [api-ratelimit]\n\
         http:\n\
        \x20 middlewares:\n\
        \x20   api-ratelimit:\n\
        \x20     rateLimit:\n\
        \x20       average: {average}\n\
        \x20       period: {period}\n\
        \x20       burst: {burst}\n"
    );
    let mut notes = vec![
        format!(
            "average {average} per period {period} is {}/s; burst {burst} is the bucket's size. algo=traefik runs \
             the middleware's arithmetic on Go's x/time/rate (Traefik itself is not run here: its glue is \
             modelled from its source, v3.7).",
            p.per_sec()
        ),
        format!(
            "Traefik delays rather than refuses: a request whose token is due within {} (maxDelay) is held that \
             long, then served; only a longer wait gets 429, with Retry-After in whole seconds rounded up and \
             X-Retry-In.",
            go_duration(l.max_delay())
        ),
        format!(
            "Each source's limiter is forgotten {} s after its last request (in whole seconds): an idle client \
             comes back with its whole burst, sooner than the rate refills it.",
            l.ttl_s()
        ),
        "The source is the client's address (sourceCriterion ipStrategy; behind another proxy set depth or \
         excludedIPs, or every client is one source). Each Traefik instance counts alone: N replicas admit N times \
         the rate, unless you use its redis option."
            .into(),
    ];
    if p.shape != Shape::Bucket {
        notes.push(format!(
            "Traefik has no window limiter: this is a bucket with the window's burst ({}) and long-run rate ({} per \
             {} s), refilled continuously rather than at the window's end.",
            p.limit,
            p.limit,
            secs(p.window_ns)
        ));
    }
    Config { target: "Traefik", language: "yaml", snippet, notes }
}
