//! The `ratelimit-sim` command line: output formats, exit status 2 with a clear message on bad
//! input, traces, refusal of runs too large to finish quickly, byte-identical output.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ratelimit-sim")).args(args).output().expect("ratelimit-sim runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn json_has_the_top_level_integers_and_the_normalized_scenario() {
    let o = sim(&["--query", "capacity=10&refill=5&rate=20&duration=10"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for key in ["requests", "admitted", "rejected", "over_admitted"] {
        assert!(v[key].is_i64() || v[key].is_u64(), "{key}");
    }
    assert_eq!(v["requests"], 200);
    assert!(v["scenario"].as_str().unwrap().starts_with("algo=token_bucket&capacity=10&refill=5&"));
    assert_eq!(v["series"].as_array().unwrap().len(), 10);
    assert!(v["latency_ns"]["p99"].is_u64());
}

#[test]
fn the_same_query_gives_byte_identical_output() {
    let q = ["--query", "traffic=poisson&rate=300&nodes=5&store=race&lb=random&retry=jitter&seed=9&duration=20"];
    assert_eq!(sim(&q).stdout, sim(&q).stdout);
}

#[test]
fn csv_is_the_series_with_a_header() {
    let o = sim(&["--query", "duration=3", "--format", "csv"]);
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "t_s,requests,admitted,rejected,retries,level,node0_admitted");
    assert_eq!(lines.len(), 4);
    let o = sim(&["--query", "duration=2&nodes=3&rate=30", "--format", "csv"]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.starts_with("t_s,requests,admitted,rejected,retries,level,node0_admitted,node1_admitted,node2_admitted\n")
    );
    // Round robin over three nodes: 10 requests each per second, all admitted at first.
    assert!(text.lines().nth(1).unwrap().ends_with(",10,10,10"), "{text}");
}

