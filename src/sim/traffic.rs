//! Arrival processes: when new requests reach the load balancer.
//!
//! [`Arrivals`] yields arrival instants in non-decreasing order, lazily, so a run of any length
//! holds only the next arrival in memory. Retries are not arrivals: see [`super::retry`].

use super::rate::TOKEN;
use super::rng::SimRng;
use super::scenario::{Scenario, TrafficShape};
use super::tables::{tables, Tables};
use super::trace::Trace;
use std::sync::Arc;

/// The stream of new-request arrival times of one run.
#[derive(Clone, Debug)]
pub struct Arrivals {
    shape: Shape,
    /// Arrivals produced so far.
    count: u64,
}

#[derive(Clone, Debug)]
enum Shape {
    /// The `k`-th arrival at exactly `floor(k·TOKEN / rate_milli)` ns, kept as the quotient `t`
    /// and remainder `rem` so each step costs a 64-bit add instead of a 128-bit division.
    Constant {
        step: u64,
        step_rem: u64,
        rate_milli: u64,
        t: u64,
        rem: u64,
    },
    Poisson {
        mean_nanos: f64,
        next: u64,
        rng: SimRng,
        tables: &'static Tables,
    },
    Bursts {
        rate_milli: u128,
        on: u64,
        period: u64,
        cycle: u64,
        index: u64,
    },
    Seam {
        limit: u64,
        window: u64,
        spread: u64,
    },
    Clients {
        phases: Vec<u64>,
        period: u64,
    },
    Trace(Arc<Trace>),
}

impl Arrivals {
    /// The arrivals the scenario describes; randomness comes from `rng` (the run's seeded RNG).
    pub fn new(sc: &Scenario, rng: &mut SimRng) -> Self {
        let rate_milli = u128::from(sc.rate.milli().max(1));
        let shape = match sc.traffic {
            TrafficShape::Constant => {
                let r = rate_milli as u64;
                let (step, step_rem) = ((TOKEN / rate_milli) as u64, (TOKEN % rate_milli) as u64);
                Shape::Constant { step, step_rem, rate_milli: r, t: 0, rem: 0 }
            }
            TrafficShape::Poisson => Shape::Poisson {
                mean_nanos: TOKEN as f64 / rate_milli as f64,
                next: 0,
                rng: rng.fork(1),
                tables: tables(),
            },
            TrafficShape::Bursts => {
                let on = sc.burst_on.as_nanos().max(1);
                Shape::Bursts { rate_milli, on, period: on.saturating_add(sc.burst_off.as_nanos()), cycle: 0, index: 0 }
            }
            TrafficShape::Seam => {
                let window = sc.effective_window().as_nanos().max(2);
                // The burst on each side of the boundary spans 1 % of the window.
                Shape::Seam { limit: sc.effective_limit().max(1), window, spread: (window / 100).max(1) }
            }
            TrafficShape::Clients => {
                let n = u128::from(sc.clients.max(1));
                let period = u64::try_from(n * TOKEN / rate_milli).unwrap_or(u64::MAX).max(1);
                let mut r = rng.fork(2);
                let mut phases: Vec<u64> = (0..n).map(|_| r.below(period)).collect();
                phases.sort_unstable();
                Shape::Clients { phases, period }
            }
            TrafficShape::Trace => Shape::Trace(sc.trace.clone().unwrap_or_default()),
        };
        Arrivals { shape, count: 0 }
    }

    /// How many arrivals have been produced.
    pub fn produced(&self) -> u64 {
        self.count
    }
}

impl Iterator for Arrivals {
    /// Nanoseconds since the start.
    type Item = u64;

    #[inline(always)]
    fn next(&mut self) -> Option<u64> {
        let k = self.count;
        let t = match &mut self.shape {
            Shape::Constant { step, step_rem, rate_milli, t, rem } => {
                let now = *t;
                *t = t.saturating_add(*step);
                *rem += *step_rem;
                if *rem >= *rate_milli {
                    *rem -= *rate_milli;
                    *t = t.saturating_add(1);
                }
                now
            }
            Shape::Poisson { mean_nanos, next, rng, tables } => {
                let t = *next;
                *next = next.saturating_add(rng.exponential_with(tables, *mean_nanos));
                t
            }
            Shape::Bursts { rate_milli, on, period, cycle, index } => {
                let mut offset = at(*index, *rate_milli);
                if offset >= *on {
                    *cycle += 1;
                    *index = 0;
                    offset = 0;
                }
                *index += 1;
                cycle.saturating_mul(*period).saturating_add(offset)
            }
            Shape::Seam { limit, window, spread } => {
                // Pair p of bursts straddles the boundary at (2p + 1) × window.
                let (pair, j) = (k / (2 * *limit), k % (2 * *limit));
                let boundary = (2 * pair + 1).saturating_mul(*window);
                let before = boundary - *spread;
                before.saturating_add(j * 2 * *spread / (2 * *limit))
            }
            Shape::Clients { phases, period } => {
                let n = phases.len() as u64;
                (k / n).saturating_mul(*period).saturating_add(phases[(k % n) as usize])
            }
            Shape::Trace(trace) => *trace.times().get(k as usize)?,
        };
        self.count += 1;
        Some(t)
    }
}

/// The `k`-th evenly spaced arrival at `rate_milli` milli-arrivals per second, exactly.
fn at(k: u64, rate_milli: u128) -> u64 {
    u64::try_from(u128::from(k) * TOKEN / rate_milli).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Nanos, Rate};

    fn first(sc: &Scenario, n: usize) -> Vec<u64> {
        Arrivals::new(sc, &mut SimRng::new(sc.seed)).take(n).collect()
    }

    #[test]
    fn constant_arrivals_are_exact_for_rates_that_do_not_divide_a_second() {
        let sc = Scenario { rate: Rate::per_sec(3), ..Scenario::default() };
        assert_eq!(first(&sc, 4), vec![0, 333_333_333, 666_666_666, 1_000_000_000]);
    }

    #[test]
    fn bursts_are_silent_between_on_periods() {
        let sc = Scenario {
            traffic: TrafficShape::Bursts,
            rate: Rate::per_sec(2),
            burst_on: Nanos::from_secs(1),
            burst_off: Nanos::from_secs(3),
            ..Scenario::default()
        };
        assert_eq!(first(&sc, 5), vec![0, 500_000_000, 4_000_000_000, 4_500_000_000, 8_000_000_000]);
    }

    #[test]
    fn the_seam_sends_limit_before_and_limit_after_the_boundary() {
        let sc = Scenario {
            traffic: TrafficShape::Seam,
            limit: Some(4),
            window: Some(Nanos::from_secs(10)),
            ..Scenario::default()
        };
        let t = first(&sc, 8);
        assert!(t[..4].iter().all(|&x| (9_900_000_000..10_000_000_000).contains(&x)), "{t:?}");
        assert!(t[4..].iter().all(|&x| (10_000_000_000..10_100_000_000).contains(&x)), "{t:?}");
        assert!(t.windows(2).all(|w| w[0] <= w[1]));
    }

    #[test]
    fn poisson_and_clients_are_sorted_and_seeded() {
        for traffic in [TrafficShape::Poisson, TrafficShape::Clients] {
            let sc = Scenario { traffic, rate: Rate::per_sec(100), ..Scenario::default() };
            let (a, b) = (first(&sc, 1000), first(&sc, 1000));
            assert_eq!(a, b);
            assert!(a.windows(2).all(|w| w[0] <= w[1]), "{traffic:?}");
            let other = first(&Scenario { seed: 2, ..sc }, 1000);
            assert_ne!(a, other, "{traffic:?}");
        }
    }
}
