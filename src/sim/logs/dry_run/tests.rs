//! The dry-run check's tests: nginx's logged decisions against the model, the page's lenient
//! reading, and logs that cannot be checked.

use super::*;

/// A dry-run log line in the docs' format: `$msec $remote_addr "$request" $status
/// $body_bytes_sent $limit_req_status`.
fn line(ms: i64, ip: &str, status: &str) -> String {
    format!("{}.{:03} {ip} \"GET / HTTP/1.1\" 200 3 {status}\n", ms / 1000, ms % 1000)
}

fn check(log: &str, query: &str) -> Result<Agreement, LogError> {
    against_nginx_dry_run(log.as_bytes(), None, &KeyBy::Ip, &Scenario::from_query(query).unwrap())
}

#[test]
fn what_nginx_would_refuse_is_what_the_model_refuses() {
    // rate=2r/s burst=1 nodelay: two at once pass, the third in the same ms is refused, and
    // half a second later one token is back.
    let t = 1_700_000_000_000;
    let log = [
        line(t, "a", "PASSED"),
        line(t, "a", "PASSED"),
        line(t, "a", "REJECTED_DRY_RUN"),
        line(t, "b", "PASSED"),
        line(t + 500, "a", "PASSED"),
        line(t + 501, "a", "PASSED"), // the model refuses this one
        line(t + 502, "c", "-"),
    ]
    .concat();
    let a = check(&log, "algo=nginx&capacity=2&refill=2").unwrap();
    assert_eq!((a.requests, a.agree, a.unlimited, a.lines), (6, 5, 1, 7));
    assert_eq!((a.logged, a.model), ([5, 0, 1], [4, 0, 2]));
    assert_eq!(
        a.first,
        [Disagreement { line: 6, key: "a".into(), ms: t + 501, logged: Status::Passed, model: Status::Rejected }]
    );
    assert!((a.percent() - 500.0 / 6.0).abs() < 1e-9);
}

#[test]
fn without_nodelay_the_burst_is_delayed() {
    let t = 1_700_000_000_000;
    let log = [line(t, "a", "PASSED"), line(t, "a", "DELAYED_DRY_RUN"), line(t, "a", "REJECTED_DRY_RUN")].concat();
    let a = check(&log, "algo=nginx&capacity=2&refill=1&nodelay=0").unwrap();
    assert_eq!((a.agree, a.model), (3, [1, 1, 1]), "{:?}", a.first);
}

#[test]
fn a_json_log_carries_the_status_in_its_field() {
    let log = "{\"msec\": 1700000000.000, \"ip\": \"a\", \"limit_req_status\": \"PASSED\"}\n{\"msec\": 1700000000.000, \"ip\": \"a\", \"limit_req_status\": \"REJECTED_DRY_RUN\"}\n";
    let a = check(log, "algo=nginx&capacity=1&refill=1").unwrap();
    assert_eq!((a.requests, a.agree), (2, 2));
}

#[test]
fn the_page_checks_a_log_only_when_it_carries_the_status() {
    let sc = Scenario::from_query("algo=nginx&capacity=2&refill=2").unwrap();
    let look = |log: &str, sc: &Scenario| {
        let mut check = DryRun::new(None, &KeyBy::Ip, Mode::Look);
        // In chunks that split lines anywhere, as the page's worker reads a file.
        log.as_bytes().chunks(7).for_each(|c| check.feed(c));
        check.finish(sc)
    };
    let combined = "1.2.3.4 - - [14/Nov/2023:22:13:20 +0000] \"GET / HTTP/1.1\" 200 5 \"-\" \"-\"\n";
    assert!(look(combined, &sc).is_none(), "a combined log without the status is not checked");
    let t = 1_700_000_000_000;
    let log = [line(t, "a", "PASSED"), line(t, "a", "PASSED"), line(t, "a", "REJECTED_DRY_RUN")].concat();
    let a = look(&log, &sc).unwrap().unwrap();
    assert_eq!((a.requests, a.agree, a.lines), (3, 3, 3));
    assert_eq!(a, check(&log, "algo=nginx&capacity=2&refill=2").unwrap(), "the CLI's agreement");
    let other = look(&log, &Scenario::from_query("capacity=2").unwrap()).unwrap().unwrap_err();
    assert!(other.message.contains("algo=nginx"), "{other}");
}

#[test]
fn logs_that_cannot_be_checked_say_why() {
    let e = check(&line(1_700_000_000_000, "a", "PASSED"), "capacity=2").unwrap_err();
    assert!(e.message.contains("put algo=nginx"), "{e}");
    let e = check(&line(1_700_000_000_000, "a", "200"), "algo=nginx").unwrap_err();
    assert!(e.line == 1 && e.message.contains("no $limit_req_status"), "{e}");
    let combined = "1.2.3.4 - - [14/Nov/2023:22:13:20 +0000] \"GET / HTTP/1.1\" 200 5 PASSED\n";
    let e = check(combined, "algo=nginx").unwrap_err();
    assert!(e.message.contains("log $msec"), "{e}");
}
