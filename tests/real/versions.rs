//! "Checked against": every product whose model `make test` runs against the real software names
//! that software and its version ([`checked_against`]), which the page shows on its row of "Same
//! policy, every product". This reads the version actually installed by the bootstrap (Debian's
//! packages, the pinned npm and PyPI packages, the crates in Cargo.lock, redis-cell's build) and
//! fails when the two part, so the label cannot go stale. A product that does not run here
//! names nothing.

use std::process::Command;

use super::model;
use ratelimit_playground::sim::products::{checked_against, run_here, ALGO_NAMES};

/// Text a command prints on stdout and stderr.
fn printed(program: &str, args: &[&str]) -> String {
    let out = Command::new(program).args(args).output().unwrap_or_else(|e| panic!("{program}: {e}"));
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// A Debian package's installed version.
fn debian(package: &str) -> String {
    printed("dpkg-query", &["-W", "-f=${Version}", package])
}

/// The `version` of an npm package installed in the tool cache's `folder`.
fn npm(folder: &str, package: &str) -> String {
    let path = model::cache(folder).join("node_modules").join(package).join("package.json");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
            .unwrap();
    json["version"].as_str().unwrap().to_string()
}

/// Whether a PyPI package's metadata at `version` is installed in the tool cache.
fn pypi(dist: &str, version: &str) -> bool {
    model::cache("python-real").join(format!("{dist}-{version}.dist-info")).is_dir()
}

/// The version of a crate in Cargo.lock.
fn locked(name: &str) -> String {
    let lock = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.lock")).unwrap();
    let entry = format!("name = \"{name}\"\nversion = \"");
    let at = lock.find(&entry).unwrap_or_else(|| panic!("{name} in Cargo.lock"));
    let rest = &lock[at + entry.len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

#[test]
fn every_checked_label_names_the_version_the_tests_run() {
    let mut checked = 0;
    for &(key, algo) in ALGO_NAMES.iter().filter(|(_, algo)| algo.is_product()) {
        let Some(label) = checked_against(algo) else {
            assert!(!run_here(algo), "{key}");
            continue;
        };
        let version = label.rsplit(' ').next().unwrap();
        let installed_matches = match key {
            "nginx" => printed("/usr/sbin/nginx", &["-v"]).contains(&format!("nginx/{version}")),
            "haproxy" => printed("/usr/sbin/haproxy", &["-v"]).contains(&format!("version {version}")),
            "redis_lua" => printed("redis-server", &["--version"]).contains(&format!("v={version} ")),
            "express" => npm("node-real", "express-rate-limit") == version,
            "upstash_fixed" | "upstash_sliding" | "upstash_token" => npm("node-real", "@upstash/ratelimit") == version,
            "rlflex" => npm("node-real", "rate-limiter-flexible") == version,
            "nestjs" => npm("node-nest", "@nestjs/throttler") == version,
            "python_limits" => pypi("limits", version),
            "django_ratelimit" => pypi("django_ratelimit", version),
            "rack_attack" => debian("ruby-rack-attack").starts_with(&format!("{version}-")),
            "laravel" => debian("php-illuminate-cache").starts_with(&format!("{version}+")),
            "go_rate" => debian("golang-golang-x-time-dev").starts_with(&format!("{version}-")),
            "governor" => locked("governor") == version,
            "redis_cell" => model::cache(&format!("redis-cell-{version}")).is_dir(),
            other => panic!("{other} says it is checked against {label}: say here how to read that version"),
        };
        assert!(installed_matches, "{key}: labelled \"checked against {label}\", which is not what is installed");
        checked += 1;
    }
    assert!(checked >= 14, "{checked} products checked");
    println!("{checked} products: each label is the version the tests run");
}
