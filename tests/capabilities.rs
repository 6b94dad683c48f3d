//! What a module can run is a value ([`Capabilities`]): every wasm module's set, run over the
//! golden scenarios, gives the same bytes as every part together or refuses the scenario with the
//! part it lacks — never a different run. The refusals are exactly the scenarios that need what
//! the set lacks, and the first modules, which hand those to the whole page, refuse the rest of
//! nothing.

// Only the scenarios are used here; their fingerprints are tests/determinism.rs's.
#[allow(dead_code)]
#[path = "golden/scenarios.rs"]
mod scenarios;

use ratelimit_playground::present::modules;
use ratelimit_playground::present::runner::Runner;
use ratelimit_playground::sim::engine::capabilities::{needs, Part};
use ratelimit_playground::sim::server::{RetryGate, ServerConfig, Spike};
use ratelimit_playground::sim::{report, Capabilities, Lacking, Scenario, SimRng, Simulation};

fn golden() -> impl Iterator<Item = (&'static str, Scenario)> {
    scenarios::GOLDEN.iter().map(|q| (*q, Scenario::from_query(q).expect("golden query parses")))
}

#[test]
fn every_module_runs_a_golden_scenario_as_the_full_engine_does_or_refuses_it() {
    let (mut ran, mut refused) = (0, 0);
    for (name, caps) in modules::ALL {
        for (q, sc) in golden() {
            let full = report::run(&sc).expect("runs").to_json();
            match report::run_in(&sc, caps) {
                Ok(r) => {
                    assert_eq!(r.expect("runs").to_json(), full, "{name} ran {q} differently");
                    ran += 1;
                }
                Err(Lacking(part)) => {
                    assert!(needs(&sc, part) && !caps.has(part), "{name} refused {q} for {part:?}, which it has");
                    refused += 1;
                }
            }
        }
    }
    assert!(ran > 0 && refused > 0, "ran {ran}, refused {refused}");
}

#[test]
fn a_set_refuses_exactly_the_scenarios_that_need_what_it_lacks() {
    let sets = [
        Capabilities::ONE_LIMITER,
        Capabilities::ONE_LIMITER.with_models(),
        Capabilities::ONE_LIMITER.with_shared_store(),
        Capabilities::ONE_LIMITER.with_server(),
        Capabilities::ALL,
    ];
    for caps in sets {
        for (q, sc) in golden() {
            let lacking = Part::ALL.into_iter().find(|&p| needs(&sc, p) && !caps.has(p));
            assert_eq!(caps.check(&sc).err(), lacking.map(Lacking), "{caps:?} on {q}");
            assert_eq!(Simulation::try_new(&sc, caps, 10).err(), lacking.map(Lacking), "{caps:?} on {q}");
        }
    }
}

#[test]
fn the_first_modules_run_one_textbook_limiter_and_nothing_more() {
    for caps in [modules::PAGE, modules::FRAME] {
        for part in Part::ALL {
            assert!(!caps.has(part), "a first module has {part:?}");
        }
        for q in ["", "algo=gcra&rate=30", "algo=fixed_window&traffic=seam", "nodes=4&store=local&lb=random"] {
            assert_eq!(caps.check(&Scenario::from_query(q).unwrap()), Ok(()), "{q}");
        }
    }
    assert!(Part::ALL.into_iter().all(|p| modules::WHOLE.has(p)));
}

#[test]
fn a_runner_without_the_part_runs_nothing_and_says_which_part() {
    let sc = Scenario::from_query("nodes=4&store=race&rate=100").unwrap();
    let mut runner = Runner::with(&sc, false, modules::PAGE);
    assert_eq!(runner.lacking(), Some(Lacking(Part::SharedStore)));
    runner.jump(ratelimit_playground::sim::Nanos::from_secs(10));
    assert!(runner.sims().is_empty());
    assert_eq!(Runner::with(&sc, false, modules::WHOLE).lacking(), None);
}

#[test]
fn the_server_is_wanted_exactly_when_the_engine_would_make_one() {
    let queries = [
        "",
        "workers=2",
        "retry_budget=0.1",
        "retry_breaker=5",
        "spike=3-4",
        "spike=3-4&spike_rate=50",
        "client_timeout=300",
        "service=20",
    ];
    for q in queries {
        let o = Scenario::from_query(q).unwrap().product;
        let made =
            ServerConfig::of(&o).is_some() || RetryGate::of(&o).is_some() || Spike::of(&o, SimRng::new(1)).is_some();
        assert_eq!(ratelimit_playground::sim::server::wanted(&o), made, "{q}");
    }
}
