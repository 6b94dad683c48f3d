//! The product models and the production panel's exports are one contract: `run_config` runs
//! exactly what each tab exports, and the side-by-side states the difference in numbers.

use ratelimit_playground::production::{export, EXPORT_NAMES};
use ratelimit_playground::sim::product_runs::{run_config, side_by_side};
use ratelimit_playground::sim::products::{self, PRODUCTS};
use ratelimit_playground::sim::{Algorithm, Scenario};

const POLICIES: [&str; 6] = [
    "capacity=10&refill=5",
    "capacity=5&refill=1.5",
    "capacity=3&refill=0.001",
    "algo=fixed_window&limit=20&window=3.7",
    "algo=sliding_window&limit=100&window=60",
    "algo=sliding_log&limit=7&window=1.5",
];

#[test]
fn run_this_config_runs_exactly_what_the_tab_exports() {
    for policy in POLICIES {
        let sc = Scenario::from_query(policy).unwrap();
        for tab in EXPORT_NAMES {
            let run = run_config(&sc, tab).unwrap();
            assert!(run.algo.is_product(), "{policy} {tab}");
            assert_eq!(export(&run, tab).unwrap().snippet, export(&sc, tab).unwrap().snippet, "{policy} → {tab}");
            // And it survives a share link.
            assert_eq!(Scenario::from_query(&run.to_query()).unwrap(), run, "{policy} → {tab}");
        }
    }
}

#[test]
fn every_product_parses_prints_and_runs() {
    for product in PRODUCTS {
        let sc = Scenario { algo: product, ..Scenario::default() };
        let q = sc.to_query_full();
        assert_eq!(Scenario::from_query(&q).unwrap(), sc, "{q}");
        let r = ratelimit_playground::sim::run(&sc).unwrap();
        assert!(r.admitted > 0 && r.admitted <= r.requests, "{q}");
    }
}

#[test]
fn the_side_by_side_names_nginx_s_per_minute_truncation() {
    // 0.017/s exports as 1r/m, which nginx keeps as 16 milli-requests/s: fewer in an hour.
    let sc = Scenario::from_query("algo=nginx&capacity=1&refill=0.017&rate=1&duration=3600").unwrap();
    let s = side_by_side(&sc).unwrap();
    assert_eq!(s.textbook, Algorithm::TokenBucket);
    assert!(s.product_admitted < s.textbook_admitted, "{s:?}");
    assert!(
        s.statement.contains("fewer") && s.statement.contains("truncates to 16 milli-requests/s"),
        "{}",
        s.statement
    );
}

#[test]
fn the_leaky_bucket_exports_as_nginx_without_nodelay_and_runs_what_it_exports() {
    let sc = Scenario::from_query("algo=leaky_bucket&capacity=10&refill=5&rate=8&duration=30").unwrap();
    let nginx = export(&sc, "nginx").unwrap();
    assert!(nginx.snippet.contains("limit_req zone=api burst=10;"), "{}", nginx.snippet);
    assert!(!nginx.notes.iter().any(|n| n.contains("cannot hold")), "{:?}", nginx.notes);
    // Run this config: nginx's model, holding as the queue holds, decision by decision.
    let run = run_config(&sc, "nginx").unwrap();
    assert_eq!(export(&run, "nginx").unwrap().snippet, nginx.snippet);
    let csv = |s: &Scenario| ratelimit_playground::sim::report::decisions_csv(s).unwrap();
    assert_eq!(csv(&run), csv(&sc));
    // A limiter that cannot hold a request admits what the queue admits (a bucket of 11) at once.
    for tab in ["envoy", "governor", "go", "haproxy", "express", "traefik"] {
        let config = export(&sc, tab).unwrap();
        let note = config.notes.iter().find(|n| n.contains("cannot hold")).unwrap_or_else(|| panic!("{tab}"));
        let says = match tab {
            "haproxy" | "express" => "in windows, up to 11 per 2.2 s",
            "traefik" => "by its own rule",
            _ => "a bucket of 11",
        };
        assert!(note.contains(says), "{tab}: {note}");
        let run = run_config(&sc, tab).unwrap();
        assert_eq!(export(&run, tab).unwrap().snippet, config.snippet, "{tab}");
        if !run.algo.is_window(&run.product) {
            assert_eq!(run.capacity, 11, "{tab}");
        }
    }
    // The notes are the queue's only: the same policy as a token bucket has none.
    let bucket = Scenario::from_query("capacity=10&refill=5").unwrap();
    assert!(!export(&bucket, "envoy").unwrap().notes.iter().any(|n| n.contains("cannot hold")));
}

#[test]
fn nginx_without_nodelay_delays_instead_of_refusing() {
    let q = "algo=nginx&capacity=10&refill=5&nodelay=0&rate=8&duration=20";
    let sc = Scenario::from_query(q).unwrap();
    let s = side_by_side(&sc).unwrap();
    assert!(s.delayed > 0, "{s:?}");
    assert!(s.statement.contains("delays"), "{}", s.statement);
    let r = ratelimit_playground::sim::run(&sc).unwrap();
    assert!(r.latency_ns.p99 >= 1_000_000_000, "added latency shows in the latency figures: {:?}", r.latency_ns);
}

#[test]
fn nginx_rejections_are_503_without_limit_req_status() {
    let sc = Scenario::from_query("algo=nginx&nginx_status=503&capacity=1&refill=1&rate=2&duration=1").unwrap();
    let csv = ratelimit_playground::sim::report::decisions_csv(&sc).unwrap();
    assert!(csv.contains(",503,"), "{csv}");
    assert!(!export(&sc, "nginx").unwrap().snippet.contains("limit_req_status"));
}

