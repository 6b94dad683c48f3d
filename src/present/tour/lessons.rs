//! What to watch in each step of the tour, written from the engine's run of the step's scenario:
//! every number in these sentences is counted by the engine, never typed into the text, so a
//! change to the engine or to a step's scenario changes the words with it. [`Figures`] is what
//! the sentences are written from; `tests/tour.rs` holds each step's claim against them.

use crate::present::units::{format_number, format_percent, format_secs, group_thousands};
use crate::sim::report::simulate;
use crate::sim::{FailMode, Nanos, RetryPolicy, Scenario, SimTime};

/// What one run of a step's scenario counted.
#[derive(Clone, Debug, PartialEq)]
pub struct Figures {
    /// Requests that reached the limiter, retries included.
    pub requests: u64,
    /// Admitted.
    pub admitted: u64,
    /// Refused (429).
    pub rejected: u64,
    /// Retries of a refused request.
    pub retries: u64,
    /// Admitted beyond what one exact limiter admits on the same arrivals (negative: fewer).
    pub over_admitted: i64,
    /// What one exact limiter admits on the same arrivals.
    pub reference_admitted: u64,
    /// Writes lost to a racing SET.
    pub lost_updates: u64,
    /// The most admitted in any interval one window long, and when that interval ended.
    pub peak: (u64, SimTime),
    /// The first refusal.
    pub first_rejection: Option<SimTime>,
    /// The most admitted in one of the series' buckets (one window's length for the windowed
    /// steps), and the most requests that arrived in one.
    pub busiest: (u64, u64),
    /// Admitted in each second of the run.
    pub admitted_per_s: Vec<u64>,
    /// The median decision latency in ns (a round trip to the store, where there is one).
    pub median_latency_ns: u64,
}

/// Runs `sc` for its duration and counts what the tour's sentences need.
///
/// ```
/// use ratelimit_playground::present::tour::lessons::figures;
/// use ratelimit_playground::sim::Scenario;
/// let f = figures(&Scenario::from_query("algo=fixed_window&limit=10&window=1&traffic=seam&duration=4").unwrap());
/// assert_eq!(f.peak.0, 20);
/// ```
pub fn figures(sc: &Scenario) -> Figures {
    let sim = simulate(sc, |_| ()).expect("a tour scenario runs");
    let m = sim.metrics();
    let t = &m.totals;
    let per_bucket: Vec<_> = m.buckets().filter(|b| b.start.as_nanos() < sc.duration.as_nanos()).collect();
    let busiest = (
        per_bucket.iter().map(|b| b.admitted).max().unwrap_or(0),
        per_bucket.iter().map(|b| b.requests).max().unwrap_or(0),
    );
    let seconds = sc.duration.ceil_secs() as usize;
    let mut admitted_per_s = vec![0; seconds];
    for b in &per_bucket {
        let s = (b.start.as_nanos() / 1_000_000_000) as usize;
        if let Some(slot) = admitted_per_s.get_mut(s) {
            *slot += b.admitted;
        }
    }
    Figures {
        requests: t.requests,
        admitted: t.admitted,
        rejected: t.rejected,
        retries: t.retries,
        over_admitted: t.over_admitted(),
        reference_admitted: t.reference_admitted,
        lost_updates: t.lost_updates,
        peak: sim.peak_in_window(),
        first_rejection: t.first_rejection,
        busiest,
        admitted_per_s,
        median_latency_ns: m.latency.percentile(0.5).as_nanos(),
    }
}

/// A count as the page writes it: "1,234".
fn n(v: u64) -> String {
    group_thousands(v)
}

/// Simulated time as the page writes it, whole seconds without decimals ("30 s", "3.12 s",
/// "20 ms").
fn secs(ns: u64) -> String {
    if ns >= 1_000_000_000 && ns.is_multiple_of(1_000_000_000) {
        format!("{} s", group_thousands(ns / 1_000_000_000))
    } else {
        format_secs(ns as f64 / 1e9)
    }
}

/// Per second, over the run.
fn per_s(count: u64, sc: &Scenario) -> String {
    format_number(count as f64 / sc.duration.as_secs_f64())
}

/// Step 1: a fixed window on one server holds its limit in every window.
pub fn counter(sc: &Scenario) -> String {
    let f = figures(sc);
    let limit = sc.effective_limit();
    format!(
        "The limiter everyone writes first: a counter per client that a timer sets back to zero every {}, \
         refusing once it reaches {limit}. At {} requests a second it admitted {} of {} in {}, never more \
         than {} in one of the timer's windows. On one server, that is all it has to do.",
        secs(sc.effective_window().as_nanos()),
        format_number(sc.rate.as_per_sec()),
        n(f.admitted),
        n(f.requests),
        secs(sc.duration.as_nanos()),
        n(f.busiest.0),
    )
}

