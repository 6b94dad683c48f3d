//! rate-limiter-flexible: an Express middleware and a demonstration that run as printed (with
//! `node`), its `Retry-After` as the library's README writes it. The numbers come from
//! [`RlflexOptions`], which `algo=rlflex` runs.

use super::model::RlflexOptions;
use crate::sim::products::options::ProductOptions;
use crate::sim::products::policy::{secs, Policy, Shape};
use crate::sim::products::product::Config;

pub(super) fn config(p: &Policy, o: &ProductOptions) -> Config {
    let opts = RlflexOptions::of(p, o);
    let RlflexOptions { points, duration_ms, block_ms, exec_evenly, redis } = opts;
    let duration = secs(duration_ms * 1_000_000);
    let mut options = format!("points: {points}, duration: {duration}");
    if block_ms > 0 {
        options += &format!(", blockDuration: {}", secs(block_ms * 1_000_000));
    }
    if exec_evenly {
        options += ", execEvenly: true";
    }
    let over = points + 1;
    // Where the counts live: with Redis the program reads REDIS_URL, so it runs as printed against
    // any Redis, and its demonstration starts from no count and closes its connection.
    let (packages, store, start, end) = match redis {
        true => (
            "rate-limiter-flexible ioredis",
            format!(
                "const Redis = require(\"ioredis\");\n\
                 const {{ RateLimiterRedis }} = require(\"rate-limiter-flexible\");\n\n\
                 const redis = new Redis(process.env.REDIS_URL || \"redis://localhost:6379\");\n\
                 const limiter = new RateLimiterRedis({{ storeClient: redis, {options} }});\n\n"
            ),
            "limiter.delete(\"127.0.0.1\").then(() => Promise.allSettled(tries()))",
            "\n\x20   redis.disconnect();",
        ),
        false => (
            "rate-limiter-flexible",
            format!(
                "const {{ RateLimiterMemory }} = require(\"rate-limiter-flexible\");\n\n\
                 // RateLimiterRedis({{ storeClient, ... }}) with the same options shares the count across processes.\n\
                 const limiter = new RateLimiterMemory({{ {options} }});\n\n"
            ),
            "Promise.allSettled(tries())",
            "",
        ),
    };
    let snippet = format!(
        "// rate-limiter-flexible: {points} requests per {duration} s per client IP (npm i {packages}).\n\
         {store}\
         // Express: app.use(rateLimit)\n\
         async function rateLimit(req, res, next) {{\n\
        \x20 try {{\n\
        \x20   await limiter.consume(req.ip);\n\
        \x20   next();\n\
        \x20 }} catch (rejRes) {{\n\
        \x20   res.set(\"Retry-After\", String(Math.round(rejRes.msBeforeNext / 1000) || 1));\n\
        \x20   res.status(429).send(\"Too Many Requests\");\n\
        \x20 }}\n\
         }}\n\n\
         module.exports = {{ limiter, rateLimit }};\n\n\
         if (require.main === module) {{\n\
        \x20 const tries = () => Array.from({{ length: {over} }}, () => limiter.consume(\"127.0.0.1\"));\n\
        \x20 {start}.then((results) => {{\n\
        \x20   const served = results.filter((r) => r.status === \"fulfilled\").length;\n\
        \x20   const refused = results.find((r) => r.status === \"rejected\");\n\
        \x20   const retry = refused ? Math.round(refused.reason.msBeforeNext / 1000) || 1 : 0;\n\
        \x20   console.log(`${{served}} of {over} served at once; retry after ${{retry}} s`);{end}\n\
        \x20 }});\n\
         }}\n"
    );
    let mut notes = vec![format!(
        "A window of {duration} s per client starting at its first request, not on the clock: every request counts, \
         refused ones too, so a client that keeps retrying stays refused until its window ends."
    )];
    if block_ms > 0 {
        notes.push(format!(
            "blockDuration {} s: the first refused request blocks the client that long from then, replacing the rest of \
             its window (a block shorter than that ends it early).",
            secs(block_ms * 1_000_000)
        ));
    }
    if exec_evenly {
        notes.push(
            "execEvenly holds each admitted request (not a window's first) for ceil(msBeforeNext / (remainingPoints + 2)) \
             ms: requests are delayed, not refused, so latency grows."
                .into(),
        );
    }
    notes.push(match redis {
        true if duration_ms < 1000 => format!(
            "RateLimiterRedis gives its key no expiry when duration is under 1 s (it floors {duration} s to 0): \
             the count never resets, so after {points} requests the client is refused for good. Use a whole second or more."
        ),
        true => format!(
            "RateLimiterRedis counts in Redis, on Redis's clock: the window is floor(duration) = {} s (one ms more, \
             as a key lives through its expiry millisecond), and msBeforeNext is the key's PTTL.",
            duration_ms / 1000
        ),
        false => "RateLimiterMemory is per process: N cluster workers admit N times; RateLimiterRedis counts in Redis \
                  (its windows in whole seconds)."
            .into(),
    });
    if duration_ms * 1_000_000 != p.window_ns {
        notes.push(format!("Durations are whole ms here: {} s rounded to {duration} s.", secs(p.window_ns)));
    }
    if p.shape == Shape::Bucket {
        notes.push(format!(
            "Your policy is a token bucket: RateLimiterMemory counts windows, so this keeps its burst ({}) and long-run \
             rate ({}/s) but not its smooth refill.",
            p.burst,
            p.per_sec()
        ));
    }
    Config { target: "rate-limiter-flexible", language: "js", snippet, notes }
}
