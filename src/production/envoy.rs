//! Envoy's HTTP local rate limit filter: a token bucket refilled in steps.

use super::{secs, Config, Policy, Shape};
use crate::sim::rate::TOKEN;

/// Envoy refuses fill intervals shorter than this.
const MIN_FILL_NS: u64 = 50_000_000;

/// `(tokens_per_fill, fill_interval_ns, exact)`: the fewest tokens per fill whose interval is at
/// least 50 ms, and that interval.
pub(super) fn fill(rate_milli: u64) -> (u64, u64, bool) {
    let milli = u128::from(rate_milli.max(1));
    // k / r ≥ 0.05 s  ⟺  k ≥ r / 20.
    let k = (milli.div_ceil(20_000)).max(1);
    let interval = (k * TOKEN + milli / 2) / milli;
    let exact = (k * TOKEN).is_multiple_of(milli);
    (k as u64, (interval as u64).max(MIN_FILL_NS), exact)
}

pub(super) fn config(p: &Policy) -> Config {
    let (k, interval, exact) = fill(p.rate_milli);
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
            "max_tokens={} is the burst and the starting level. Envoy adds tokens_per_fill={k} every \
             fill_interval={}s: {}/s on average, in steps rather than continuously, so right after a fill \
             up to {k} more requests pass at once.",
            p.burst,
            secs(interval),
            p.per_sec()
        ),
        "filter_enabled and filter_enforced default to 0 %: without both at 100 % the filter only counts.".into(),
        "The bucket is per Envoy process (shared by its worker threads): N Envoy replicas admit N times \
         the rate. Rejections are 429 with x-envoy-ratelimited."
            .into(),
    ];
    if !exact {
        notes.push(format!("{k} token(s) every {}s is the rate rounded to the nanosecond.", secs(interval)));
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
    use super::fill;

    #[test]
    fn fill_uses_one_token_per_interval_until_intervals_would_drop_below_50_ms() {
        assert_eq!(fill(5_000), (1, 200_000_000, true)); // 5/s: 1 every 0.2 s
        assert_eq!(fill(2_500), (1, 400_000_000, true));
        assert_eq!(fill(20_000), (1, 50_000_000, true));
        assert_eq!(fill(1_000_000), (50, 50_000_000, true)); // 1000/s: 50 every 50 ms
        assert_eq!(fill(3_000), (1, 333_333_333, false));
    }
}
