//! Envoy's HTTP local rate limit filter: a token bucket, refilled on access since Envoy 1.31.
//! The numbers come from [`EnvoyBucket`], which `algo=envoy` runs.

use super::model::EnvoyBucket;
use crate::sim::products::policy::{secs, Policy, Shape};
use crate::sim::products::product::Config;

pub(super) fn config(p: &Policy) -> Config {
    let b = EnvoyBucket::of(p);
    let (k, interval, exact) = (b.tokens_per_fill, b.fill_interval_ns, b.exact);
    let snippet = format!(
        "http_filters:\n\
         - name: envoy.filters.http.local_ratelimit\n\
        \x20 typed_config:\n\
        \x20   \"@type\": type.googleapis.com/envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit\n\
        \x20   stat_prefix: http_local_rate_limiter\n\
        \x20   token_bucket:\n\
        \x20     max_tokens: {burst}\n\
        \x20     tokens_per_fill: {k}\n\
        \x20     fill_interval: {interval}s\n\
        \x20   filter_enabled:\n\
        \x20     runtime_key: local_rate_limit_enabled\n\
        \x20     default_value: {{ numerator: 100, denominator: HUNDRED }}\n\
        \x20   filter_enforced:\n\
        \x20     runtime_key: local_rate_limit_enforced\n\
        \x20     default_value: {{ numerator: 100, denominator: HUNDRED }}\n",
        burst = p.burst,
        interval = secs(interval),
    );
    let mut notes = vec![
        format!(
            "max_tokens={} is the burst and the starting level; tokens_per_fill={k} per fill_interval={}s is \
             {}/s. Since Envoy 1.31 (envoy PR #35207, runtime guard \
             envoy.reloadable_features.no_timer_based_rate_limit_token_bucket, on by default) the bucket \
             refills continuously, computed on each request in floating point: algo=envoy.",
            p.burst,
            secs(interval),
            b.fill_rate_text()
        ),
        format!(
            "Envoy 1.30 and older (or the guard off, until 1.34 removed it) add {k} token(s) on a timer every \
             fill_interval: steps, so right after a fill up to {k} more pass at once (algo=envoy&envoy_bucket=timer). \
             Envoy 1.18–1.22 could also skip fills of descriptor buckets (envoy #19474)."
        ),
        "fill_interval is read in whole milliseconds and must be at least 50 ms.".into(),
        "filter_enabled and filter_enforced default to 0 %: without both at 100 % the filter only counts.".into(),
        "The bucket is per Envoy process (shared by its worker threads): N Envoy replicas admit N times \
         the rate. Rejections are 429 with x-envoy-ratelimited."
            .into(),
        "Modelled from Envoy's documentation and source; not run against Envoy (it cannot be installed \
         where the playground is tested)."
            .into(),
    ];
    if !exact {
        notes.push(format!(
            "{k} token(s) every {}s is {}/s: the rate rounded to the millisecond Envoy reads.",
            secs(interval),
            b.fill_rate_text()
        ));
    }
    if p.shape != Shape::Bucket {
        notes.push(format!(
            "Envoy's local limiter is a token bucket: this is the bucket with the window's burst ({}) and \
             long-run rate ({} per {} s).",
            p.limit,
            p.limit,
            secs(p.window_ns)
        ));
    }
    Config { target: "Envoy local rate limit", language: "yaml", snippet, notes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snippet_has_whole_millisecond_fill_intervals() {
        let p = Policy { shape: Shape::Bucket, burst: 10, rate_milli: 3_000, limit: 10, window_ns: 1 };
        let c = config(&p);
        assert!(c.snippet.contains("fill_interval: 0.333s"), "{}", c.snippet);
        assert!(c.notes.iter().any(|n| n.contains("3.003/s")), "{:?}", c.notes);
    }
}
