//! The cluster's numbers as the view shows them, read from the running engine: admitted against
//! what one exact limiter admits on the same arrivals, admitted per node, decision latency, and
//! how much quota a limiter state has left. Every value is the engine's; nothing is decided.

use crate::present::options::is_windowed;
use crate::present::units::{format_secs, group_thousands};
use crate::sim::{Gauge, Nanos, Scenario, Simulation};

/// The share of its quota a limiter state has left, 0–1: tokens ÷ capacity for the buckets,
/// 1 − count ÷ limit for the windows.
///
/// ```
/// use ratelimit_playground::present::cluster::readout::quota_left;
/// use ratelimit_playground::sim::{Gauge, Scenario};
/// let g = |level| Gauge { level, ..Gauge::default() };
/// assert_eq!(quota_left(&Scenario::default(), &g(2.5)), 0.25);
/// let windows = Scenario::from_query("algo=fixed_window&limit=4").unwrap();
/// assert_eq!(quota_left(&windows, &g(3.0)), 0.25);
/// ```
pub fn quota_left(sc: &Scenario, gauge: &Gauge) -> f64 {
    let left = if is_windowed(sc.algo) {
        1.0 - gauge.level / sc.effective_limit().max(1) as f64
    } else {
        gauge.level / sc.capacity.max(1) as f64
    };
    left.clamp(0.0, 1.0)
}

/// A decision latency for display, in µs below a millisecond.
///
/// ```
/// use ratelimit_playground::present::cluster::readout::format_latency;
/// use ratelimit_playground::sim::Nanos;
/// assert_eq!(format_latency(Nanos::ZERO), "0 ms");
/// assert_eq!(format_latency(Nanos(50_000)), "50 µs");
/// assert_eq!(format_latency(Nanos::from_millis(40)), "40 ms");
/// ```
pub fn format_latency(n: Nanos) -> String {
    let s = n.as_secs_f64();
    if n.as_nanos() > 0 && s < 1e-3 {
        format!("{:.0} µs", s * 1e6)
    } else {
        format_secs(s)
    }
}

/// Counts since t = 0 and the latency of every decision so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClusterReadout {
    /// Requests that reached the load balancer, retries included.
    pub requests: u64,
    /// Admitted by the nodes.
    pub admitted: u64,
    /// What one exact limiter of the same algorithm admits on the same arrivals.
    pub reference: u64,
    /// SETs that overwrote an update they had not read (store = race).
    pub lost_updates: u64,
    /// Decisions made after the store did not answer in time.
    pub timeouts: u64,
    /// Retries of rejected requests.
    pub retries: u64,
    /// Median decision latency (arrival at the node to answer).
    pub p50: Nanos,
    /// 99th-percentile decision latency.
    pub p99: Nanos,
    /// Admitted per node, one entry per node.
    pub node_admitted: Vec<u64>,
    /// With a replica (`failover`, `store=replica_read`): the increments a failover lost and the
    /// reads that missed an increment.
    pub replica: Option<(u64, u64)>,
}

impl ClusterReadout {
    /// The numbers of `sim` now.
    pub fn of(sim: &Simulation) -> Self {
        let m = sim.metrics();
        let t = m.totals;
        let nodes = (sim.scenario().nodes as usize).clamp(1, m.node_admitted.len());
        ClusterReadout {
            requests: t.requests,
            admitted: t.admitted,
            reference: t.reference_admitted,
            lost_updates: t.lost_updates,
            timeouts: t.timeouts,
            retries: t.retries,
            p50: m.latency.percentile(50.0),
            p99: m.latency.percentile(99.0),
            node_admitted: m.node_admitted[..nodes].to_vec(),
            replica: sim.replica().map(|r| (r.lost_increments, r.stale_reads)),
        }
    }

    /// Admitted beyond one exact limiter (negative: fewer).
    pub fn over_admitted(&self) -> i64 {
        self.admitted as i64 - self.reference as i64
    }

    /// Admitted ÷ what one exact limiter admits: 1.0 is exact, 4.0 is four times the limit.
    /// `None` until the exact limiter has admitted anything.
    ///
    /// ```
    /// use ratelimit_playground::present::cluster::readout::ClusterReadout;
    /// let r = ClusterReadout { admitted: 111, reference: 100, ..Default::default() };
    /// assert!((r.ratio().unwrap() - 1.11).abs() < 1e-12);
    /// assert_eq!(ClusterReadout::default().ratio(), None);
    /// ```
    pub fn ratio(&self) -> Option<f64> {
        (self.reference > 0).then(|| self.admitted as f64 / self.reference as f64)
    }

