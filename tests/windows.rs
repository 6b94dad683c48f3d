//! Window algorithms at the seam: the fixed window admits 2 × limit across one boundary, the
//! sliding window counter and the sliding log do not.

mod common;
use common::run;

fn seam(algo: &str) -> u64 {
    // One seam attack: 100 just before t = 60 s and 100 just after; the run ends before the next.
    run(&format!("algo={algo}&traffic=seam&limit=100&window=60&duration=61")).admitted
}

#[test]
fn fixed_window_admits_twice_the_limit_across_one_boundary() {
    assert_eq!(seam("fixed_window"), 200);
}

#[test]
fn sliding_log_admits_exactly_the_limit_across_the_boundary() {
    assert_eq!(seam("sliding_log"), 100);
}

#[test]
fn sliding_window_counter_stays_near_the_limit_across_the_boundary() {
    // Its estimate weights the previous window by (1 − elapsed/window) ≥ 0.98 during the burst
    // after the boundary, so it can admit only the share that has decayed: at most 2 % more.
    let admitted = seam("sliding_window");
    assert!((100..=102).contains(&admitted), "{admitted}");
}

#[test]
fn windows_derive_limit_and_window_from_the_bucket_for_a_fair_comparison() {
    let rep = run("algo=fixed_window&capacity=10&refill=5");
    assert_eq!((rep.effective_limit, rep.effective_window_s), (10, 2.0));
}

#[test]
fn every_window_algorithm_converges_on_the_same_long_run_rate() {
    for algo in ["fixed_window", "sliding_window", "sliding_log", "token_bucket", "gcra"] {
        let rep = run(&format!("algo={algo}&capacity=100&refill=50&rate=200&duration=1000"));
        assert!((rep.pass_ratio - 0.25).abs() < 0.01, "{algo}: {}", rep.pass_ratio);
    }
}

#[test]
fn sliding_window_counter_under_steady_overload_admits_one_less_than_the_limit_per_window() {
    // The previous window weighs fully at each window's start and the "+1 ≤ limit" test needs a
    // whole request of room, so a saturated counter settles at limit − 1 per window: with a
    // limit of 10 that is 9 per 2 s, a pass ratio of 0.225 where the other algorithms give 0.25.
    let rep = run("algo=sliding_window&capacity=10&refill=5&rate=20&duration=1000");
    assert!((rep.pass_ratio - 0.225).abs() < 0.001, "{}", rep.pass_ratio);
}