#[test]
fn invalid_input_exits_2_naming_the_parameter_and_its_range() {
    for (args, needle) in [
        (vec!["--query", "capacity=0"], "capacity: 0 is out of range; allowed: from 1 to 1000000 tokens"),
        (vec!["--query", "algo=leaky"], "algo: 'leaky' is not one of"),
        (vec!["--query", "x", "--format", "xml"], "--format: 'xml' is not one of json | csv | svg"),
        (vec!["--bogus"], "unknown argument '--bogus'"),
        (vec![], "--query is required"),
        (vec!["--query", "rate=100000&duration=86400"], "duration: this run could simulate"),
        (vec!["--query", "rate=1000&duration=20000&retry=exact"], "(arrivals × (1 + retries))"),
        (vec!["--query", "duration=86400&bucket=0.1"], "bucket: duration ÷ bucket"),
    ] {
        let o = sim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_trace_is_replayed_and_a_bad_line_is_named() {
    let dir = std::env::temp_dir().join(format!("rlsim-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, "# burst of 5 then one late\n0\n0.1\n0.2\n0.3\n0.4\n5000\n").unwrap();
    let o = sim(&["--query", "capacity=3&refill=1", "--trace", good.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((v["requests"].as_u64(), v["admitted"].as_u64()), (Some(6), Some(4)));

    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "0\n1\nsoon\n").unwrap();
    let o = sim(&["--query", "", "--trace", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("trace line 3: 'soon' is not a time in milliseconds"), "{}", stderr(&o));
}

#[test]
fn an_absurdly_large_trace_is_refused_not_loaded() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ratelimit-sim"))
        .args(["--query", "", "--trace", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = "1\n".repeat(1 << 20);
        // 100 MB offered; the reader stops after its limit, so writes then fail: that is fine.
        for _ in 0..50 {
            if stdin.write_all(chunk.as_bytes()).is_err() {
                break;
            }
        }
    });
    let o = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("is too large; at most 16.8 MB and 1 million arrivals"), "{}", stderr(&o));
}

#[test]
fn svg_is_one_document_with_the_apps_throughput_and_state_charts() {
    let o = sim(&["--query", "algo=fixed_window&traffic=seam&limit=20&window=10&duration=30", "--format", "svg"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = String::from_utf8(o.stdout).unwrap();
    assert!(svg.starts_with("<svg width=\"800\" height=\"560\""), "{}", &svg[..80]);
    assert_eq!(svg.matches("<svg").count(), 1);
    assert_eq!(svg.matches("</svg>").count(), 1);
    assert!(svg.trim_end().ends_with("</svg>"));
    for label in ["admitted / s", "rejected / s", "allowed rate"] {
        assert!(svg.contains(label), "no {label}");
    }
}

#[test]
fn an_embeds_still_draws_the_cards_at_the_moment_and_bad_flags_are_named() {
    let o =
        sim(&["--query", "algo=fixed_window&rate=8", "--format", "svg", "--show", "steady,throughput", "--at", "12.5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let svg = String::from_utf8(o.stdout).unwrap();
    assert!(svg.starts_with("<svg width=\"600\"") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("t = 12.500 s") && svg.contains("Steady state") && svg.contains("Throughput"));
    assert!(svg.find("Steady state") < svg.find(">\nThroughput"), "in the order given");
    assert!(svg.contains("@media (prefers-color-scheme: dark)"), "theme auto by default: dark for a dark reader");
    let dark = sim(&[
        "--query",
        "rate=8",
        "--format",
        "svg",
        "--show",
        "strip",
        "--theme",
        "dark",
        "--caption",
        "Eight a second",
    ]);
    let dark = String::from_utf8(dark.stdout).unwrap();
    assert!(dark.contains("fill=\"#1B1F26\"") && dark.contains("\nEight a second\n</text>"), "{dark}");
    // The moment is the scenario's end by default, and the same flags give the same bytes.
    let q = ["--query", "nodes=4&store=race&rtt=20&rate=40&duration=3", "--format", "svg", "--show", "topology,nodes"];
    let (a, b) = (sim(&q), sim(&q));
    assert_eq!(a.stdout, b.stdout);
    assert!(String::from_utf8_lossy(&a.stdout).contains("t = 3.000 s"));
    // --scale 2: twice as large, the same drawing.
    let sharp = sim(&[&q[..], &["--scale", "2"]].concat());
    let sharp = String::from_utf8(sharp.stdout).unwrap();
    let one = String::from_utf8_lossy(&a.stdout);
    let height = one.split("height=\"").nth(1).and_then(|h| h.split('"').next()).unwrap().parse::<u32>().unwrap();
    assert!(sharp.starts_with(&format!("<svg width=\"1200\" height=\"{}\" viewBox=\"0 0 600 {height}\"", 2 * height)));
    assert_eq!(sharp.split_once('>').unwrap().1, one.split_once('>').unwrap().1, "the same drawing");
    for (args, message) in [
        (vec!["--format", "svg", "--show", "throughput,chart"], "--show: 'chart' is not a card; known: throughput"),
        (vec!["--format", "svg", "--show", ""], "--show: name at least one card"),
        (vec!["--format", "svg", "--show", "state", "--at", "-1"], "--at: '-1' is not a time in seconds from 0 to 600"),
        (
            vec!["--format", "svg", "--show", "state", "--at", "601"],
            "--at: '601' is not a time in seconds from 0 to 600",
        ),
        (vec!["--show", "state"], "--show and --at draw an embed's still: use them with --format svg"),
        (
            vec!["--format", "svg", "--at", "3"],
            "--at, --theme, --caption and --scale describe an embed's still: give the cards with --show",
        ),
        (
            vec!["--format", "svg", "--caption", "Hi"],
            "--at, --theme, --caption and --scale describe an embed's still: give the cards with --show",
        ),
        (vec!["--format", "svg", "--show", "state", "--scale", "5"], "--scale: '5' is not a whole number from 1 to 4"),
        (
            vec!["--format", "svg", "--show", "state", "--theme", "sepia"],
            "--theme: 'sepia' is not one of auto, light, dark",
        ),
        (
            vec!["--format", "svg", "--show", "state", "--caption", &"x".repeat(201)],
            "--caption: is longer than 200 characters",
        ),
    ] {
        let o = sim(&[&["--query", "rate=8"][..], &args].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).starts_with(&format!("ratelimit-sim: {message}")), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn gzip_and_several_files_merged_by_time_give_the_report_of_the_one_log() {
    use flate2::write::GzEncoder;
    let dir = std::env::temp_dir().join(format!("rlp-cli-gz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let whole = dir.join("access.log");
    let o = sim(&["--sample-log", "api", "--minutes", "3", "--query", "seed=8", "--out", whole.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&whole).unwrap();
    // Two servers behind a balancer: every other line each, both in time order.
    let (mut a, mut b) = (String::new(), String::new());
    for (i, line) in text.lines().enumerate() {
        let server = if i % 2 == 0 { &mut a } else { &mut b };
        server.push_str(line);
        server.push('\n');
    }
    let gzip = |plain: &str| {
        let mut z = GzEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(plain.as_bytes()).unwrap();
        z.finish().unwrap()
    };
    let (a_path, b_path, gz_path) = (dir.join("a.log"), dir.join("b.log.gz"), dir.join("access.log.1.gz"));
    std::fs::write(&a_path, &a).unwrap();
    std::fs::write(&b_path, gzip(&b)).unwrap();
    std::fs::write(&gz_path, gzip(&text)).unwrap();
    let report = |logs: &[&std::path::Path]| {
        let mut args = vec!["--query", "capacity=20&refill=2"];
        for l in logs {
            args.extend(["--log", l.to_str().unwrap()]);
        }
        let o = sim(&args);
        assert!(o.status.success(), "{logs:?}: {}", stderr(&o));
        let mut v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        v["log"]["lines"] = serde_json::Value::Null;
        v
    };
    let one = report(&[&whole]);
    assert_eq!(report(&[&gz_path]), one, "a gzip log is read as the plain one");
    // Damaged gzip is said to be so, as the page says it, not read as far as it goes.
    let whole_gz = gzip(&text);
    let (cut, fake) = (dir.join("cut.log.gz"), dir.join("fake.log.gz"));
    std::fs::write(&cut, &whole_gz[..whole_gz.len() / 2]).unwrap();
    std::fs::write(&fake, b"\x1f\x8bnot deflate at all").unwrap();
    for (path, why) in [(&cut, "incomplete deflate stream"), (&fake, "invalid gzip header")] {
        let o = sim(&["--query", "capacity=20&refill=2", "--log", path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{path:?}");
        assert_eq!(stderr(&o).trim(), format!("ratelimit-sim: log: cannot be read: damaged or cut-short gzip ({why})"));
    }
    // Merged, the requests of one whole second come file by file (a log's whole-second stamps
    // say nothing of their order within it): the report is the one log's in that order.
    let second = |line: &str| line.split('[').nth(1).map(|s| s[..20].to_string()).unwrap();
    let mut in_order: Vec<(String, usize, &str)> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        in_order.push((second(line), i % 2, line));
    }
    in_order.sort_by(|x, y| (&x.0, x.1).cmp(&(&y.0, y.1)));
    let sorted = dir.join("sorted.log");
    std::fs::write(&sorted, in_order.iter().map(|(_, _, l)| format!("{l}\n")).collect::<String>()).unwrap();
    assert_eq!(report(&[&a_path, &b_path]), report(&[&sorted]), "two servers' logs merged by time");
    let swapped = report(&[&b_path, &a_path]);
    for k in ["requests", "keys"] {
        assert_eq!(swapped[k], one[k], "{k}, in any order");
    }
}

#[test]
fn a_log_replays_per_client_and_reports_who_got_a_429() {
    let dir = std::env::temp_dir().join(format!("rlp-cli-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("api.log");
    let o = sim(&["--sample-log", "api", "--minutes", "3", "--query", "seed=5", "--out", log.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = sim(&["--query", "capacity=20&refill=2", "--log", log.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    for key in ["requests", "admitted", "rejected", "keys", "keys_throttled"] {
        assert!(v[key].is_u64(), "{key}: {}", v[key]);
    }
    assert_eq!(v["log"]["format"], "combined");
    assert_eq!(v["keys"], 304, "300 clients, three scrapers and the cron job");
    assert_eq!(v["keys_throttled"], 4);
    let per_key = v["per_key"].as_array().unwrap();
    assert_eq!(per_key.len(), 304);
    let rejected: Vec<u64> = per_key.iter().map(|k| k["rejected"].as_u64().unwrap()).collect();
    assert!(rejected.windows(2).all(|w| w[0] >= w[1]), "sorted by rejections");
    // A throttled key's first 429 is a time inside the log; a spared key has none.
    let from_ms = v["rejections_over_time"]["from_ms"].as_i64().unwrap();
    for k in per_key {
        match k["rejected"].as_u64().unwrap() {
            0 => assert!(k["first_rejected_ms"].is_null(), "{k}"),
            _ => assert!((from_ms..from_ms + 3 * 60_000).contains(&k["first_rejected_ms"].as_i64().unwrap()), "{k}"),
        }
    }
    let sum = |f: &str| per_key.iter().map(|k| k[f].as_u64().unwrap()).sum::<u64>();
    assert_eq!((sum("requests"), sum("rejected")), (v["requests"].as_u64().unwrap(), v["rejected"].as_u64().unwrap()));
    assert_eq!(
        v["rejections_over_time"]["counts"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).sum::<u64>(),
        sum("rejected")
    );
    // One global key: every request through one limiter; the same log from stdin.
    let mut child = Command::new(env!("CARGO_BIN_EXE_ratelimit-sim"))
        .args(["--query", "capacity=20&refill=2", "--log", "-", "--key", "global", "--format", "csv"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&std::fs::read(&log).unwrap()).unwrap();
    let csv = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "key,requests,admitted,rejected,peak_1s,peak_window,first_rejected_ms");
    assert!(lines[1].starts_with(&format!("*,{},", v["requests"])), "{}", lines[1]);
    // The sizing assistant with a target: the smallest policy within 1 % of keys throttled
    // leaves the 300 clients alone; the keys it still throttles are named.
    let o = sim(&["--query", "capacity=20&refill=2", "--log", log.to_str().unwrap(), "--sweep", "--target-keys", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let grid = s["grid"].as_array().unwrap();
    assert!(grid.len() >= 50, "{} policies", grid.len());
    let per_minute: Vec<f64> = grid.iter().map(|r| r["per_minute"].as_f64().unwrap()).collect();
    assert!(per_minute.windows(2).all(|w| w[0] <= w[1]), "smallest first: what a key gets through in a minute");
    let first = &grid[0];
    let expected = first["burst"].as_f64().unwrap() + 60.0 * first["rate_per_s"].as_f64().unwrap();
    assert!((first["per_minute"].as_f64().unwrap() - expected).abs() < 1e-9, "per_minute is burst + 60 s × rate");
    let rec = &s["recommended"];
    assert!(rec["keys_throttled"].as_u64().unwrap() <= 3, "{rec}");
    let first_ok = grid.iter().position(|r| r["keys_throttled"].as_u64().unwrap() <= 3).unwrap();
    assert_eq!(grid[first_ok]["policy"], rec["policy"], "the smallest that qualifies");
    for k in rec["still_throttled"].as_array().unwrap() {
        assert!(k.as_str().unwrap().starts_with("203.0.113.") || k == "198.51.100.7", "{k}");
    }
    assert!(rec.get("config").is_none(), "a textbook algorithm has no product's configuration: {rec}");
    // Sized for a library: the recommendation also as its configuration, its numbers the row's.
    let o = sim(&["--query", "algo=rack_attack", "--log", log.to_str().unwrap(), "--sweep"]);
    let s: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rec = &s["recommended"];
    let (limit, window) = rec["policy"].as_str().unwrap().split_once('&').unwrap();
    let line = format!(
        "Rack::Attack.throttle(\"requests per ip\", limit: {}, period: {}) do |request|",
        limit.trim_start_matches("limit="),
        window.trim_start_matches("window=")
    );
    assert_eq!(rec["config"]["target"], "Rack::Attack", "{rec}");
    assert!(rec["config"]["snippet"].as_str().unwrap().lines().any(|l| l == line), "{line}: {rec}");
    let csv = String::from_utf8(
        sim(&[
            "--query",
            "limit=100&window=60&algo=fixed_window",
            "--log",
            log.to_str().unwrap(),
            "--sweep",
            "--format",
            "csv",
        ])
        .stdout,
    )
    .unwrap();
    assert!(
        csv.starts_with(
            "policy,rate_per_s,burst,per_minute,keys_throttled,keys_throttled_percent,rejected,rejected_percent,role,keys_newly_spared,keys_newly_throttled,burst_multiple,rate_multiple\nlimit="
        ),
        "{csv}"
    );
    // With a server behind the limiter, each policy's admitted requests go through it, and a
    // latency objective names the largest policy that keeps it (issue #37).
    let q = "capacity=20&refill=2&workers=2&service=20";
    let o = sim(&["--query", q, "--log", log.to_str().unwrap(), "--sweep", "--latency-objective", "100"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(s["latency_objective_ms"], 100.0);
    let largest = &s["largest_within_latency"];
    let keeps = |r: &serde_json::Value| r["server"]["p99_ms"].as_f64().unwrap() <= 100.0 && r["server"]["shed"] == 0;
    assert!(keeps(largest), "{largest}");
    let grid = s["grid"].as_array().unwrap();
    let at = grid.iter().position(|r| r["policy"] == largest["policy"]).unwrap();
    assert!(grid[at + 1..].iter().all(|r| !keeps(r)), "nothing larger keeps 100 ms");
    let csv =
        String::from_utf8(sim(&["--query", q, "--log", log.to_str().unwrap(), "--sweep", "--format", "csv"]).stdout)
            .unwrap();
    assert!(csv.lines().next().unwrap().ends_with(",server_p99_ms,server_shed,server_utilization"), "{csv}");
    let o = sim(&["--query", q, "--log", log.to_str().unwrap(), "--latency-objective", "100"]);
    assert_eq!((o.status.code(), stderr(&o).contains("add --sweep")), (Some(2), true));
    let o = sim(&["--query", q, "--log", log.to_str().unwrap(), "--sweep", "--latency-objective", "-5"]);
    assert!(stderr(&o).contains("--latency-objective: '-5' is not a time in ms"), "{}", stderr(&o));

    // Bad logs and flags: exit 2, the line or the flag named.
    let bad = dir.join("bad.log");
    std::fs::write(&bad, b"203.0.113.7 - - [14/Nov/2023:22:13:20 +0000] \"GET / HTTP/1.1\" 200 1\n\xff\xfe\n").unwrap();
    for (args, message) in [
        (vec!["--log", bad.to_str().unwrap()], "log line 2: is not UTF-8 text"),
        (vec!["--log", "/nonexistent/x.log"], "--log: cannot open /nonexistent/x.log"),
        (
            vec!["--log", log.to_str().unwrap(), "--key", "host"],
            "--key: 'host' is not a key; known: ip | field:NAME | path | global",
        ),
        (
            vec!["--log", log.to_str().unwrap(), "--log-format", "iis"],
            "--log-format: 'iis' is not a log format; known: combined",
        ),
        (vec!["--log", log.to_str().unwrap(), "--format", "svg"], "--log reports as json or csv"),
        (vec!["--key", "ip"], "--log-format and --key describe a log"),
        (vec!["--sample-log", "shop"], "--sample-log: 'shop' is not one of api | login"),
        (
            vec!["--sample-log", "api", "--minutes", "0"],
            "--minutes: '0' is not a whole number of minutes from 1 to 10080",
        ),
    ] {
        let o = sim(&[&["--query", "rate=8"][..], &args].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).starts_with(&format!("ratelimit-sim: {message}")), "{args:?}: {}", stderr(&o));
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sweep_rates_the_current_policy_first_and_keeps_it_when_it_throttles_only_the_outliers() {
    // Issue #51: 300 clients of which five scrape at 20–50 requests/s, under nginx's
    // `rate=10r/s burst=20 nodelay`, which throttles exactly the five.
    let dir = std::env::temp_dir().join(format!("rlp-cli-advice-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("crowd.log");
    let scrapers = [20.0, 27.5, 35.0, 42.5, 50.0];
    std::fs::write(&log, ratelimit_playground::sim::logs::samples::crowd_log(1, 60, 295, &scrapers)).unwrap();
    let nginx = "algo=nginx&capacity=21&refill=10&nodelay=1";
    let o = sim(&["--query", nginx, "--log", log.to_str().unwrap(), "--sweep"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let is_scraper = |k: &serde_json::Value| k["key"].as_str().unwrap().starts_with("203.0.113.");
    assert_eq!(s["objective"]["rule"], "outliers");
    assert_eq!(s["objective"]["outliers"].as_array().unwrap().len(), 5, "{}", s["objective"]);
    let current = &s["current"];
    assert_eq!(current["policy"], "capacity=21&refill=10");
    let throttled = current["throttled"].as_array().unwrap();
    assert_eq!(throttled.len(), 5);
    assert!(throttled
        .iter()
        .all(|k| is_scraper(k) && k["peak_1s"].as_u64().unwrap() > 21 && k["rejected"].as_u64().unwrap() > 0));
    let spared = current["spared"].as_array().unwrap();
    assert!(spared.len() == 295 && spared.iter().all(|k| !is_scraper(k) && k["peak_window"].is_u64()));
    assert!(current["config"]["snippet"].as_str().unwrap().contains("burst=20 nodelay"), "{current}");
    let rec = &s["recommended"];
    assert_eq!((&rec["policy"], &rec["keeps_current"]), (&current["policy"], &serde_json::json!(true)));
    assert_eq!((rec["burst_multiple"].as_f64(), rec["rate_multiple"].as_f64()), (Some(1.0), Some(1.0)));
    assert_eq!(
        (rec["newly_spared"].as_array().unwrap().len(), rec["newly_throttled"].as_array().unwrap().len()),
        (0, 0)
    );
    assert!(rec["objective"].as_str().unwrap().starts_with("keep it: "), "{}", rec["objective"]);
    // Too loose: the advice tightens it, naming the scrapers it newly throttles.
    let loose = "algo=nginx&capacity=101&refill=30&nodelay=1";
    let o = sim(&["--query", loose, "--log", log.to_str().unwrap(), "--sweep"]);
    let s: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rec = &s["recommended"];
    assert_eq!(rec["keeps_current"], false);
    let newly = rec["newly_throttled"].as_array().unwrap();
    assert!(!newly.is_empty() && newly.iter().all(|k| is_scraper(k) && k["peak_1s"].is_u64()), "{rec}");
    assert!(rec["rate_multiple"].as_f64().unwrap() < 1.0, "{rec}");
    assert!(rec["objective"].as_str().unwrap().starts_with("the tightest policy tried that spares all 295"), "{rec}");
    // CSV: one row per policy, the current and the recommended one marked, with the changes.
    let csv = String::from_utf8(
        sim(&["--query", loose, "--log", log.to_str().unwrap(), "--sweep", "--format", "csv"]).stdout,
    )
    .unwrap();
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    let marked = |role: &str| rows.iter().filter(|r| r[8] == role).count();
    assert_eq!((marked("current"), marked("recommended")), (1, 1), "{csv}");
    let current = rows.iter().find(|r| r[8] == "current").unwrap();
    assert_eq!((current[0], current[9], current[10], current[11]), ("capacity=101&refill=30", "0", "0", "1"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_readme_svg_is_what_the_cli_draws_today() {
    let o = sim(&["--query", "capacity=10&refill=5&rate=8&duration=60", "--format", "svg"]);
    let committed = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/token-bucket.svg")).unwrap();
    assert!(
        String::from_utf8(o.stdout).unwrap() == committed,
        "docs/token-bucket.svg is stale: regenerate it with the command in the README"
    );
}

#[test]
fn a_reader_that_stops_early_is_not_a_crash() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ratelimit-sim"))
        .args(["--query", "rate=2000&duration=600", "--format", "csv"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // close the pipe before the output is written
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

#[test]
fn export_prints_each_target_s_snippet_exactly_as_the_panel_has_it() {
    use ratelimit_playground::production::{configs, EXPORT_NAMES};
    let q = "algo=sliding_window&limit=90&window=60&rate=3";
    let sc = ratelimit_playground::sim::Scenario::from_query(q).unwrap();
    for (name, config) in EXPORT_NAMES.iter().zip(configs(&sc)) {
        let o = sim(&["--query", q, "--export", name]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert_eq!(String::from_utf8(o.stdout).unwrap(), config.snippet, "{name}");
    }
    let o = sim(&["--query", q, "--export", "squid"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--export: 'squid' is not one of nginx | envoy | governor | express | upstash | redis-lua")
    );
}

#[test]
fn products_prints_one_csv_line_per_limiter_on_the_same_arrivals() {
    let o = sim(&["--query", "capacity=10&refill=5&rate=8&duration=60", "--format", "products"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "limiter,algo,export,admitted,refused,first_refusal_s,longest_delay_s,difference");
    assert_eq!(lines[1], "token bucket,token_bucket,,309,171,3.125,0,\"\"");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("Traefik,traefik,traefik,309,171,3.25,0.1,\"it holds a request up to 100ms")));
    assert_eq!(lines.len(), 2 + ratelimit_playground::production::EXPORT_NAMES.len());
    let o = sim(&["--query", "rate=1000&duration=3600", "--format", "products"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("duration"), "{}", stderr(&o));
}

#[test]
fn decisions_lists_every_request_in_arrival_order_for_every_algorithm_and_store() {
    for q in [
        "algo=token_bucket&capacity=5&refill=2&rate=9&duration=20&retry=jitter",
        "algo=gcra&capacity=5&refill=2&rate=9&duration=20&traffic=poisson",
        "algo=fixed_window&limit=10&window=2&traffic=seam&duration=20",
        "algo=sliding_window&limit=10&window=2&rate=9&duration=20",
        "algo=sliding_log&limit=10&window=2&rate=9&duration=20",
        "nodes=4&store=race&rtt=50&rate=100&duration=10",
        "nodes=4&store=async&rtt=50&rate=100&duration=10&outage=2-4",
    ] {
        let json: serde_json::Value = serde_json::from_slice(&sim(&["--query", q]).stdout).unwrap();
        let o = sim(&["--query", q, "--format", "decisions"]);
        assert!(o.status.success(), "{q}: {}", stderr(&o));
        let text = String::from_utf8(o.stdout).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("t_ms,key,node,status,retry_after_ms"));
        let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
        assert_eq!(rows.len() as u64, json["requests"].as_u64().unwrap(), "{q}: one line per request");
        let admitted = rows.iter().filter(|r| r[3] == "200").count() as u64;
        assert_eq!(admitted, json["admitted"].as_u64().unwrap(), "{q}");
        let well_formed = |r: &Vec<&str>| {
            r.len() == 5 && r[1] == "global" && matches!(r[3], "200" | "429") && (r[3] == "429" || r[4].is_empty())
        };
        assert!(rows.iter().all(well_formed), "{q}: {:?}", rows.iter().find(|r| !well_formed(r)));
        // Rejections carry their Retry-After, except on a store timeout.
        let timeouts = json["timeouts"].as_u64().unwrap();
        assert!(rows.iter().filter(|r| r[3] == "429" && r[4].is_empty()).count() as u64 <= timeouts, "{q}");
        let times: Vec<f64> = rows.iter().map(|r| r[0].parse().unwrap()).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "{q}: not in arrival order");
    }
    // The same run as JSON: recording the decisions changes nothing.
    let q = "algo=token_bucket&capacity=5&refill=2&rate=9&duration=20&retry=jitter";
    assert_eq!(sim(&["--query", q]).stdout, sim(&["--query", q]).stdout);
    let o = sim(&["--query", "rate=100000&duration=3600", "--format", "decisions"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("at most 5000000 lines"), "{}", stderr(&o));
}

#[test]
fn a_counter_per_instance_or_per_pop_says_what_it_changes_against_one_global_counter() {
    let dir = std::env::temp_dir().join(format!("rlp-cli-scope-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("api.log");
    let o = sim(&["--sample-log", "api", "--minutes", "3", "--query", "seed=5", "--out", log.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = |extra: &[&str]| {
        let mut args = vec!["--query", "capacity=20&refill=2", "--log", log.to_str().unwrap()];
        args.extend_from_slice(extra);
        let o = sim(&args);
        assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let global = run(&[]);
    assert!(global.get("scope").is_none(), "one global counter: nothing to compare");
    // Four nginx instances behind round robin, each with its own zone: about four times the
    // burst and rate per client, so fewer keys are throttled and none newly.
    let rr = run(&["--scope", "instance", "--instances", "4"]);
    let scope = &rr["scope"];
    assert_eq!(scope["global"]["admitted"], global["admitted"]);
    assert!(rr["admitted"].as_u64() > global["admitted"].as_u64(), "{scope}");
    assert_eq!(
        scope["admitted_change"].as_i64().unwrap(),
        rr["admitted"].as_i64().unwrap() - global["admitted"].as_i64().unwrap()
    );
    assert!(
        scope["newly_throttled"].as_array().unwrap().is_empty()
            && !scope["newly_spared"].as_array().unwrap().is_empty(),
        "{scope}"
    );
    let sum = |v: &serde_json::Value, f: &str| {
        v["per_key"].as_array().unwrap().iter().map(|k| k[f].as_u64().unwrap()).sum::<u64>()
    };
    assert_eq!(
        (sum(&rr, "admitted"), sum(&rr, "requests")),
        (rr["admitted"].as_u64().unwrap(), global["requests"].as_u64().unwrap())
    );
    assert_eq!(sum(&rr, "peak_1s"), sum(&global, "peak_1s"), "a key's peaks are over all its requests");
    // A hash of the key puts every request of a key on one instance: the global counter's numbers.
    let hash = run(&["--scope", "instance", "--instances", "4", "--placement", "hash"]);
    assert_eq!(
        (hash["admitted"].clone(), hash["scope"]["admitted_change"].clone()),
        (global["admitted"].clone(), 0.into())
    );
    // A counter per value of a field every line has once: the global counter again.
    let status = run(&["--scope", "field:method"]);
    assert_eq!(status["admitted"], global["admitted"], "the sample's requests are all GETs");
    for (args, words) in [
        (&["--scope", "instance", "--instances", "0"][..], "--instances: '0' is not a whole number from 1 to 1024"),
        (&["--scope", "pop"][..], "--scope: 'pop' is not one of global | instance | field:NAME"),
        (&["--placement", "hash"][..], "--instances and --placement describe instances: add --scope instance"),
    ] {
        let mut all = vec!["--query", "capacity=20&refill=2", "--log", log.to_str().unwrap()];
        all.extend_from_slice(args);
        let o = sim(&all);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains(words), "{args:?}: {}", stderr(&o));
    }
    let o = sim(&["--query", "", "--scope", "instance"]);
    assert!(stderr(&o).contains("give a log with --log FILE"), "{}", stderr(&o));
    let o = sim(&["--query", "capacity=5", "--log", log.to_str().unwrap(), "--against", "nginx-dry-run"]);
    assert!(stderr(&o).contains("put algo=nginx"), "{}", stderr(&o));
    let o = sim(&["--query", "algo=nginx", "--log", log.to_str().unwrap(), "--against", "envoy"]);
    assert!(
        stderr(&o).contains("--against: 'envoy' is not a dry run this reads; known: nginx-dry-run"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}
