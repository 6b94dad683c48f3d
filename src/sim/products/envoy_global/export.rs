//! envoyproxy/ratelimit: the service's descriptor configuration and the Envoy filter that asks
//! it. The numbers come from [`GlobalLimit`], which `algo=envoy_global` runs.

use super::model::GlobalLimit;
use crate::sim::products::policy::{secs, Policy};
use crate::sim::products::product::Config;

pub(super) fn config(p: &Policy) -> Config {
    let l = GlobalLimit::of(p);
    let (unit, requests) = (l.name(), l.limit);
    let snippet = format!(
        "# The rate limit service's configuration (config/api.yaml)\n\
         domain: api\n\
         descriptors:\n\
        \x20 - key: remote_address\n\
        \x20   rate_limit:\n\
        \x20     unit: {unit}\n\
        \x20     requests_per_unit: {requests}\n\
         \n\
         # Envoy: the HTTP filter, and the route's action that sends the client's address\n\
         http_filters:\n\
         - name: envoy.filters.http.ratelimit\n\
        \x20 typed_config:\n\
        \x20   \"@type\": type.googleapis.com/envoy.extensions.filters.http.ratelimit.v3.RateLimit\n\
        \x20   domain: api\n\
        \x20   enable_x_ratelimit_headers: DRAFT_VERSION_03\n\
        \x20   rate_limit_service:\n\
        \x20     transport_api_version: V3\n\
        \x20     grpc_service:\n\
        \x20       envoy_grpc: {{ cluster_name: ratelimit }}\n\
         # in the route: rate_limits: [{{ actions: [{{ remote_address: {{}} }}] }}]\n"
    );
    let mut notes = vec![
        format!(
            "{requests} per {unit}, in windows aligned to the Unix epoch on a whole-second clock: {requests} at the end \
             of one window and {requests} more at the start of the next pass."
        ),
        "Every request increments the counter first and is over the limit when the count after it is above \
         requests_per_unit: refused requests count too."
            .into(),
        "The counter is in Redis, shared by every Envoy: one limit for the fleet, at the cost of a round trip per \
         request. If the service fails, Envoy lets requests through (failure_mode_deny: false)."
            .into(),
        "Not run here: neither the service nor Envoy can be installed on this machine; algo=envoy_global is read \
         from their source."
            .into(),
    ];
    if l.period_s * 1_000_000_000 != p.window_ns || l.limit != p.limit {
        notes.push(format!(
            "The service's units are a second, minute, hour or day: your {} per {} s is {requests} per {unit}, the \
             same long-run rate.",
            p.limit,
            secs(p.window_ns)
        ));
    }
    Config { target: "envoyproxy/ratelimit", language: "yaml", snippet, notes }
}
