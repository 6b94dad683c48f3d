//! redis-cell: the module loaded into Redis, and the `CL.THROTTLE` call an application makes per
//! request. The numbers come from [`CellQuota`], which `algo=redis_cell` runs.

use super::model::CellQuota;
use crate::sim::products::policy::{secs, Policy, Shape};
use crate::sim::products::product::Config;

/// The command for one client's key, as the snippet prints it (its last line runs as is with
/// `redis-cli`).
pub fn command(q: &CellQuota) -> String {
    format!("CL.THROTTLE ratelimit:203.0.113.7 {} {} {} 1", q.max_burst, q.count, q.period_s)
}

pub(super) fn config(p: &Policy) -> Config {
    let q = CellQuota::of(p);
    let CellQuota { max_burst, count, period_s } = q;
    let snippet = format!(
        "# redis.conf: load the module (redis-cell 0.2.2, built with `cargo build --release` from crates.io)\n\
         loadmodule /usr/local/lib/libredis_cell.so\n\n\
         # Per request, one key per client: CL.THROTTLE <key> <max_burst> <count> <period> [<quantity>]\n\
         # Reply: limited (0/1), limit ({limit}), remaining, retry_after (s, -1 if allowed), reset_after (s)\n\
         {}\n",
        command(&q),
        limit = max_burst + 1,
    );
    let mut notes = vec![
        format!(
            "max_burst {max_burst} admits {} at once: the limit is max_burst + 1 (brandur/redis-cell#70), so the \
             export passes your burst minus one.",
            max_burst + 1
        ),
        format!(
            "{count} per {period_s} s is one request every {} s: redis-cell divides in floating point and \
             truncates to the nanosecond.",
            secs(q.interval() as u64)
        ),
        "retry_after and reset_after are whole seconds, truncated: send Retry-After as retry_after + 1 (or \
         compute it yourself) or clients retry too early."
            .into(),
        "The command is atomic in Redis, so N application servers share one limit; the clock is the Redis \
         host's."
            .into(),
    ];
    if p.shape != Shape::Bucket {
        notes.push(format!(
            "redis-cell has no window limiter: this is GCRA with the window's burst ({}) and long-run rate ({} per \
             {} s).",
            p.limit,
            p.limit,
            secs(p.window_ns)
        ));
    }
    Config { target: "redis-cell", language: "redis", snippet, notes }
}
