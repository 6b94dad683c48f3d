//! The sizing assistant's advice on generated logs whose outliers are known: the current policy
//! rated first, the outlier rule's recommendation against it, and "keep it" when the current
//! policy already spares the bulk and throttles the outliers (issue #51).
#![cfg(not(target_arch = "wasm32"))]

use ratelimit_playground::sim::logs::reader::{read_log, KeyBy, ReadSummary};
use ratelimit_playground::sim::logs::samples::crowd_log;
use ratelimit_playground::sim::logs::sizing::{sweep, Objective, Reason, Sizing};
use ratelimit_playground::sim::Scenario;

/// nginx's `limit_req zone=… rate=10r/s; limit_req burst=20 nodelay;`: a bucket of 21.
const NGINX: &str = "algo=nginx&capacity=21&refill=10&nodelay=1";
/// The scrapers' rates while they burst, requests/s.
const SCRAPERS: [f64; 5] = [20.0, 27.5, 35.0, 42.5, 50.0];

/// `log` read by client IP, swept around `query` under `objective`.
fn sized(log: &str, query: &str, objective: Objective) -> (Sizing, ReadSummary) {
    let mut arrivals = Vec::new();
    let read = read_log(log.as_bytes(), None, &KeyBy::Ip, |a| arrivals.push(a)).unwrap();
    let sc = Scenario::from_query(query).unwrap();
    (sweep(&arrivals, &read, &sc, objective), read)
}

/// The names of `keys`, sorted.
fn names(read: &ReadSummary, keys: impl IntoIterator<Item = u32>) -> Vec<String> {
    let mut out: Vec<String> = keys.into_iter().map(|k| read.keys.name(k).to_string()).collect();
    out.sort();
    out
}

/// The five scrapers' addresses.
fn scrapers() -> Vec<String> {
    (50..55).map(|i| format!("203.0.113.{i}")).collect()
}

#[test]
fn nginx_that_throttles_exactly_the_five_scrapers_is_kept_not_loosened() {
    let log = crowd_log(1, 60, 295, &SCRAPERS);
    let (s, read) = sized(&log, NGINX, Objective::Outliers);
    assert_eq!(s.keys, 300);
    assert_eq!(names(&read, s.split.outliers.iter().copied()), scrapers(), "the rule finds the five scrapers");
    let now = s.current_row();
    assert_eq!(names(&read, s.throttled_by(now).iter().map(|p| p.key)), scrapers());
    assert_eq!(s.spared_by(now).len(), 295);
    assert!(s.throttled_by(now).iter().all(|p| p.peak_1s > 21), "each scraper peaks above the burst of 21");
    assert_eq!((s.recommended, s.reason), (Some(s.current), Some(Reason::Keep)), "keep it");
    assert!(s.objective_words().unwrap().starts_with("keep it: the current policy already spares all 295 keys"));
    let rec = &s.rows[s.recommended.unwrap()];
    assert_eq!((rec.burst, rec.rate), (21, 10.0), "never burst 200 at 5/s");
}

#[test]
fn a_policy_too_loose_for_the_scrapers_is_tightened_and_says_whom_it_newly_throttles() {
    let log = crowd_log(1, 60, 295, &SCRAPERS);
    let loose = "algo=nginx&capacity=101&refill=30&nodelay=1";
    let (s, read) = sized(&log, loose, Objective::Outliers);
    let now = s.current_row();
    let spared_scrapers: Vec<String> =
        names(&read, s.spared_by(now).iter().map(|p| p.key)).into_iter().filter(|n| n.starts_with("203.")).collect();
    assert!(!spared_scrapers.is_empty(), "the loose policy lets a scraper through");
    assert_eq!(s.reason, Some(Reason::Split));
    let rec = &s.rows[s.recommended.unwrap()];
    assert_eq!(names(&read, s.throttled_by(rec).iter().map(|p| p.key)), scrapers(), "all five, no client");
    let change = s.change(rec);
    assert_eq!(names(&read, change.newly_throttled.iter().map(|p| p.key)), spared_scrapers);
    assert!(change.newly_spared.is_empty(), "it spares no key the current policy throttles");
    assert!(rec.per_minute < now.per_minute && change.rate_multiple < 1.0, "tighter: {rec:?}");
    // Nothing tighter does it.
    let tighter = &s.rows[..s.recommended.unwrap()];
    assert!(tighter.iter().all(|r| !s.meets(r)));
}

#[test]
fn a_log_without_outliers_gets_the_tightest_policy_that_throttles_nobody() {
    let log = crowd_log(4, 20, 300, &[]);
    let (s, _) = sized(&log, "capacity=2&refill=0.1", Objective::Outliers);
    assert!(s.split.outliers.is_empty(), "fence {}", s.split.fence);
    assert!(s.current_row().keys_throttled > 0, "the current policy throttles clients");
    assert_eq!(s.reason, Some(Reason::Split));
    let i = s.recommended.unwrap();
    assert_eq!(s.rows[i].keys_throttled, 0);
    assert!(s.rows[..i].iter().all(|r| r.keys_throttled > 0), "the tightest that throttles nobody");
    assert!(s.objective_words().unwrap().starts_with("the log has no outliers"));
    assert!(!s.change(&s.rows[i]).newly_spared.is_empty(), "it spares the clients the current one throttles");
    // Under a policy that already throttles nobody: keep it.
    let (s, _) = sized(&log, "capacity=50&refill=5", Objective::Outliers);
    assert_eq!((s.recommended, s.reason), (Some(s.current), Some(Reason::Keep)));
}

#[test]
fn the_target_share_is_still_the_smallest_policy_within_it() {
    let log = crowd_log(1, 10, 295, &SCRAPERS);
    let (s, _) = sized(&log, NGINX, Objective::Target(0.01));
    let i = s.recommended.unwrap();
    assert!(s.rows[i].keys_throttled <= 3 && s.rows[..i].iter().all(|r| r.keys_throttled > 3));
    assert_eq!(s.reason, Some(Reason::Target));
}
