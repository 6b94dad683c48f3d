//! Cloudflare: a rate limiting rule as the Rulesets API (and Terraform's `cloudflare_ruleset`)
//! takes it. The numbers come from [`CfRule`], which `algo=cloudflare` runs.

use super::model::CfRule;
use crate::sim::products::options::ProductOptions;
use crate::sim::products::policy::{secs, Policy};
use crate::sim::products::product::Config;

pub(super) fn config(p: &Policy, o: &ProductOptions) -> Config {
    let CfRule { period_s, requests, timeout_s } = CfRule::of(p, o);
    let snippet = format!(
        "{{\n\
        \x20 \"description\": \"API: {requests} requests per {period_s} s per client\",\n\
        \x20 \"expression\": \"(http.request.uri.path wildcard \\\"/api/*\\\")\",\n\
        \x20 \"action\": \"block\",\n\
        \x20 \"ratelimit\": {{\n\
        \x20   \"characteristics\": [\"ip.src\", \"cf.colo.id\"],\n\
        \x20   \"period\": {period_s},\n\
        \x20   \"requests_per_period\": {requests},\n\
        \x20   \"mitigation_timeout\": {timeout_s}\n\
        \x20 }}\n\
         }}\n"
    );
    let mut notes = vec![
        format!(
            "The rule triggers on the request that takes the client's count above {requests} in {period_s} s; \
             {}",
            if timeout_s == 0 {
                "with mitigation_timeout 0 it then refuses only requests over the rate (Enterprise).".to_string()
            } else {
                format!("then every request from it is blocked for {timeout_s} s, whatever its rate (cf_timeout).")
            }
        ),
        "Counters are per data center (cf.colo.id): a client reaching several data centers gets the limit in each. \
         Cloudflare says the counters may lag by a few seconds: it is not meant for an exact count."
            .into(),
        "Periods and timeouts come in fixed sizes, and which ones depend on the plan (Free: 10 s and 10 s).".into(),
        "Not run here: a managed service. algo=cloudflare counts each period with the previous one weighed by what is \
         left of it, as Cloudflare described its counters in 2017, and does not count blocked requests: the current \
         documentation says neither."
            .into(),
    ];
    if period_s * 1_000_000_000 != p.window_ns || requests != p.limit {
        notes.push(format!(
            "Your {} per {} s is {requests} per {period_s} s, the nearest counting period with the same long-run rate.",
            p.limit,
            secs(p.window_ns)
        ));
    }
    Config { target: "Cloudflare", language: "json", snippet, notes }
}
