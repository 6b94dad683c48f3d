//! Same scenario + seed ⇒ same bytes out. The fingerprints in `tests/golden/fingerprints.txt`
//! are checked here natively and by `tests/wasm_determinism.rs` in the browser, so a platform
//! difference (a float function, an iteration order) cannot hide.

#[path = "golden/scenarios.rs"]
mod scenarios;

#[test]
fn every_golden_scenario_matches_its_committed_fingerprint() {
    let expected = include_str!("golden/fingerprints.txt");
    let actual = scenarios::fingerprints();
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/fingerprints.txt"), &actual).unwrap();
        return;
    }
    assert_eq!(actual, expected, "run with BLESS=1 only if the change in output is intended");
}

#[test]
fn two_runs_of_one_scenario_are_byte_identical() {
    let a = scenarios::fingerprints();
    let b = scenarios::fingerprints();
    assert_eq!(a, b);
}
