//! nginx `limit_req`: a leaky bucket whose `burst … nodelay` behaves as a token bucket. The
//! numbers come from [`NginxConfig`], which `algo=nginx` runs.

use super::model::{NginxConfig, NginxRate};
use crate::sim::products::options::ProductOptions;
use crate::sim::products::policy::{Policy, Shape};
use crate::sim::products::product::Config;

/// The note for a rate nginx cannot take exactly, if it is one.
fn rounding(milli: u64, rate: NginxRate) -> Option<String> {
    let exact = rate.per_minute && rate.value * 1_000 != milli * 60;
    exact.then(|| {
        let per_min = crate::sim::support::decimal::format_fixed(milli * 60, 3);
        format!("{per_min} requests/min is not a whole number: rounded to {}", rate.to_config())
    })
}

pub(super) fn config(p: &Policy, o: &ProductOptions) -> Config {
    let c = NginxConfig::of(p, o);
    let rate = c.rate.to_config();
    let burst = c.burst;
    let mode = match (c.nodelay, c.delay) {
        (true, _) => " nodelay".to_string(),
        (false, 0) => String::new(),
        (false, d) => format!(" delay={d}"),
    };
    let status = if c.status == 503 { String::new() } else { format!("limit_req_status {};\n", c.status) };
    let snippet = format!(
        "# in http {{ }}: one shared-memory zone, keyed by client address\n\
         limit_req_zone $binary_remote_addr zone=api:10m rate={rate};\n\n\
         # in server {{ }} or location {{ }}\n\
         limit_req zone=api burst={burst}{mode};\n\
         {status}"
    );
    let mut notes = vec![
        format!(
            "rate={rate} is the sustained rate ({}/s); nginx accepts only whole r/s or r/m and keeps it in \
             whole milli-requests per second: {} here{}.",
            p.per_sec(),
            c.rate.milli(),
            if c.rate.milli() * 60 != c.rate.value * 1_000 && c.rate.per_minute { ", truncated" } else { "" }
        ),
        if c.nodelay {
            format!(
                "burst={burst} counts requests beyond the first: with nodelay up to {} pass at once from idle, \
                 as from a token bucket of capacity {}; the next are answered {} at once.",
                burst + 1,
                burst + 1,
                c.status
            )
        } else {
            format!(
                "Without nodelay nginx holds each request beyond the rate{}: the k-th waits k ÷ rate before it \
                 is served, up to burst={burst} waiting; only beyond that is it answered {}.",
                if c.delay > 0 { format!(" (after the first delay={} excess ones)", c.delay) } else { String::new() },
                c.status
            )
        },
        "nginx counts time in whole milliseconds, updates a client's state only when a request passes, and \
         truncates the refill per update to whole milli-requests (algo=nginx runs this arithmetic)."
            .into(),
        if c.status == 503 {
            "Without limit_req_status nginx answers 503. It sends no Retry-After header.".into()
        } else {
            format!(
                "nginx answers 503 by default: limit_req_status {} changes it. It sends no Retry-After header.",
                c.status
            )
        },
        "Put it where a request is served (proxy_pass, a file): a location that answers with `return` never \
         reaches limit_req, which runs after the rewrite phase, so every request passes."
            .into(),
        "$binary_remote_addr limits each client address separately; key the zone on a constant \
         (e.g. $server_name) for one limit shared by everyone."
            .into(),
    ];
    notes.extend(rounding(p.rate_milli, c.rate));
    if p.shape != Shape::Bucket {
        notes.push(format!(
            "nginx has no window limiter: this is the bucket with the same burst ({}) and long-run rate \
             ({} per {} s); it does not reproduce the window's boundary behaviour.",
            p.limit,
            p.limit,
            crate::sim::products::policy::secs(p.window_ns)
        ));
    }
    Config { target: "nginx limit_req", language: "nginx", snippet, notes }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_rates_per_second_or_minute_are_exact_and_others_are_rounded_per_minute() {
        let r = |m| NginxRate::for_milli(m).to_config();
        assert_eq!(r(5_000), "5r/s");
        assert_eq!(r(2_500), "150r/m");
        assert_eq!(r(1), "1r/m");
        let note = rounding(1, NginxRate::for_milli(1)).unwrap();
        assert_eq!(note, "0.06 requests/min is not a whole number: rounded to 1r/m");
        assert_eq!(rounding(2_500, NginxRate::for_milli(2_500)), None);
    }
}
