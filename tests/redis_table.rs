//! The README's "Measured on a real Redis" table and the figures the multi-node view quotes come
//! from one `make redis-table` run: they must agree row for row.
#![cfg(not(target_arch = "wasm32"))]

use ratelimit_playground::present::cluster::redis_measured::{ROWS, VERSION};

#[test]
fn the_readme_table_and_the_app_quote_the_same_measurements() {
    let readme = include_str!("../README.md");
    let table =
        readme.split("<!-- redis-table:begin -->").nth(1).and_then(|r| r.split("<!-- redis-table:end -->").next());
    let table = table.expect("README has the redis-table markers");
    assert!(table.contains(&format!("Redis {VERSION}")));
    let rows: Vec<Vec<&str>> = table
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains(" ms |"))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    assert_eq!(rows.len() * 3, ROWS.len(), "one README row per node count and round trip, three modes each");
    let count = |cell: &str| cell.split_whitespace().next().unwrap().parse::<i64>().unwrap();
    for r in ROWS {
        let row = rows
            .iter()
            .find(|c| c[0] == r.nodes.to_string() && c[1] == format!("{} ms", r.rtt_ms))
            .unwrap_or_else(|| panic!("no README row for {r:?}"));
        let column = match r.mode {
            "race" => 2,
            "async" => 4,
            "atomic" => 6,
            other => panic!("unknown mode {other}"),
        };
        assert_eq!((count(row[column]), count(row[column + 1])), (r.measured, r.simulated), "{r:?}");
    }
}

#[test]
fn the_readme_failures_table_and_the_app_quote_the_same_measurements() {
    use ratelimit_playground::present::cluster::redis_measured::{Failure, FAILURES};
    let readme = include_str!("../README.md");
    let table = readme
        .split("<!-- redis-failures:begin -->")
        .nth(1)
        .and_then(|r| r.split("<!-- redis-failures:end -->").next())
        .expect("README has the redis-failures markers");
    let rows: Vec<Vec<&str>> = table
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains(" ms |"))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    let (lags, others): (Vec<&Failure>, Vec<&Failure>) =
        FAILURES.iter().partition(|f| matches!(f.kind, "failover" | "replica_read"));
    assert_eq!(rows.len() * 3, lags.len(), "one README row per lag, three failures each");
    // The clocks' and the cluster's row: `+m (+s)`, and a cluster's operations per primary.
    let row = table.lines().rfind(|l| l.starts_with("| ") && !l.contains("---")).unwrap();
    let cells: Vec<&str> = row.trim_matches('|').split('|').map(str::trim).collect();
    assert_eq!(cells.len(), others.len(), "{row}");
    for (cell, f) in cells.iter().zip(&others) {
        let over = format!("{:+} ({:+})", f.over.0, f.over.1);
        let ops: Vec<String> = f.ops.iter().map(u64::to_string).collect();
        let expected = if f.kind == "cluster" { format!("{}; {over}", ops.join(" / ")) } else { over };
        assert_eq!(*cell, expected, "{f:?}");
    }
    for f in lags {
        let row = rows.iter().find(|c| c[0] == format!("{} ms", f.lag_ms)).unwrap_or_else(|| panic!("{f:?}"));
        let column = match (f.kind, f.mode) {
            ("failover", "atomic") => 1,
            ("failover", "async") => 2,
            ("replica_read", _) => 3,
            other => panic!("unknown failure {other:?}"),
        };
        let cell = format!("{} / {:+} ({} / {:+})", f.cost.0, f.over.0, f.cost.1, f.over.1);
        assert_eq!(row[column], cell, "{f:?}");
    }
}
