//! The `governor` crate (0.10, with its `FakeRelativeClock`) against `algo=governor`: every
//! decision alike, and the wait of every refusal to the nanosecond.

use super::model;
use governor::clock::{Clock, FakeRelativeClock};
use governor::middleware::NoOpMiddleware;
use governor::nanos::Nanos as GNanos;
use governor::state::{InMemoryState, NotKeyed};
use governor::{Quota, RateLimiter};
use ratelimit_playground::production::Policy;
use ratelimit_playground::sim::products::governor::GovernorQuota;
use ratelimit_playground::sim::{Limiter, Scenario, SimTime};
use std::num::NonZeroU32;
use std::time::Duration;

type Direct = RateLimiter<NotKeyed, InMemoryState, FakeRelativeClock, NoOpMiddleware<GNanos>>;

#[test]
fn governor_decides_as_the_model_with_its_fake_clock() {
    let _alone = super::exclusive();
    let mut total = 0;
    for policy in ["capacity=10&refill=5", "capacity=1&refill=3", "capacity=25&refill=7.777", "capacity=3&refill=0.3"] {
        for traffic in [
            "traffic=poisson&rate=40&duration=120&seed=5",
            "traffic=bursts&rate=300&burst_on=0.3&burst_off=1&duration=60",
            "traffic=constant&rate=6&duration=60",
        ] {
            let query = format!("algo=governor&{policy}&{traffic}");
            let sc = Scenario::from_query(&query).unwrap();
            let q = GovernorQuota::of(&Policy::of(&sc));
            let quota = Quota::with_period(Duration::from_nanos(q.period_ns))
                .unwrap()
                .allow_burst(NonZeroU32::new(q.burst as u32).unwrap());
            let clock = FakeRelativeClock::default();
            let real: Direct = RateLimiter::direct_with_clock(quota, clock.clone());
            let mut ours = sc.limiter();
            let mut now = 0u64;
            let decided = model::decisions(&query);
            for d in &decided {
                let t = d.at.as_nanos();
                clock.advance(Duration::from_nanos(t - now));
                now = t;
                let theirs = real.check();
                let wait = ours.status(SimTime(t)).wait;
                assert_eq!(theirs.is_ok(), d.allowed, "{query}: request at {t} ns");
                if let Err(not_until) = theirs {
                    assert_eq!(
                        not_until.wait_time_from(clock.now()),
                        Duration::from_nanos(wait.as_nanos()),
                        "{query} at {t}"
                    );
                }
                // The engine's limiter, stepped alongside, keeps the same state.
                assert_eq!(ours.acquire(SimTime(t)), d.allowed);
            }
            total += decided.len();
        }
    }
    println!("governor 0.10: {total} decisions, 100 % alike");
}

#[test]
fn the_exported_governor_snippet_compiles_as_printed() {
    // A build takes both cores: not beside nginx's real-time replay.
    let _alone = super::exclusive();
    // A crate of its own, offline against the governor this project tests with, whose main() is
    // the snippet as the panel prints it (`use` lines are allowed inside a function).
    let sc = Scenario::from_query("algo=governor&capacity=10&refill=3").unwrap();
    let snippet = ratelimit_playground::sim::products::config("governor", &Policy::of(&sc), &sc.product)
        .expect("the governor tab")
        .snippet;
    let dir = std::env::temp_dir().join(format!("rlp-governor-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"snippet\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[dependencies]\ngovernor = \"=0.10.4\"\n",
    )
    .unwrap();
    let body: String = snippet.lines().map(|l| format!("    {l}\n")).collect();
    std::fs::write(dir.join("src/main.rs"), format!("#![allow(unused)]\nfn main() {{\n{body}}}\n")).unwrap();
    // Built in this project's target folder, so the dependencies are built once.
    let target = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/snippet-check");
    let out = std::process::Command::new(env!("CARGO"))
        .args(["build", "--offline", "--quiet"])
        .env("CARGO_TARGET_DIR", target)
        .current_dir(&dir)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "the snippet does not compile:\n{snippet}\n{}", String::from_utf8_lossy(&out.stderr));
}
