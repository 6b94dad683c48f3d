//! HAProxy: a frontend with the stick table, the tracking rule and the deny rule. The numbers
//! come from [`HaproxyRate`], which `algo=haproxy` runs.

use super::model::HaproxyRate;
use crate::sim::products::policy::{secs, Policy, Shape};
use crate::sim::products::product::Config;

/// A period as HAProxy's configuration writes it: `10s`, `1500ms`.
pub fn period(ms: u32) -> String {
    if ms.is_multiple_of(1_000) {
        format!("{}s", ms / 1_000)
    } else {
        format!("{ms}ms")
    }
}

pub(super) fn config(p: &Policy) -> Config {
    let HaproxyRate { limit, period_ms } = HaproxyRate::of(p);
    let (rate, expire) = (period(period_ms), period(period_ms.saturating_mul(2)));
    let snippet = format!(
        "# haproxy.cfg: at most {limit} requests per {rate} per client address\n\
         frontend api\n\
        \x20   bind :8080\n\
        \x20   mode http\n\
        \x20   stick-table type ip size 1m expire {expire} store http_req_rate({rate})\n\
        \x20   http-request track-sc0 src\n\
        \x20   http-request deny deny_status 429 if {{ sc_http_req_rate(0) gt {limit} }}\n\
        \x20   default_backend app\n"
    );
    let mut notes = vec![
        format!(
            "http_req_rate({rate}) is a sliding window counter: this period's requests plus the last period's, \
             weighed by what is left of this one, in whole milliseconds and integer division."
        ),
        format!(
            "The request is counted by track-sc0, before the deny rule reads the rate: refused requests count too, \
             and \"gt {limit}\" refuses the request that makes it {} — so {limit} pass from idle.",
            limit + 1
        ),
        format!(
            "expire {expire} (two periods) forgets a client only once its rate reads 0 anyway; a shorter expire \
             would forget clients that are still counted."
        ),
        "Each HAProxy process counts alone: with several, share the table with peers (which sync \
         asynchronously) or expect N times the rate. deny sends a bare 429: no Retry-After."
            .into(),
    ];
    if u64::from(period_ms) * 1_000_000 != p.window_ns {
        notes.push(format!("The period is whole milliseconds: {} s rounded.", secs(p.window_ns)));
    }
    if p.shape == Shape::Bucket {
        notes.push(format!(
            "Your policy is a token bucket: this is {limit} per {rate} (its burst over the time it takes to refill), \
             counted in sliding windows, not refilled smoothly."
        ));
    }
    Config { target: "HAProxy", language: "haproxy", snippet, notes }
}
