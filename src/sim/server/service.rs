//! [`ServiceDist`]: how long the server behind the limiter takes over a request — the mean,
//! exponential or lognormal — drawn from the run's seeded generator with basic floating-point
//! operations only (the engine's own `ln` and `exp`), so a run is the same natively and in the
//! browser.

use crate::sim::rng::{ln, SimRng};
use crate::sim::support::ieee_math::exp_neg;
use crate::sim::time::Nanos;

/// How service times spread around their mean.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ServiceDist {
    /// Every request takes the mean (M/D/c).
    Const,
    /// Exponential (M/M/c).
    Exp,
    /// Lognormal with this coefficient of variation: a long right tail, as real services have.
    LogNormal {
        /// Standard deviation ÷ mean.
        cv: f64,
    },
}

impl ServiceDist {
    /// One service time with mean `mean`.
    pub fn draw(self, rng: &mut SimRng, mean: Nanos) -> Nanos {
        let mean = mean.as_nanos();
        Nanos(match self {
            ServiceDist::Const => mean,
            ServiceDist::Exp => rng.exponential(mean as f64),
            ServiceDist::LogNormal { cv } => lognormal(rng, mean as f64, cv),
        })
    }
}

/// A lognormal draw with mean `mean` and coefficient of variation `cv`: `mean · e^(σZ − σ²/2)`
/// with `σ² = ln(1 + cv²)` and `Z` standard normal (Marsaglia's polar method), from [`ln`],
/// [`exp_neg`], a square root and a division only.
fn lognormal(rng: &mut SimRng, mean: f64, cv: f64) -> u64 {
    let s2 = ln(1.0 + cv * cv);
    let y = s2.sqrt() * standard_normal(rng) - s2 / 2.0;
    let factor = if y >= 0.0 { 1.0 / exp_neg(y) } else { exp_neg(-y) };
    (mean * factor + 0.5).min(u64::MAX as f64) as u64
}

/// A standard normal draw by Marsaglia's polar method.
fn standard_normal(rng: &mut SimRng) -> f64 {
    loop {
        let (u, v) = (2.0 * rng.uniform() - 1.0, 2.0 * rng.uniform() - 1.0);
        let s = u * u + v * v;
        if s > 0.0 && s < 1.0 {
            return u * (-2.0 * ln(s) / s).sqrt();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lognormal_service_times_have_the_mean_and_spread_asked_for() {
        let mut rng = SimRng::new(9);
        let n = 200_000;
        let draws: Vec<f64> = (0..n).map(|_| lognormal(&mut rng, 1e7, 2.0) as f64).collect();
        let mean = draws.iter().sum::<f64>() / n as f64;
        let sd = (draws.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n as f64).sqrt();
        assert!((mean / 1e7 - 1.0).abs() < 0.03, "mean {mean}");
        assert!((sd / mean - 2.0).abs() < 0.25, "cv {}", sd / mean);
    }
}
