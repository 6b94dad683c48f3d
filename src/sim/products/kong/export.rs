//! Kong: the `rate-limiting` plugin in declarative configuration (decK / kong.yml). The numbers
//! come from [`KongLimit`], which `algo=kong` runs.

use super::model::KongLimit;
use crate::sim::products::policy::{secs, Policy};
use crate::sim::products::product::Config;

pub(super) fn config(p: &Policy) -> Config {
    let l = KongLimit::of(p);
    let (field, limit) = (l.name(), l.limit);
    let snippet = format!(
        "# kong.yml (declarative configuration): on a service, a route, or globally\n\
         plugins:\n\
         - name: rate-limiting\n\
        \x20 config:\n\
        \x20   {field}: {limit}\n\
        \x20   policy: local\n\
        \x20   limit_by: ip\n"
    );
    let mut notes = vec![
        format!(
            "{limit} per calendar {field} in UTC, on a clock in whole seconds: a client can send {limit} at the end \
             of one {field} and {limit} more at the start of the next."
        ),
        "Refused once the count has reached the limit, and refused requests are not counted; admitted ones are \
         counted just after the decision (in a timer), so requests at the same instant can all pass."
            .into(),
        "policy: local counts per Kong node: N nodes admit N times. policy: redis shares the count: by default \
         (sync_rate: -1) every request waits for Redis; with sync_rate set each node decides on its own count, \
         sends it every sync_rate seconds and then forgets it — the multi-node view runs it (store=sync)."
            .into(),
        "Not run here: Kong cannot be installed on this machine; algo=kong is read from its source (3.x).".into(),
    ];
    if l.period_s * 1_000_000_000 != p.window_ns || l.limit != p.limit {
        notes.push(format!(
            "Kong's periods are a second, minute, hour, day, month or year: your {} per {} s is {limit} per {field}, \
             the same long-run rate.",
            p.limit,
            secs(p.window_ns)
        ));
    }
    Config { target: "Kong", language: "yaml", snippet, notes }
}
