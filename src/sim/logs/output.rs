//! What the CLI prints for a log: the shadow report (top-level integers `requests`, `admitted`,
//! `rejected`, `keys`, `keys_throttled`, then `per_key`) and the sizing assistant's table
//! (`objective`, `current`, `recommended`, `grid`), as JSON, or as CSV with one row per key or
//! per policy.

use super::keys::Keys;
use super::policy::PolicyKeys;
use super::scope::AgainstGlobal;
use super::shadow::ShadowReport;
use super::sizing::change::KeyPeaks;
use super::sizing::{Objective, Sizing, SizingRow};
use crate::sim::Scenario;

/// The shadow report of a log under `sc`: JSON, or CSV of `per_key` if `csv`; with a scope
/// (`against`: the global counter's numbers), the counts are the scope's and `scope` says what
/// it changes.
pub fn shadow(report: &ShadowReport, sc: &Scenario, csv: bool, against: Option<&AgainstGlobal>) -> String {
    let ranked = report.ranked();
    let row = |i: u32| (report.read.keys.name(i), &report.per_key[i as usize]);
    // When key `i` saw its first 429, ms since the epoch.
    let first_ms = |i: u32| {
        report
            .first_rejected
            .get(i as usize)
            .copied()
            .flatten()
            .map(|t| report.read.origin_ms + (t.as_nanos() / 1_000_000) as i64)
    };
    if csv {
        let mut out = String::from("key,requests,admitted,rejected,peak_1s,peak_window,first_rejected_ms\n");
        for (i, (key, k)) in ranked.iter().map(|&i| (i, row(i))) {
            let key = if key.contains([',', '"', '\n']) {
                format!("\"{}\"", key.replace('"', "\"\""))
            } else {
                key.to_string()
            };
            let first = first_ms(i).map_or(String::new(), |ms| ms.to_string());
            out.push_str(&format!(
                "{key},{},{},{},{},{},{first}\n",
                k.requests, k.admitted, k.rejected, k.peak_1s, k.peak_window
            ));
        }
        return out;
    }
    let per_key: Vec<serde_json::Value> = ranked
        .iter()
        .map(|&i| {
            let (key, k) = row(i);
            serde_json::json!({ "key": key, "requests": k.requests, "admitted": k.admitted, "rejected": k.rejected, "peak_1s": k.peak_1s, "peak_window": k.peak_window, "first_rejected_ms": first_ms(i) })
        })
        .collect();
    let r = &report.read;
    let json = serde_json::json!({
        "scenario": sc.to_query_full(),
        "log": { "format": r.format.name(), "lines": r.lines, "reordered": r.reordered, "skipped": r.skipped.0, "first_skipped_line": r.skipped.1 },
        "requests": report.requests,
        "admitted": report.admitted,
        "rejected": report.rejected,
        "keys": r.keys.len(),
        "keys_throttled": report.keys_throttled(),
        "rejections_over_time": {
            "from_ms": r.origin_ms + (report.first.as_nanos() / 1_000_000) as i64,
            "bucket_s": report.bucket.as_nanos() / 1_000_000_000,
            "counts": report.rejections,
        },
        "per_key": per_key,
    });
    let mut json = json;
    if let Some(g) = against {
        let names = |list: &[u32]| list.iter().map(|&k| r.keys.name(k)).collect::<Vec<_>>();
        json["scope"] = serde_json::json!({
            "counter": g.words,
            "counters": g.counters,
            "global": { "admitted": g.admitted, "rejected": g.rejected, "keys_throttled": g.keys_throttled },
            "admitted_change": report.admitted as i64 - g.admitted as i64,
            "newly_spared": names(&g.newly_spared),
            "newly_throttled": names(&g.newly_throttled),
        });
    }
    serde_json::to_string_pretty(&json).expect("JSON") + "\n"
}

/// A role column's value: whether a row is the current policy, the recommended one, or both.
fn role(sizing: &Sizing, i: usize) -> &'static str {
    match (i == sizing.current, sizing.recommended == Some(i)) {
        (true, true) => "current recommended",
        (true, false) => "current",
        (false, true) => "recommended",
        (false, false) => "",
    }
}

/// Keys with their peaks as JSON, named by `keys` (`rejected`: with what the policy refused).
fn key_peaks(list: &[KeyPeaks], keys: &Keys, rejected: bool) -> serde_json::Value {
    let one = |p: &KeyPeaks| {
        let mut k = serde_json::json!({ "key": keys.name(p.key), "peak_1s": p.peak_1s, "peak_window": p.peak_window });
        if rejected {
            k["rejected"] = serde_json::json!(p.rejected);
        }
        k
    };
    serde_json::Value::Array(list.iter().map(one).collect())
}

