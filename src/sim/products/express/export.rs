//! express-rate-limit: a fixed window counter per client. The numbers come from
//! [`ExpressOptions`], which `algo=express` runs.

use super::model::ExpressOptions;
use crate::sim::products::policy::{secs, Policy, Shape};
use crate::sim::products::product::Config;

pub(super) fn config(p: &Policy) -> Config {
    let window_ms = ExpressOptions::of(p).window_ms;
    let snippet = format!(
        "import {{ rateLimit }} from 'express-rate-limit'\n\n\
         app.use(rateLimit({{\n\
        \x20 windowMs: {window_ms}, // {secs} s\n\
        \x20 limit: {limit}, // requests per window, per client address\n\
        \x20 standardHeaders: 'draft-8', // RateLimit and RateLimit-Policy\n\
        \x20 legacyHeaders: false,\n\
         }}))\n",
        secs = secs(window_ms * 1_000_000),
        limit = p.limit,
    );
    let mut notes = vec![
        format!(
            "A fixed window of {} s aligned to when the client's first request of the window arrived: up to \
             {} requests in any {} s across a window boundary (2 × limit).",
            secs(window_ms * 1_000_000),
            2 * p.limit,
            secs(window_ms * 1_000_000)
        ),
        "Every request increments the count, rejected ones too; the count resets when the window ends.".into(),
        "The default MemoryStore is per process: N processes admit N times; use a shared store \
         (e.g. rate-limit-redis) across processes."
            .into(),
    ];
    if window_ms * 1_000_000 != p.window_ns {
        notes.push(format!("windowMs is whole milliseconds: {} s rounded.", secs(p.window_ns)));
    }
    match p.shape {
        Shape::FixedWindow => {}
        Shape::Bucket => notes.push(format!(
            "Your policy is a token bucket: this window keeps its burst ({}) and long-run rate ({}/s) but \
             not its smooth refill.",
            p.burst,
            p.per_sec()
        )),
        _ => notes.push(
            "Your policy is a sliding window: express-rate-limit's stores count fixed windows, which let \
             up to twice the limit through at a boundary."
                .into(),
        ),
    }
    Config { target: "express-rate-limit", language: "js", snippet, notes }
}
