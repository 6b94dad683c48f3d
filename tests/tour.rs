//! The learner's tour holds to what each step says: every step's scenario runs, the numbers its
//! sentences give are the engine's for that scenario, and each makes the step's point (the seam's
//! 2 × the limit, per-node counters' N × the limit, the race's over-admission, the atomic
//! script's exactness, the edge's 10–15 %, …). And its links: `tour=path&step=N` opens step N,
//! bad values are named and clamped or ignored.

use ratelimit_playground::present::cluster::presets::is_cluster;
use ratelimit_playground::present::share::link::{tour_query, Link};
use ratelimit_playground::present::tour::lessons::{figures, Figures, WAVE_BUCKET};
use ratelimit_playground::present::tour::{step, Chart, STEPS};
use ratelimit_playground::sim::{FailMode, Nanos, Rate, RetryPolicy, Scenario, SimTime};

/// Step `n`'s scenario, the engine's figures for it, and its words.
fn at(n: usize) -> (Scenario, Figures, String) {
    let s = step(n).unwrap();
    (s.scenario(), figures(&s.scenario()), s.watch())
}

fn has(text: &str, part: &str) {
    assert!(text.contains(part), "{part:?} is not in: {text}");
}

#[test]
fn a_counter_on_one_server_never_admits_more_than_its_limit_in_a_window() {
    let (sc, f, text) = at(1);
    assert_eq!(f.busiest.0, sc.effective_limit());
    assert!(f.rejected > 0, "the counter must be refusing something to show it holds");
    has(&text, &format!("admitted {} of {}", f.admitted, f.requests));
    has(&text, &format!("never more than {} in one", sc.effective_limit()));
}

#[test]
fn the_seam_lets_twice_the_limit_through_within_one_window() {
    let (sc, f, text) = at(2);
    assert_eq!(f.peak.0, 2 * sc.effective_limit());
    assert_eq!(f.busiest.0, sc.effective_limit(), "each window on its own holds the limit");
    has(&text, &format!("but {} passed", f.peak.0));
    has(&text, "2× the limit");
}

#[test]
fn the_sliding_window_counter_is_an_estimate_close_to_the_exact_log() {
    let (sc, f, text) = at(3);
    let exact = figures(&Scenario { algo: ratelimit_playground::sim::Algorithm::SlidingLog, ..sc.clone() });
    assert_eq!(exact.peak.0, sc.effective_limit(), "the exact log never exceeds the limit");
    assert!(f.peak.0 > sc.effective_limit() && f.peak.0 < 2 * sc.effective_limit(), "{f:?}");
    assert_ne!(f.admitted, exact.admitted, "the approximation shows in the totals");
    has(&text, &format!("was {} (the limit is {})", f.peak.0, sc.effective_limit()));
    has(&text, &format!("({})", exact.admitted));
}

#[test]
fn the_bucket_refuses_at_the_first_arrival_short_of_a_whole_token() {
    let (sc, f, text) = at(4);
    let (c, r, l) = (sc.capacity as f64, sc.refill.as_per_sec(), sc.rate.as_per_sec());
    let first = f.first_rejection.unwrap().as_secs_f64();
    // Between running short of a whole token and running dry, at the next arrival after it.
    assert!((c - 1.0) / (l - r) <= first && first < c / (l - r), "{first}");
    assert!(first - (c - 1.0) / (l - r) <= 1.0 / l);
    has(&text, "the first 429 comes at 3.12 s");
    has(&text, "= 3 s");
    let ratio = f.admitted as f64 / (f.admitted + f.rejected) as f64;
    assert!(ratio > r / l && ratio < r / l + 0.1, "the burst puts the run above the steady state, a little");
}

#[test]
fn per_node_counters_admit_the_limit_once_per_node() {
    let (sc, f, text) = at(5);
    assert!(is_cluster(&sc) && sc.nodes == 2);
    assert_eq!(f.admitted, u64::from(sc.nodes) * f.reference_admitted);
    has(&text, &format!("that is {} where one counter admits {}", f.admitted, f.reference_admitted));
    has(&text, "2× the limit");
}

#[test]
fn get_then_set_loses_updates_and_over_admits() {
    let (_, f, text) = at(6);
    assert!(f.lost_updates > 0 && f.over_admitted > 0, "{f:?}");
    has(&text, &format!("{} updates lost", group(f.lost_updates)));
    has(&text, &format!("{} requests admitted beyond the limit", group(f.over_admitted as u64)));
}

#[test]
fn the_atomic_script_is_exact_at_a_round_trip_a_request() {
    let (sc, f, text) = at(7);
    assert_eq!(f.over_admitted, 0);
    assert_eq!(f.admitted, f.reference_admitted);
    assert_eq!(Nanos(f.median_latency_ns), sc.rtt, "each decision waits one round trip");
    has(&text, "over-admitted 0");
    has(&text, "a median decision time of 20 ms");
}

