//! Python's `limits`: a program that runs as printed (the limiter, `allow` and `retry_after`
//! per client), with the rate-limit string Flask-Limiter's and SlowAPI's decorators take. The
//! numbers come from [`LimitsItem`], which `algo=python_limits` runs.

use super::model::LimitsItem;
use crate::sim::products::options::ProductOptions;
use crate::sim::products::policy::{secs, Policy, Shape};

/// The Redis the exported snippets name when `storage=redis` (the program reads `REDIS_URL`
/// first).
const REDIS: &str = "redis://localhost:6379";
use crate::sim::products::product::Config;

/// The rate-limit string for `item` (`limits.parse` reads it back as the same item): a named
/// granularity when the window is a whole number of them, else seconds.
///
/// ```
/// use ratelimit_playground::sim::products::python_limits::{export::limit_string, LimitsItem};
/// use ratelimit_playground::sim::products::Shape;
/// let item = |amount, expiry| LimitsItem { strategy: Shape::FixedWindow, amount, expiry, redis: false };
/// assert_eq!(limit_string(&item(100, 60)), "100/minute");
/// assert_eq!(limit_string(&item(5, 7_200)), "5 per 2 hours");
/// assert_eq!(limit_string(&item(7, 3)), "7 per 3 seconds");
/// ```
pub fn limit_string(item: &LimitsItem) -> String {
    let (unit, n) = [("day", 86_400), ("hour", 3_600), ("minute", 60), ("second", 1)]
        .into_iter()
        .find(|&(_, s)| item.expiry.is_multiple_of(s))
        .map_or(("second", item.expiry), |(unit, s)| (unit, item.expiry / s));
    match n {
        1 => format!("{}/{unit}", item.amount),
        _ => format!("{} per {n} {unit}s", item.amount),
    }
}

pub(super) fn config(p: &Policy, o: &ProductOptions) -> Config {
    let item = LimitsItem::of(p, o);
    let limit = limit_string(&item);
    let strategy = item.strategy_name();
    let class = match item.strategy {
        Shape::SlidingLog => "MovingWindowRateLimiter",
        Shape::SlidingWindow => "SlidingWindowCounterRateLimiter",
        _ => "FixedWindowRateLimiter",
    };
    let amount = item.amount;
    // Where the counts live: the snippet reads REDIS_URL so it runs as printed against any Redis.
    let (flask, slowapi, store, install, import_os, fresh) = match item.redis {
        true => (
            format!("RATELIMIT_STRATEGY = \"{strategy}\", RATELIMIT_STORAGE_URI = \"{REDIS}\""),
            format!("strategy=\"{strategy}\", storage_uri=\"{REDIS}\""),
            format!("storage.storage_from_string(os.environ.get(\"REDIS_URL\", \"{REDIS}\"))"),
            "\"limits[redis]\"",
            "import os\n",
            "    limiter.clear(LIMIT, \"127.0.0.1\")  # the demonstration starts from no count\n",
        ),
        false => (
            format!("RATELIMIT_STRATEGY = \"{strategy}\""),
            format!("strategy=\"{strategy}\""),
            "storage.MemoryStorage()".to_string(),
            "limits",
            "",
            "",
        ),
    };
    let snippet = format!(
        "# Flask-Limiter: @limiter.limit(\"{limit}\"), with {flask}\n\
         # SlowAPI:       @limiter.limit(\"{limit}\"), with Limiter(key_func=get_remote_address, {slowapi})\n\
         # Both decide with the limits library, as this does (pip install {install}):\n\
         import math\n\
         {import_os}\
         import time\n\n\
         from limits import parse, storage, strategies\n\n\
         LIMIT = parse(\"{limit}\")  # {amount} hits per {expiry} s\n\
         limiter = strategies.{class}({store})\n\n\n\
         def allow(client: str) -> bool:\n\
        \x20   \"\"\"True to serve the request; False to answer 429.\"\"\"\n\
        \x20   return limiter.hit(LIMIT, client)\n\n\n\
         def retry_after(client: str) -> int:\n\
        \x20   \"\"\"Whole seconds until the client's window resets, for a Retry-After header.\"\"\"\n\
        \x20   reset, _ = limiter.get_window_stats(LIMIT, client)\n\
        \x20   return max(1, math.ceil(reset - time.time()))\n\n\n\
         if __name__ == \"__main__\":\n\
         {fresh}\
        \x20   served = sum(allow(\"127.0.0.1\") for _ in range({over}))\n\
        \x20   print(f\"{{served}} of {over} served at once; retry after {{retry_after('127.0.0.1')}} s\")\n",
        expiry = item.expiry,
        over = amount + 1,
    );
    let mut notes = vec![match item.strategy {
        Shape::SlidingLog => format!(
            "Moving window: a hit is refused while {amount} admitted hits are younger than {} s; refused hits are not recorded.",
            item.expiry
        ),
        Shape::SlidingWindow if item.redis => format!(
            "Sliding-window counter in Redis on windows of {} s that start at the client's first hit (not on the \
             clock, unlike MemoryStorage's): the previous window weighs by its key's remaining TTL, floored.",
            item.expiry
        ),
        Shape::SlidingWindow => format!(
            "Sliding-window counter on windows of {} s aligned to the epoch: the previous window weighs by the share \
             of it still in view, and the estimate is floored, so up to {amount} + (the floor's remainder) get through.",
            item.expiry
        ),
        _ => format!(
            "Fixed window of {} s starting at the client's first hit, not on the clock: every hit counts, refused ones \
             too, so a client that keeps knocking stays refused until the window ends; up to {} in {} s across two windows.",
            item.expiry,
            2 * amount,
            item.expiry
        ),
    }];
    notes.push(match item.redis {
        true => "RedisStorage shares the counts across workers and hosts; Redis's clock and key expiries (whole \
                 seconds, in ms) time the windows, not the hosts' time.time()."
            .into(),
        false => {
            "MemoryStorage is per process: N workers (gunicorn -w N) admit N times; use storage_uri=\"redis://…\" \
                  (storage=redis here) to share counts."
                .into()
        }
    });
    if item.expiry * 1_000_000_000 != p.window_ns {
        notes.push(format!("Windows are whole seconds: {} s rounded to {} s.", secs(p.window_ns), item.expiry));
    }
    if p.shape == Shape::Bucket {
        notes.push(format!(
            "Your policy is a token bucket: limits has no bucket, so this window keeps its burst ({}) and long-run rate \
             ({}/s) but not its smooth refill.",
            p.burst,
            p.per_sec()
        ));
    }
    Config { target: "Python limits", language: "python", snippet, notes }
}