    /// Over-admission for display, signed.
    ///
    /// ```
    /// use ratelimit_playground::present::cluster::readout::ClusterReadout;
    /// let r = |admitted, reference| ClusterReadout { admitted, reference, ..Default::default() };
    /// assert_eq!(r(1545, 309).over_label(), "+1,236");
    /// assert_eq!(r(309, 309).over_label(), "0");
    /// assert_eq!(r(118, 159).over_label(), "−41");
    /// ```
    pub fn over_label(&self) -> String {
        let over = self.over_admitted();
        let sign = match over {
            o if o > 0 => "+",
            o if o < 0 => "−",
            _ => "",
        };
        format!("{sign}{}", group_thousands(over.unsigned_abs()))
    }

    /// What over-admission below zero means, when it is: the cluster refused requests one exact
    /// limiter admits on the same arrivals, and what in `sc` refused them.
    ///
    /// ```
    /// use ratelimit_playground::present::cluster::readout::ClusterReadout;
    /// use ratelimit_playground::sim::Scenario;
    /// let sc = Scenario::from_query("nodes=4&store=atomic&outage=5-15&fail=closed").unwrap();
    /// let r = ClusterReadout { admitted: 90, reference: 100, ..Default::default() };
    /// assert!(r.below_zero(&sc).unwrap().starts_with("Below zero: the cluster admitted 10 fewer"));
    /// assert!(ClusterReadout { admitted: 100, reference: 100, ..Default::default() }.below_zero(&sc).is_none());
    /// ```
    pub fn below_zero(&self, sc: &crate::sim::Scenario) -> Option<String> {
        use crate::sim::{FailMode, StoreMode};
        let fewer = (-self.over_admitted()).try_into().ok().filter(|&n: &u64| n > 0)?;
        let split = crate::sim::shards::keys(sc) > 1;
        let why = if sc.outage.is_some() && sc.fail == FailMode::Closed && sc.store != StoreMode::Async {
            " — while the store was down every node failed closed and refused requests the limit allows"
        } else if split {
            " — the limit is split over keys whose shares fill unevenly, so one key refuses while another has room"
        } else {
            ""
        };
        Some(format!(
            "Below zero: the cluster admitted {} fewer than one exact limiter on the same arrivals{why}.",
            group_thousands(fewer)
        ))
    }

    /// Why round robin left the admissions per node uneven, where it did, in the engine's
    /// numbers: with evenly spaced arrivals a bucket's token comes back every λ ÷ r arrivals, and
    /// when that count shares a factor with the node count, the turn a refill lands on cycles
    /// through only some of the nodes. `None` where the split is even (every node took at least
    /// half an equal share) or has another cause.
    ///
    /// ```
    /// use ratelimit_playground::present::cluster::readout::ClusterReadout;
    /// use ratelimit_playground::sim::Scenario;
    /// let sc = Scenario::from_query("nodes=4&store=atomic&rate=100").unwrap();
    /// let r = ClusterReadout { admitted: 309, node_admitted: vec![302, 3, 2, 2], ..Default::default() };
    /// let why = r.uneven_split(&sc).unwrap();
    /// assert!(why.starts_with("1 of 4 nodes took 98 % of the admissions"), "{why}");
    /// assert!(why.contains("a token comes back every 20 arrivals"), "{why}");
    /// let even = ClusterReadout { admitted: 309, node_admitted: vec![85, 75, 75, 74], ..Default::default() };
    /// assert!(even.uneven_split(&sc).is_none());
    /// ```
    pub fn uneven_split(&self, sc: &Scenario) -> Option<String> {
        use crate::sim::{Balancer, TrafficShape};
        let n = self.node_admitted.len() as u64;
        let total: u64 = self.node_admitted.iter().sum();
        let even =
            sc.lb != Balancer::RoundRobin || sc.traffic != TrafficShape::Constant || sc.algo.is_window(&sc.product);
        if even || n < 2 || total < 4 * n {
            return None;
        }
        // A busy node took at least half an equal share.
        let busy: Vec<u64> = self.node_admitted.iter().copied().filter(|&a| a * n * 2 >= total).collect();
        let per_token = sc.rate.as_per_sec() / sc.allowed_rate();
        let k = per_token.round() as u64;
        if busy.len() as u64 == n || k < 2 || (per_token - k as f64).abs() > 1e-9 || gcd(k, n) == 1 {
            return None;
        }
        let share = busy.iter().sum::<u64>() as f64 * 100.0 / total as f64;
        Some(format!(
            "{} of {n} nodes took {share:.0} % of the admissions. Round robin gives each node every {n}th arrival, \
             and at a constant {} requests/s against {} allowed a token comes back every {k} arrivals: {k} and {n} \
             share a factor, so a refill lands on the same turns of the rotation each time. Poisson arrivals or a \
             random balancer spread it.",
            busy.len(),
            crate::present::units::format_number(sc.rate.as_per_sec()),
            crate::present::units::format_number(sc.allowed_rate()),
        ))
    }

