//! django-ratelimit 4.1.0 on Django 5.2 from PyPI (installed by `scripts/bootstrap.sh --test` at
//! pinned versions), its decorator driven under a fake `time.time()` by
//! `tests/real/python/django_replay.py`, against `algo=django_ratelimit`: every decision alike,
//! for the playground's one client and for clients whose windows the key's `crc32` shifts
//! differently. The exported view runs as printed.

use super::model::{self, python};
use ratelimit_playground::production::Policy;
use ratelimit_playground::sim::products::django::{crc32, Django, DjangoRate, DEFAULT_KEY};
use ratelimit_playground::sim::products::{config, ProductOptions};
use ratelimit_playground::sim::time::{SimTime, EPOCH_S};
use ratelimit_playground::sim::{Limiter, Scenario};
use serde_json::{json, Value};

/// Clients whose windows end at different seconds of an 11 s period (crc32 % 11: 8, 10, 3).
const CLIENTS: [&str; 3] = [DEFAULT_KEY, "10.0.0.7", "192.168.1.20"];

/// Checks one scenario: the engine's run (the default client), and the same arrivals dealt in
/// turn to three clients, decided by the library as by the model.
fn check(query: &str) -> usize {
    let sc = Scenario::from_query(query).unwrap();
    let rate = DjangoRate::of(&Policy::of(&sc));
    let decided = model::decisions(query);
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/real/python/django_replay.py");
    let mut n = 0;
    for clients in [&CLIENTS[..1], &CLIENTS[..]] {
        let requests: Vec<(u64, &str)> =
            decided.iter().enumerate().map(|(i, d)| (d.at.as_nanos(), clients[i % clients.len()])).collect();
        let input = json!({ "rate": rate.rate_string(), "requests": requests, "epoch_s": EPOCH_S });
        let out: Value = serde_json::from_slice(&python(&[script], input.to_string().as_bytes())).unwrap();
        let real: Vec<bool> =
            out["decisions"].as_array().unwrap().iter().map(|d| d["allowed"].as_bool().unwrap()).collect();
        for d in out["decisions"].as_array().unwrap().iter().filter(|d| d["allowed"] == false) {
            assert_eq!(
                (d["status"].as_u64(), d["retry_after"].as_str()),
                (Some(403), None),
                "{query}: a 403, no Retry-After"
            );
        }
        let ours: Vec<bool> = if clients.len() == 1 {
            decided.iter().map(|d| d.allowed).collect()
        } else {
            let mut limiters: Vec<Django> = clients.iter().map(|c| Django::new(rate, c)).collect();
            requests.iter().enumerate().map(|(i, &(t, _))| limiters[i % clients.len()].acquire(SimTime(t))).collect()
        };
        let what = format!("{query} ({} clients, rate {})", clients.len(), rate.rate_string());
        let at: Vec<u64> = requests.iter().map(|r| r.0).collect();
        model::assert_alike(&what, &at, &ours, &real, |&a| a);
        assert_eq!(out["versions"], json!({ "django-ratelimit": "4.1.0", "django": "5.2.19" }));
        n += ours.len();
    }
    n
}

#[test]
fn django_ratelimit_4_decides_as_the_model_for_every_client() {
    // The clients' windows are shifted apart (the point of the check).
    let shifts: Vec<u32> = CLIENTS.iter().map(|c| crc32(c.as_bytes()) % 11).collect();
    assert_eq!(shifts, [8, 10, 3]);
    // No server, but seconds of Python on the cores: not beside nginx's real-time replay.
    let _alone = super::exclusive();
    let n = model::every_shape(
        "django_ratelimit",
        &["limit=5&window=1", "limit=30&window=11", "limit=7&window=2.5"],
        check,
    );
    println!("django-ratelimit 4.1.0: {n} decisions, 100 % alike");
}

#[test]
fn the_exported_django_view_runs_as_printed() {
    for (query, printed) in [
        ("algo=django_ratelimit&limit=100&window=60", "100 of 101 served at once"),
        ("algo=django_ratelimit&limit=7&window=11", "7 of 8 served at once"),
        ("capacity=10&refill=5", "10 of 11 served at once"),
    ] {
        let sc = Scenario::from_query(query).unwrap();
        let program = config("django-ratelimit", &Policy::of(&sc), &ProductOptions::default()).unwrap().snippet;
        let out = String::from_utf8(python(&["-"], program.as_bytes())).unwrap();
        assert!(out.starts_with(printed), "{query}: {out}\n{program}");
    }
}