/// Step 2: the fixed window's seam lets twice the limit through within one window's length.
pub fn seam(sc: &Scenario) -> String {
    let f = figures(sc);
    let limit = sc.effective_limit();
    let window = secs(sc.effective_window().as_nanos());
    format!(
        "The same counter, and a client that sends {limit} requests just before the timer fires and {limit} just \
         after. Each window, counted on its own, holds {}, within the limit; but {} passed in less than {window} \
         (the marked seam, at {}): {}× the limit “{limit} per {window}” promises.",
        n(f.busiest.0),
        n(f.peak.0),
        secs(f.peak.1.as_nanos()),
        format_number(f.peak.0 as f64 / limit as f64),
    )
}

/// Step 3: the sliding window counter estimates the last window by weighting its count.
pub fn sliding(sc: &Scenario) -> String {
    let f = figures(sc);
    let limit = sc.effective_limit();
    let window = secs(sc.effective_window().as_nanos());
    let exact = figures(&Scenario { algo: crate::sim::Algorithm::SlidingLog, ..sc.clone() });
    let compared = match f.admitted.cmp(&exact.admitted) {
        std::cmp::Ordering::Equal => "exactly as many as".to_string(),
        std::cmp::Ordering::Greater => format!("{} more than", n(f.admitted - exact.admitted)),
        std::cmp::Ordering::Less => format!("{} fewer than", n(exact.admitted - f.admitted)),
    };
    format!(
        "No timer: the sliding window counter adds this window's count to the last window's, weighted by how much \
         of the last window still overlaps. It assumes the last window's requests came evenly, so it is an \
         estimate: here the most it let through in any {window} was {} (the limit is {limit}), and it admitted \
         {} in {}, {compared} an exact log of every request ({}), with two counters instead of up to {limit} \
         timestamps.",
        n(f.peak.0),
        n(f.admitted),
        secs(sc.duration.as_nanos()),
        n(exact.admitted),
    )
}

/// Step 4: the token bucket's burst, its first 429 and its steady state.
pub fn bucket(sc: &Scenario) -> String {
    let f = figures(sc);
    let (c, r, l) = (sc.capacity, sc.refill.as_per_sec(), sc.rate.as_per_sec());
    let first = f.first_rejection.map_or("never".to_string(), |t| format!("at {}", secs(t.as_nanos())));
    format!(
        "A bucket of {c} tokens, refilled at {} a second; each request takes one. At {} requests a second the \
         first ones pass on the stored tokens and the first 429 comes {first}: a request needs a whole token, so \
         the bucket refuses once fewer than one is left, after ({c} − 1) ÷ ({} − {}) = {} s, at the next arrival. \
         From then on it admits the refill rate: over {} {} of requests passed, the burst included, on their way \
         to refill ÷ arrival = {}.",
        format_number(r),
        format_number(l),
        format_number(l),
        format_number(r),
        format_number(sc.short_of_a_token().unwrap_or(f64::NAN)),
        secs(sc.duration.as_nanos()),
        format_percent(f.admitted as f64 / (f.admitted + f.rejected).max(1) as f64),
        format_percent(r / l),
    )
}

/// Step 5: per-node counters admit N times the limit.
pub fn per_node(sc: &Scenario) -> String {
    let f = figures(sc);
    let limit = sc.effective_limit();
    format!(
        "{} servers behind a load balancer, each with its own counter of {limit} a second: each sees part of the \
         traffic and admits up to {limit} of it, so together they admitted {} a second. Over {} that is {} where one \
         counter admits {}: {}× the limit, and each server's count looks right.",
        sc.nodes,
        per_s(f.admitted, sc),
        secs(sc.duration.as_nanos()),
        n(f.admitted),
        n(f.reference_admitted),
        format_number(f.admitted as f64 / f.reference_admitted.max(1) as f64),
    )
}

/// Step 6: GET then SET over a round trip loses updates and over-admits.
pub fn race(sc: &Scenario) -> String {
    let f = figures(sc);
    format!(
        "{} servers now keep one count in Redis: each GETs it, decides, and SETs it back a {} round trip later. \
         Requests that overlap read the same count, and the later SET overwrites the earlier: {} updates lost and \
         {} requests admitted beyond the limit in {} — {} more than one counter admits ({}). The swimlane shows \
         each GET and SET in flight.",
        sc.nodes,
        secs(sc.rtt.as_nanos()),
        n(f.lost_updates),
        n(f.over_admitted.max(0) as u64),
        secs(sc.duration.as_nanos()),
        format_percent(f.over_admitted as f64 / f.reference_admitted.max(1) as f64),
        n(f.reference_admitted),
    )
}