#[test]
fn the_edge_overshoots_by_ten_to_fifteen_percent() {
    let (_, f, text) = at(8);
    let over = 100.0 * f.over_admitted as f64 / f.reference_admitted as f64;
    assert!((10.0..=15.0).contains(&over), "{over:.1} %");
    has(&text, &format!("{over:.1} % over"));
}

#[test]
fn failing_open_loses_the_limit_and_failing_closed_refuses_everyone() {
    let (sc, _, text) = at(9);
    let outage = sc.outage.unwrap();
    assert_eq!((outage.start, outage.end), (SimTime::from_secs(10), SimTime::from_secs(20)));
    let during = |f: &Figures| f.admitted_per_s[10..20].iter().sum::<u64>();
    let open = figures(&Scenario { fail: FailMode::Open, ..sc.clone() });
    let closed = figures(&Scenario { fail: FailMode::Closed, ..sc.clone() });
    let allowed = sc.effective_limit() * 10;
    assert!(during(&open) > allowed, "{}", during(&open));
    assert_eq!(during(&closed), 0);
    has(
        &text,
        &format!("they admitted {} in those 10 seconds, where the limit allows {allowed}", group(during(&open))),
    );
    has(&text, "Failing closed, they admitted 0");
}

#[test]
fn retries_at_retry_after_come_in_waves_that_jitter_spreads() {
    let (sc, _, text) = at(10);
    let fine = Scenario { bucket: WAVE_BUCKET, ..sc.clone() };
    let exact = figures(&Scenario { retry: RetryPolicy::Exact, ..fine.clone() });
    let spread = figures(&Scenario { retry: RetryPolicy::Jitter, ..fine });
    assert!(exact.busiest.1 > 3 * spread.busiest.1, "{} against {}", exact.busiest.1, spread.busiest.1);
    assert!(spread.rejected < exact.rejected);
    has(&text, &format!("held {} requests", exact.busiest.1));
    has(&text, &format!("{} at the busiest, {} refused", spread.busiest.1, group(spread.rejected)));
}

#[test]
fn the_words_follow_the_engine_not_numbers_typed_into_them() {
    for (i, s) in STEPS.iter().enumerate() {
        let mut other = s.scenario();
        other.duration = Nanos::from_secs(20);
        other.rate = Rate::per_sec(other.rate.as_per_sec() as u64 + 7);
        other.limit = other.limit.map(|l| l + 5);
        other.capacity += 5;
        assert_ne!((s.lesson)(&other), s.watch(), "step {}: its words do not change with its scenario", i + 1);
    }
}

#[test]
fn the_steps_run_in_the_order_people_learn_them() {
    let cluster: Vec<bool> = STEPS.iter().map(|s| s.multi_node()).collect();
    assert_eq!(cluster, [false, false, false, false, true, true, true, true, true, false]);
    assert!(STEPS.iter().all(|s| s.scenario().validate().is_ok()));
    assert_eq!(STEPS[5].chart, Chart::Swimlane);
    assert!(step(0).is_none() && step(STEPS.len() + 1).is_none());
}

#[test]
fn a_tour_link_opens_its_step_and_bad_steps_are_named() {
    let base = Scenario::default();
    let (link, problems) = Link::read(&format!("?{}", tour_query(6)), &base);
    assert_eq!((link.tour, link.scenario), (Some(6), STEPS[5].scenario()));
    assert!(problems.is_empty());
    let (link, problems) = Link::read("?tour=path&step=99", &base);
    assert_eq!(link.tour, Some(10));
    assert_eq!(
        problems[0].notice().to_string(),
        "step: 99 is out of range; allowed: from 1 to 10; using 10",
        "{problems:?}"
    );
    let (link, problems) = Link::read("?tour=path&step=two", &base);
    assert_eq!(link.tour, Some(1));
    assert!(problems[0].notice().to_string().starts_with("step: 'two' is not a number"), "{problems:?}");
    let (link, problems) = Link::read("?tour=scenic", &base);
    assert_eq!(link.tour, None);
    assert_eq!(problems[0].notice().to_string(), "tour: 'scenic' is not one of path; ignored", "{problems:?}");
    assert_eq!(Link::read("?step=3", &base).0.tour, Some(3), "there is one tour: a step opens it");
    assert_eq!(Link::read("?embed=1&tour=path", &base).0.tour, None, "a frame shows no tour");
}

fn group(n: u64) -> String {
    ratelimit_playground::present::units::group_thousands(n)
}
