//! nginx `limit_req`: a leaky bucket whose `burst … nodelay` behaves as a token bucket.

use super::{Config, Policy, Shape};

/// nginx takes whole requests per second (`r/s`) or per minute (`r/m`) only.
fn rate(milli: u64) -> (String, Option<String>) {
    if milli.is_multiple_of(1_000) {
        return (format!("{}r/s", milli / 1_000), None);
    }
    if (milli * 60).is_multiple_of(1_000) {
        return (format!("{}r/m", milli * 60 / 1_000), None);
    }
    let per_min = ((milli * 60 + 500) / 1_000).max(1);
    let exact = crate::sim::decimal::format_fixed(milli * 60, 3);
    (format!("{per_min}r/m"), Some(format!("{exact} requests/min is not a whole number: rounded to {per_min}r/m")))
}

pub(super) fn config(p: &Policy) -> Config {
    let (rate, rounded) = rate(p.rate_milli);
    let burst = p.burst.saturating_sub(1);
    let snippet = format!(
        "# in http {{ }}: one shared-memory zone, keyed by client address\n\
         limit_req_zone $binary_remote_addr zone=api:10m rate={rate};\n\n\
         # in server {{ }} or location {{ }}\n\
         limit_req zone=api burst={burst} nodelay;\n\
         limit_req_status 429;\n"
    );
    let mut notes = vec![
        format!("rate={rate} is the sustained rate ({}/s); nginx accepts only whole r/s or r/m.", p.per_sec()),
        format!(
            "burst={burst} counts requests beyond the first: with nodelay up to {} pass at once from idle, \
             the same as a token bucket of capacity {}. Without nodelay nginx queues the burst and delays \
             it instead of answering 429.",
            p.burst, p.burst
        ),
        "nginx answers 503 by default: limit_req_status 429 makes it a 429. It sends no Retry-After header.".into(),
        "$binary_remote_addr limits each client address separately; key the zone on a constant \
         (e.g. $server_name) for one limit shared by everyone."
            .into(),
    ];
    notes.extend(rounded);
    if p.shape != Shape::Bucket {
        notes.push(format!(
            "nginx has no window limiter: this is the bucket with the same burst ({}) and long-run rate \
             ({} per {} s); it does not reproduce the window's boundary behaviour.",
            p.limit,
            p.limit,
            super::secs(p.window_ns)
        ));
    }
    Config { target: "nginx limit_req", language: "nginx", snippet, notes }
}

#[cfg(test)]
mod tests {
    use super::rate;

    #[test]
    fn whole_rates_per_second_or_minute_are_exact_and_others_are_rounded_per_minute() {
        assert_eq!(rate(5_000), ("5r/s".into(), None));
        assert_eq!(rate(2_500), ("150r/m".into(), None));
        let (r, note) = rate(1);
        assert_eq!(r, "1r/m");
        assert_eq!(note.unwrap(), "0.06 requests/min is not a whole number: rounded to 1r/m");
    }
}