/// Step 7: the atomic script is exact and costs a round trip a request.
pub fn atomic(sc: &Scenario) -> String {
    let f = figures(sc);
    format!(
        "The same {} servers send the check and the count as one script (EVALSHA); Redis runs one script at a \
         time, so no two requests read the same count. It admitted {}, exactly what one counter admits ({}): \
         over-admitted {}. The price is a round trip on every request: {} of them, a median decision time of {}.",
        sc.nodes,
        n(f.admitted),
        n(f.reference_admitted),
        f.over_admitted,
        n(f.requests),
        secs(f.median_latency_ns),
    )
}

/// Step 8: the edge design decides locally and over-admits by its sync delay.
pub fn edge(sc: &Scenario) -> String {
    let f = figures(sc);
    format!(
        "{} servers decide on their own copy of the count and send their counts to the store in the background \
         ({} round trip): no request waits for the store, but each copy is a little late. Over {} they admitted \
         {} where one counter admits {}: {} over, the 10–15 % overshoot such designs accept for never waiting.",
        sc.nodes,
        secs(sc.rtt.as_nanos()),
        secs(sc.duration.as_nanos()),
        n(f.admitted),
        n(f.reference_admitted),
        format_percent(f.over_admitted as f64 / f.reference_admitted.max(1) as f64),
    )
}

/// Admitted in the seconds `[from, to)` of a run.
fn admitted_between(f: &Figures, from: u64, to: u64) -> u64 {
    f.admitted_per_s.iter().skip(from as usize).take(to.saturating_sub(from) as usize).sum()
}

/// Step 9: the store down, failing open against failing closed.
pub fn outage(sc: &Scenario) -> String {
    let Some(o) = sc.outage else { return String::new() };
    let (from, to) = (o.start.as_nanos() / 1_000_000_000, o.end.as_nanos() / 1_000_000_000);
    let open = figures(&Scenario { fail: FailMode::Open, ..sc.clone() });
    let closed = figures(&Scenario { fail: FailMode::Closed, ..sc.clone() });
    let allowed = sc.effective_limit() * (to - from) / sc.effective_window().ceil_secs().max(1);
    format!(
        "The store is down from {from} s to {to} s. Each server waits {} for it, then decides without it. \
         Failing open, they admitted {} in those {} seconds, where the limit allows {allowed}: the limit is gone, \
         your users are not. Failing closed, they admitted {}: the backend is safe, and every user gets a 429. \
         Neither is the limit; pick by what hurts more.",
        secs(sc.timeout.as_nanos()),
        n(admitted_between(&open, from, to)),
        to - from,
        n(admitted_between(&closed, from, to)),
    )
}

/// The buckets the retries' waves are counted in.
pub const WAVE_BUCKET: Nanos = Nanos::from_millis(100);

/// Step 10: clients retrying at Retry-After come back together; headroom and jitter spread them.
pub fn retries(sc: &Scenario) -> String {
    // Counted in tenths of a second: a wave is narrower than the chart's one-second buckets.
    let fine = Scenario { bucket: WAVE_BUCKET, ..sc.clone() };
    let exact = figures(&Scenario { retry: RetryPolicy::Exact, ..fine.clone() });
    let spread = figures(&Scenario { retry: RetryPolicy::Jitter, ..fine });
    let bucket = secs(WAVE_BUCKET.as_nanos());
    format!(
        "{} clients, and each one refused retries exactly when Retry-After says: at the start of the next window, \
         all at once, on top of that window's new requests. The busiest {bucket} held {} requests (about {} on \
         average); {} of the {} requests were retries, and {} were refused. Wait Retry-After plus {} of headroom and up to {} of \
         jitter instead (retry=jitter) and they spread out: {} at the busiest, {} refused.",
        sc.clients,
        n(exact.busiest.1),
        format_number(exact.requests as f64 * WAVE_BUCKET.as_secs_f64() / sc.duration.as_secs_f64()),
        n(exact.retries),
        n(exact.requests),
        n(exact.rejected),
        secs(sc.headroom.as_nanos()),
        secs(sc.jitter.as_nanos()),
        n(spread.busiest.1),
        n(spread.rejected),
    )
}