#[test]
fn count_rejected_leaves_the_products_own_counting_alone() {
    // express-rate-limit counts refused hits itself: count_rejected must not count them twice.
    for product in PRODUCTS {
        let q = |extra: &str| {
            let sc = Scenario::from_query(&format!("limit=5&window=1&rate=20&duration=10{extra}")).unwrap();
            ratelimit_playground::sim::run(&Scenario { algo: product, ..sc }).unwrap().admitted
        };
        assert_eq!(q("&count_rejected=1"), q(""), "{product:?}");
    }
}

#[test]
fn compare_mode_runs_the_chosen_product_beside_the_five_algorithms() {
    use ratelimit_playground::sim::compare::{algorithms, Comparison, ALGORITHMS};
    let sc = Scenario::from_query("algo=express&limit=5&window=1&rate=20").unwrap();
    assert_eq!(algorithms(&sc).len(), 6);
    let mut c = Comparison::new(&sc, 60);
    c.step_until(ratelimit_playground::sim::SimTime::from_nanos(10_000_000_000 - 1)); // a 10 s run stops before 10 s
    let express = &c.sims()[5];
    assert_eq!(Some(express.scenario().algo), products::find("express"));
    assert_eq!(
        express.metrics().totals.admitted,
        ratelimit_playground::sim::run(&Scenario {
            duration: ratelimit_playground::sim::Nanos::from_secs(10),
            ..sc.clone()
        })
        .unwrap()
        .admitted
    );
    assert_eq!(algorithms(&Scenario::default()), ALGORITHMS.to_vec());
}

#[test]
fn the_same_policy_runs_through_every_product_on_the_same_arrivals() {
    use ratelimit_playground::sim::product_runs::every_product;
    // 100 per minute, 3 requests/s offered for ten minutes.
    let sc =
        Scenario::from_query("algo=sliding_window&limit=100&window=60&rate=3&traffic=poisson&duration=600").unwrap();
    let rows = every_product(&sc).unwrap();
    assert_eq!(rows.len(), EXPORT_NAMES.len() + 1, "the textbook, then one row per tab");
    assert_eq!((rows[0].algo, rows[0].export), (Algorithm::SlidingWindow, None));
    let offered = rows[0].admitted + rows[0].refused;
    for (row, tab) in rows[1..].iter().zip(EXPORT_NAMES) {
        assert_eq!(row.export, Some(tab));
        assert_eq!(row.admitted + row.refused, offered, "{tab}: the same arrivals");
        assert!(!row.difference.is_empty(), "{tab} names its difference");
        // Each row is the tab's "Run this config" on the same scenario.
        let alone = ratelimit_playground::sim::run(&run_config(&sc, tab).unwrap()).unwrap();
        assert_eq!(alone.admitted, row.admitted, "{tab}");
    }
    let row = |name| rows.iter().find(|r| r.export == Some(name)).unwrap();
    // HAProxy counts refused requests: a client above the limit stays refused after the first 100.
    assert_eq!(row("haproxy").admitted, 100);
    // Traefik forgets a client idle for a second or two, which comes back with its whole burst.
    assert!(row("traefik").admitted > rows[0].admitted + 500, "{:?}", row("traefik"));
    // Traefik holds rather than refuses when the token is due soon.
    let held = every_product(&Scenario::from_query("capacity=10&refill=5&rate=8&duration=60").unwrap()).unwrap();
    let traefik = held.iter().find(|r| r.export == Some("traefik")).unwrap();
    assert_eq!(traefik.longest_delay.as_nanos(), 100_000_000, "maxDelay at 5/s: 1 s ÷ 10");
    assert!(held.iter().filter(|r| r.export != Some("traefik")).all(|r| r.longest_delay.as_nanos() == 0));
}

#[test]
fn kongs_own_store_mode_stays_with_kong_in_every_product_and_run_this_config() {
    use ratelimit_playground::sim::product_runs::every_product;
    use ratelimit_playground::sim::StoreMode;
    let sc = Scenario::from_query("algo=kong&limit=3&window=1&rate=10&nodes=2&store=sync&sync_rate=0.5&duration=10")
        .unwrap();
    assert_eq!(every_product(&sc).unwrap().len(), EXPORT_NAMES.len() + 1, "every product runs");
    assert_eq!(run_config(&sc, "kong").unwrap().store, StoreMode::Sync);
    assert_eq!(run_config(&sc, "nginx").unwrap().store, StoreMode::Async, "the nearest for nginx");
}

#[test]
fn every_product_refuses_a_run_too_long_to_compute_on_every_change() {
    use ratelimit_playground::sim::product_runs::every_product;
    let sc = Scenario::from_query("rate=1000&duration=3600").unwrap();
    let e = every_product(&sc).unwrap_err();
    assert_eq!(e.param, "duration");
    assert!(e.message.contains("lower rate or duration"), "{}", e.message);
}

/// docs/products.md's "How they differ" table is the registry's (`present::differences`): run
/// with `WRITE_README=1` to rewrite it after a product changes.
#[test]
fn the_products_doc_s_differences_table_is_the_registry_s() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/products.md");
    let readme = std::fs::read_to_string(path).unwrap();
    let (begin, end) = ("<!-- differences:begin -->\n", "<!-- differences:end -->");
    let from = readme.find(begin).expect("the begin marker") + begin.len();
    let to = readme.find(end).expect("the end marker");
    let table = ratelimit_playground::present::differences::markdown();
    if std::env::var_os("WRITE_README").is_some() {
        std::fs::write(path, format!("{}{table}{}", &readme[..from], &readme[to..])).unwrap();
        return;
    }
    assert_eq!(&readme[from..to], table, "docs/products.md's differences table: run with WRITE_README=1");
}
