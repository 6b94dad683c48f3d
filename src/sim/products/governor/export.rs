//! The `governor` crate: GCRA, which decides as the playground's token bucket but for the
//! period's rounding. The numbers come from [`GovernorQuota`], which `algo=governor` runs.

use super::model::GovernorQuota;
use crate::sim::products::policy::{Policy, Shape};
use crate::sim::products::product::Config;

pub(super) fn config(p: &Policy) -> Config {
    let q = GovernorQuota::of(p);
    let (period, exact) = (q.period_ns, q.exact);
    let snippet = format!(
        "use governor::clock::{{Clock, DefaultClock}};\n\
         use governor::{{Quota, RateLimiter}};\n\
         use std::num::NonZeroU32;\n\
         use std::time::Duration;\n\n\
         // {rate}/s sustained (one cell every {period} ns), bursts of {burst}.\n\
         let quota = Quota::with_period(Duration::from_nanos({period}))\n\
        \x20   .expect(\"the period is not zero\")\n\
        \x20   .allow_burst(NonZeroU32::new({burst}).expect(\"the burst is not zero\"));\n\
         let limiter = RateLimiter::direct(quota); // RateLimiter::keyed(quota) for one limit per key\n\n\
         match limiter.check() {{\n\
        \x20   Ok(()) => {{ /* serve */ }}\n\
        \x20   Err(not_until) => {{\n\
        \x20       // 429, with Retry-After: the wait in whole seconds, rounded up.\n\
        \x20       let wait = not_until.wait_time_from(DefaultClock::default().now());\n\
        \x20       let retry_after = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);\n\
        \x20   }}\n\
         }}\n",
        rate = p.per_sec(),
        burst = p.burst,
    );
    let b = p.burst;
    let mut notes = vec![
        format!(
            "governor implements GCRA: with allow_burst({b}) and one cell per {period} ns it decides {}; \
             algo=governor runs governor's arithmetic.",
            if exact {
                format!("exactly as this token bucket (capacity {b}, starting full)")
            } else {
                format!(
                    "as a token bucket of capacity {b} refilled once per {period} ns, not exactly the policy's rate"
                )
            },
        ),
        "Quota::per_second and per_minute take whole numbers only; with_period expresses any rate.".into(),
        "The limiter lives in one process: N processes admit N times the rate.".into(),
    ];
    if !exact {
        notes.push(format!("{period} ns is 1 / {}/s rounded to the nanosecond.", p.per_sec()));
    }
    if p.shape != Shape::Bucket {
        notes.push(format!(
            "governor has no window limiter: this is the bucket with the window's burst ({}) and long-run \
             rate ({} per {} s).",
            p.limit,
            p.limit,
            crate::sim::products::policy::secs(p.window_ns)
        ));
    }
    Config { target: "governor (Rust)", language: "rust", snippet, notes }
}