    /// Over-admission as a share of the exact limiter's admissions, and the ratio between them.
    ///
    /// ```
    /// use ratelimit_playground::present::cluster::readout::ClusterReadout;
    /// let r = |admitted, reference| ClusterReadout { admitted, reference, ..Default::default() };
    /// assert_eq!(r(1545, 309).share_label(), "+400.0 % · 5.00 × one exact limiter");
    /// assert_eq!(r(118, 159).share_label(), "−25.8 % · 0.74 × one exact limiter");
    /// assert_eq!(r(0, 0).share_label(), "nothing admitted yet");
    /// ```
    pub fn share_label(&self) -> String {
        let Some(ratio) = self.ratio() else { return "nothing admitted yet".into() };
        let percent = (ratio - 1.0) * 100.0;
        let sign = if percent > 0.0 {
            "+"
        } else if percent < 0.0 {
            "−"
        } else {
            ""
        };
        format!("{sign}{:.1} % · {ratio:.2} × one exact limiter", percent.abs())
    }
}

/// The greatest common divisor of `a` and `b`.
fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Scenario, SimTime};

    fn run(q: &str, secs: u64) -> Simulation {
        let mut sim = Simulation::with_history(&Scenario::from_query(q).unwrap(), 120);
        sim.step_until(SimTime::from_secs(secs));
        sim
    }

    #[test]
    fn round_robin_on_evenly_spaced_arrivals_admits_on_the_refill_s_turns_and_poisson_or_random_spreads_it() {
        let why = |q: &str| ClusterReadout::of(&run(q, 60)).uneven_split(&Scenario::from_query(q).unwrap());
        // 100/s against 5/s: a token every 20 arrivals, a multiple of 4 turns: one node's.
        let one = why("nodes=4&store=atomic&rtt=20&rate=100").expect("uneven");
        assert!(one.starts_with("1 of 4 nodes took 9"), "{one}");
        // 90/s: every 18 arrivals, 18 and 4 share 2: two nodes.
        let two = why("nodes=4&store=atomic&rtt=20&rate=90").expect("uneven");
        assert!(two.starts_with("2 of 4 nodes took 9"), "{two}");
        // 20 and 3 share nothing: the refills visit every node.
        assert_eq!(why("nodes=3&store=atomic&rtt=20&rate=100"), None);
        // What the sentence promises: Poisson arrivals or a random balancer spread it.
        assert_eq!(why("nodes=4&store=atomic&rtt=20&rate=100&traffic=poisson"), None);
        assert_eq!(why("nodes=4&store=atomic&rtt=20&rate=100&lb=random"), None);
        for q in
            ["nodes=4&store=atomic&rtt=20&rate=100&traffic=poisson", "nodes=4&store=atomic&rtt=20&rate=100&lb=random"]
        {
            let r = ClusterReadout::of(&run(q, 60));
            let total: u64 = r.node_admitted.iter().sum();
            assert!(r.node_admitted.iter().all(|&a| a * 4 * 2 >= total), "{q}: {:?}", r.node_admitted);
        }
    }

    #[test]
    fn unshared_limiters_admit_about_n_times_the_exact_limiter() {
        let r = ClusterReadout::of(&run("nodes=4&store=local&rate=100", 60));
        let ratio = r.ratio().unwrap();
        assert!((3.8..=4.2).contains(&ratio), "{ratio}");
        assert_eq!(r.node_admitted.len(), 4);
        assert_eq!(r.node_admitted.iter().sum::<u64>(), r.admitted);
        assert_eq!((r.p50, r.p99), (Nanos::ZERO, Nanos::ZERO), "a local decision costs no round trip");
    }

    #[test]
    fn the_race_costs_two_round_trips_for_an_admission_and_the_script_one() {
        let race = ClusterReadout::of(&run("nodes=4&store=race&rtt=10&rate=3", 60));
        assert_eq!(race.p99, Nanos::from_millis(20));
        let atomic = ClusterReadout::of(&run("nodes=4&store=atomic&rtt=10&rate=3", 60));
        assert_eq!((atomic.p50, atomic.p99), (Nanos::from_millis(10), Nanos::from_millis(10)));
    }
}