/// The sizing assistant's table around `sc`: JSON, or CSV of the grid if `csv`. The current
/// policy is rated first (`current`: the keys it throttles and spares, with their peaks), and
/// the recommendation says what it changes against it and which rule picked it. With a server
/// behind the limiter each policy says what the server did with what it admits, and with a
/// latency objective ([`Sizing::latency_objective`]) the JSON names the largest policy that
/// keeps it.
pub fn sizing(sizing: &Sizing, keys: &Keys, sc: &Scenario, csv: bool) -> String {
    let percent = |n: f64, of: f64| if of > 0.0 { (n * 1e4 / of).round() / 100.0 } else { 0.0 };
    let served = sizing.rows.iter().any(|r| r.server.is_some());
    if csv {
        let mut out = String::from(
            "policy,rate_per_s,burst,per_minute,keys_throttled,keys_throttled_percent,rejected,rejected_percent,role,keys_newly_spared,keys_newly_throttled,burst_multiple,rate_multiple",
        );
        out += if served { ",server_p99_ms,server_shed,server_utilization\n" } else { "\n" };
        for (i, r) in sizing.rows.iter().enumerate() {
            let change = sizing.change(r);
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{},{},{},{}",
                r.policy,
                r.rate,
                r.burst,
                r.per_minute,
                r.keys_throttled,
                percent(r.keys_throttled as f64, sizing.keys as f64),
                r.rejected,
                percent(r.rejected as f64, sizing.requests as f64),
                role(sizing, i),
                change.newly_spared.len(),
                change.newly_throttled.len(),
                change.burst_multiple,
                change.rate_multiple,
            ));
            if let Some(s) = r.server {
                out.push_str(&format!(",{},{},{}", s.p99_ms, s.shed, s.utilization));
            }
            out.push('\n');
        }
        return out;
    }
    let row = |r: &SizingRow| {
        let mut json = serde_json::json!({
            "policy": r.policy.to_string(), "rate_per_s": r.rate, "burst": r.burst, "per_minute": r.per_minute,
            "keys_throttled": r.keys_throttled, "keys_throttled_percent": percent(r.keys_throttled as f64, sizing.keys as f64),
            "rejected": r.rejected, "rejected_percent": percent(r.rejected as f64, sizing.requests as f64),
            "heaviest": r.heaviest.iter().map(|&(k, n, a)| serde_json::json!({ "key": keys.name(k), "requests": n, "admitted": a })).collect::<Vec<_>>(),
        });
        if let Some(s) = r.server {
            json["server"] = serde_json::json!({ "served": s.served, "shed": s.shed, "p99_ms": s.p99_ms, "utilization": s.utilization });
        }
        json
    };
    let with_config = |i: usize| {
        let mut r = row(&sizing.rows[i]);
        if let Some(c) = product_config(sc, sizing.rows[i].policy) {
            r["config"] = serde_json::json!({ "target": c.target, "language": c.language, "snippet": c.snippet, "notes": c.notes });
        }
        r
    };
    let now = sizing.current_row();
    let mut current = with_config(sizing.current);
    current["throttled"] = key_peaks(&sizing.throttled_by(now), keys, true);
    current["spared"] = key_peaks(&sizing.spared_by(now), keys, false);
    let recommended = sizing.recommended.map(|i| {
        let throttled: Vec<&str> = sizing.still_throttled().iter().map(|&k| keys.name(k)).collect();
        let change = sizing.change(&sizing.rows[i]);
        // Sizing for a product: the recommendation as that product's configuration.
        let mut r = with_config(i);
        r["still_throttled"] = serde_json::json!(throttled);
        r["keeps_current"] = serde_json::json!(i == sizing.current);
        r["newly_spared"] = key_peaks(&change.newly_spared, keys, true);
        r["newly_throttled"] = key_peaks(&change.newly_throttled, keys, true);
        r["burst_multiple"] = serde_json::json!(change.burst_multiple);
        r["rate_multiple"] = serde_json::json!(change.rate_multiple);
        r["objective"] = serde_json::json!(sizing.objective_words());
        r
    });
    let split = &sizing.split;
    let objective = match sizing.objective {
        Objective::Outliers => serde_json::json!({
            "rule": "outliers", "words": split.rule_words(), "fence_peak_1s": split.fence,
            "quartiles_peak_1s": [split.quartiles.0, split.quartiles.1],
            "outliers": split.outliers.iter().map(|&k| keys.name(k)).collect::<Vec<_>>(),
        }),
        Objective::Target(share) => serde_json::json!({ "rule": "target", "target_keys_percent": share * 100.0 }),
    };
    let mut json = serde_json::json!({
        "scenario": sc.to_query_full(),
        "keys": sizing.keys,
        "requests": sizing.requests,
        "objective": objective,
        "current": current,
        "recommended": recommended,
        "grid": sizing.rows.iter().map(row).collect::<Vec<_>>(),
    });
    if let Objective::Target(share) = sizing.objective {
        json["target_keys_percent"] = serde_json::json!(share * 100.0);
    }
    if let Some(objective) = sizing.latency_objective.filter(|_| served) {
        json["latency_objective_ms"] = serde_json::json!(objective.as_nanos() as f64 / 1e6);
        json["largest_within_latency"] = serde_json::json!(sizing.largest_within(objective).map(with_config));
    }
    serde_json::to_string_pretty(&json).expect("JSON") + "\n"
}

/// The configuration `sc`'s product (if it runs one) exports for `policy`: what the sizing
/// assistant recommends, in that product's own terms ("100/minute" for Python's limits).
pub fn product_config(sc: &Scenario, policy: PolicyKeys) -> Option<crate::sim::products::Config> {
    let export = crate::sim::products::export_name(sc.algo)?;
    let mut sized = sc.clone();
    policy.apply(&mut sized);
    crate::sim::products::config(
        export,
        &crate::sim::products::Policy::exported(&sized),
        &crate::sim::product_runs::export_options(&sized),
    )
}
