//! [`replay`]: requests a limiter admitted, at the times it admitted them, through a
//! [`Backend`] — the sizing assistant's other side (issue #37): how long would the server behind
//! this policy take to answer this log? Clients here neither give up nor retry: the question is
//! the server's latency under the load the policy lets through.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{Admitted, Backend, Job, ServerConfig, ServerStats};
use crate::sim::rng::SimRng;
use crate::sim::time::{Nanos, SimTime};

/// What the server does with requests arriving at `admitted` (in time order), drawing its
/// service times from `rng`: every one finished or shed.
///
/// ```
/// use ratelimit_playground::sim::{Scenario, SimRng, SimTime};
/// use ratelimit_playground::sim::server::{replay, ServerConfig};
/// let cfg = ServerConfig::of(&Scenario::from_query("workers=1&service=10&service_dist=const").unwrap().product).unwrap();
/// // Three at once: answered at 10, 20 and 30 ms.
/// let s = replay(cfg, SimRng::new(1), &[SimTime::ZERO; 3]);
/// assert_eq!((s.served, s.latency.sum()), (3, 60_000_000));
/// ```
pub fn replay(cfg: ServerConfig, rng: SimRng, admitted: &[SimTime]) -> ServerStats {
    let mut server = Backend::new(cfg, rng, Nanos::from_secs(1));
    // Finishing requests by (time, id): ties in the order they were handed over.
    let mut done: BinaryHeap<Reverse<(SimTime, u64, SimTime, SimTime)>> = BinaryHeap::new();
    let finish_until = |server: &mut Backend, done: &mut BinaryHeap<_>, limit: Option<SimTime>| {
        while let Some(&Reverse((at, id, sent, queued))) = done.peek() {
            if limit.is_some_and(|l| at > l) {
                break;
            }
            done.pop();
            if let Some((next, then)) = server.finish(at, Job { id, sent, queued }) {
                done.push(Reverse((then, next.id, next.sent, next.queued)));
            }
        }
    };
    for (id, &at) in admitted.iter().enumerate() {
        finish_until(&mut server, &mut done, Some(at));
        let job = Job { id: id as u64, sent: at, queued: at };
        if let Admitted::Started(then) = server.arrive(at, job) {
            done.push(Reverse((then, job.id, at, at)));
        }
    }
    finish_until(&mut server, &mut done, None);
    server.stats().clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Scenario;

    #[test]
    fn a_replay_of_poisson_arrivals_waits_as_m_m_1() {
        let cfg = ServerConfig::of(&Scenario::from_query("workers=1&service=10&server_queue=1000000").unwrap().product)
            .unwrap();
        let mut rng = SimRng::new(4);
        let mut t = 0;
        let arrivals: Vec<SimTime> = (0..200_000)
            .map(|_| {
                t += rng.exponential(20_000_000.0); // 50 a second: ρ = 0.5
                SimTime(t)
            })
            .collect();
        let s = replay(cfg, SimRng::new(5), &arrivals);
        assert_eq!((s.served, s.shed), (200_000, 0));
        assert!((s.wait.mean_ms() / 10.0 - 1.0).abs() < 0.03, "{}", s.wait.mean_ms());
        assert_eq!(s.queue_area, s.wait.sum(), "Little's law");
    }
}
