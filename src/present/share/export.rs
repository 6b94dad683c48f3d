//! What the export buttons save, as text: the scenario as JSON (every key of the query format,
//! numbers as exact decimals, plus the short link query the CLI takes as `--query`) and the
//! series the page holds as CSV (the CLI's `--format csv` columns; one block per algorithm in
//! compare mode). Plain Rust, tested natively.

use crate::sim::query::raw_pairs;
use crate::sim::{Report, Scenario, Simulation};

use crate::present::options::{entry, View, VIEWS};
use crate::present::share::link::{share_query, LinkView};

/// Whether `v` is a plain decimal (`12`, `0.25`): written as a JSON number, digit for digit.
fn is_decimal(v: &str) -> bool {
    let (int, frac) = v.split_once('.').unwrap_or((v, "0"));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits(int) && digits(frac) && (int == "0" || !int.starts_with('0'))
}

/// `s` as a JSON string, quoted and escaped by serde_json.
///
/// ```
/// # use ratelimit_playground::present::share::export::json_string;
/// assert_eq!(json_string("a\"b\\c\n"), r#""a\"b\\c\n""#);
/// ```
pub fn json_string(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

/// The scenario as a JSON document:
/// `{"query": …, "view": …, "scenario": {key: value, …}, "effective_limit": …, "effective_window_s": …}`.
///
/// ```
/// use ratelimit_playground::present::share::export::scenario_json;
/// use ratelimit_playground::present::share::link::LinkView;
/// use ratelimit_playground::sim::Scenario;
/// let json = scenario_json(&Scenario::from_query("algo=gcra&refill=2.5").unwrap(), LinkView::Single);
/// let v: serde_json::Value = serde_json::from_str(&json).unwrap();
/// assert_eq!(v["query"], "algo=gcra&refill=2.5&rate=8");
/// assert_eq!(v["scenario"]["refill"], 2.5);
/// assert_eq!(v["scenario"]["outage"], "none");
/// ```
pub fn scenario_json(sc: &Scenario, view: LinkView) -> String {
    let full = sc.to_query_full();
    let fields: Vec<String> = raw_pairs(&full)
        .map(|(k, v)| {
            let value = if is_decimal(v) { v.to_string() } else { json_string(v) };
            format!("    \"{k}\": {value}")
        })
        .collect();
    let view = view.key();
    let query = json_string(&share_query(sc, LinkView::Single));
    format!(
        "{{\n  \"query\": {query},\n  \"view\": \"{view}\",\n  \"scenario\": {{\n{}\n  }},\n  \"effective_limit\": {},\n  \"effective_window_s\": {}\n}}\n",
        fields.join(",\n"),
        sc.effective_limit(),
        crate::sim::support::decimal::format_fixed(sc.effective_window().as_nanos(), 9),
    )
}

/// The series of `sims` as CSV: the CLI's columns for one simulation; for several, the same
/// columns after a first `algo` column, one block per simulation.
pub fn series_csv(sims: &[Simulation]) -> String {
    if let [sim] = sims {
        return Report::new(sim.scenario(), sim.metrics()).to_csv();
    }
    let mut out = String::new();
    for (i, sim) in sims.iter().enumerate() {
        let algo = entry(&VIEWS, View::Single(sim.scenario().algo)).map_or("?", |e| e.key);
        let csv = Report::new(sim.scenario(), sim.metrics()).to_csv();
        let mut lines = csv.lines();
        let header = lines.next().unwrap_or_default();
        if i == 0 {
            out.push_str(&format!("algo,{header}\n"));
        }
        for line in lines {
            out.push_str(&format!("{algo},{line}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::runner::Runner;
    use crate::sim::Nanos;

    #[test]
    fn the_json_holds_every_key_with_exact_numbers_and_the_cli_query() {
        let sc =
            Scenario::from_query("algo=sliding_log&window=0.001000001&seed=18446744073709551615&outage=1-2").unwrap();
        let json = scenario_json(&sc, LinkView::Compare);
        let v: serde_json::Value = serde_json::from_str(&json).expect("valid JSON");
        let keys: Vec<&String> = v["scenario"].as_object().unwrap().keys().collect();
        // Every key but `limit`, which is derived here (its value is `effective_limit`), and the
        // product knobs, which only a product model has.
        let knobs = crate::sim::products::PRODUCT_KEYS.len();
        assert_eq!(keys.len(), crate::sim::query::known_keys().split(", ").count() - 1 - knobs, "{keys:?}");
        let nginx = scenario_json(&Scenario::from_query("algo=nginx&nodelay=0&window=2").unwrap(), LinkView::Single);
        let v2: serde_json::Value = serde_json::from_str(&nginx).expect("valid JSON");
        assert!(v2["scenario"].as_object().unwrap().contains_key("nodelay"), "{nginx}");
        // A product's knobs, not the server's (none runs behind it).
        let server = crate::sim::server::KEYS.len();
        assert_eq!(
            v2["scenario"].as_object().unwrap().len(),
            crate::sim::query::known_keys().split(", ").count() - 1 - server,
            "{nginx}"
        );
        assert_eq!(v["effective_limit"], 10);
        assert!(json.contains("\"window\": 0.001000001"), "{json}");
        assert!(json.contains("\"seed\": 18446744073709551615"), "{json}");
        assert_eq!(v["scenario"]["outage"], "1-2");
        assert_eq!(v["view"], "compare");
        let query = v["query"].as_str().unwrap();
        assert_eq!(Scenario::from_query(query).unwrap(), sc, "the query runs the same scenario in the CLI");
    }

    #[test]
    fn decimals_are_recognised_strictly() {
        for ok in ["0", "12", "0.25", "100000"] {
            assert!(is_decimal(ok), "{ok}");
        }
        for not in ["", "01", "1.", ".5", "1-2", "none", "1e3", "token_bucket"] {
            assert!(!is_decimal(not), "{not}");
        }
    }

    #[test]
    fn the_csv_is_the_clis_series_and_compare_mode_adds_an_algo_column() {
        let sc = Scenario::from_query("rate=8").unwrap();
        let mut single = Runner::new(&sc, false);
        single.jump(Nanos::from_secs(5));
        let csv = series_csv(single.sims());
        assert!(csv.starts_with("t_s,requests,admitted,rejected,retries,level,node0_admitted\n"), "{csv}");
        assert_eq!(csv.lines().count(), 1 + 6, "a header and buckets 0–5 s: {csv}");
        let sum: u64 = csv.lines().skip(1).map(|l| l.split(',').nth(1).unwrap().parse::<u64>().unwrap()).sum();
        assert_eq!(sum, single.snapshot(0).columns[0].totals.requests);

        let mut compare = Runner::new(&sc, true);
        compare.jump(Nanos::from_secs(5));
        let csv = series_csv(compare.sims());
        assert!(csv.starts_with("algo,t_s,"), "{csv}");
        let algos: Vec<&str> = csv.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
        assert_eq!(algos.iter().filter(|a| **a == "gcra").count(), 6);
        assert_eq!(algos.len(), 5 * 6);
    }
}
