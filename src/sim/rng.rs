//! [`SimRng`]: the one seeded random number generator of a run, identical on every platform.
//!
//! SplitMix64 for the bits; sampling uses only IEEE-754 basic operations (no `ln` from the
//! platform's libm, which may differ in the last bit between native and WebAssembly builds), so
//! the same seed gives the same run, byte for byte, everywhere.

use super::tables::{tables, Tables};
use super::zig_table::ZIG_EXP_R;
use crate::sim::support::ieee_math::{exp_neg, ln_with};

/// A deterministic pseudo-random generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct SimRng {
    state: u64,
}

impl SimRng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        SimRng { state: seed }
    }

    /// An independent generator for a sub-stream (a client, a node), derived from this seed.
    pub fn fork(&mut self, stream: u64) -> SimRng {
        SimRng::new(self.next_u64() ^ stream.wrapping_mul(0xA076_1D64_78BD_642F))
    }

    /// The next 64 random bits.
    #[inline(always)]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`, with 53 random bits.
    pub fn uniform(&mut self) -> f64 {
        // Below 2^63, the signed conversion is the same value and one instruction everywhere.
        ((self.next_u64() >> 11) as i64) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in `0..n` (0 when `n` is 0), without modulo bias worth measuring (128-bit multiply).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// An exponentially distributed duration in nanoseconds with the given mean: the gap between
    /// arrivals of a Poisson process.
    #[inline(always)]
    pub fn exponential(&mut self, mean_nanos: f64) -> u64 {
        self.exponential_with(tables(), mean_nanos)
    }

    /// [`exponential`](Self::exponential) with the tables at hand: a Poisson process keeps them,
    /// so its draws skip the check that they are built.
    #[inline(always)]
    pub(crate) fn exponential_with(&mut self, t: &Tables, mean_nanos: f64) -> u64 {
        // Adding ½ before truncating rounds without a libm call.
        to_u64_saturating(self.standard_exponential_with(t) * mean_nanos + 0.5)
    }

    /// A draw from Exp(1) by the ziggurat method: one random word, a table look-up and a
    /// multiply for about 99 % of draws; the rest use [`exp_neg`] and [`ln`], which are
    /// basic-operation only, so the draw is the same on every platform.
    #[inline(always)]
    pub fn standard_exponential(&mut self) -> f64 {
        self.standard_exponential_with(tables())
    }

    /// [`standard_exponential`](Self::standard_exponential) with the tables at hand.
    #[inline(always)]
    fn standard_exponential_with(&mut self, t: &Tables) -> f64 {
        let (i, x) = self.ziggurat_layer(t);
        if x < t.x[i + 1] {
            return x;
        }
        self.standard_exponential_edge(t, i, x)
    }

    /// One ziggurat draw: a layer `i` from the low 8 bits and `x` uniform across its width.
    #[inline(always)]
    fn ziggurat_layer(&mut self, t: &Tables) -> (usize, f64) {
        let bits = self.next_u64();
        let i = (bits & 0xff) as usize;
        // The top 52 bits, independent of the layer index in the low 8 (signed: see `uniform`).
        let u = ((bits >> 12) as i64) as f64 * (1.0 / (1u64 << 52) as f64);
        (i, u * t.x[i])
    }

    /// The ~1 % of ziggurat draws that land outside a layer's inner rectangle (`x` drawn in
    /// layer `i`): the tail, the wedge test, or a fresh draw.
    #[cold]
    #[inline(never)]
    fn standard_exponential_edge(&mut self, t: &Tables, i: usize, x: f64) -> f64 {
        let (mut i, mut x) = (i, x);
        loop {
            if i == 0 {
                // The tail beyond r is r + Exp(1), by memorylessness; 1 − u is in (0, 1].
                return ZIG_EXP_R - ln_with(&t.ln, 1.0 - self.uniform());
            }
            if t.f[i + 1] + (t.f[i] - t.f[i + 1]) * self.uniform() < exp_neg(x) {
                return x;
            }
            // Rejected: a fresh draw, exactly as the fast path makes it.
            (i, x) = self.ziggurat_layer(t);
            if x < t.x[i + 1] {
                return x;
            }
        }
    }
}

/// `x as u64` (truncating toward zero, saturating, NaN to 0) from the bits of `x`, with integer
/// operations only: V8 compiles WebAssembly's float-to-int conversions to slow sequences (each
/// cost more than the rest of a Poisson draw together); shifts and masks cost almost nothing.
#[inline(always)]
fn to_u64_saturating(x: f64) -> u64 {
    let bits = x.to_bits();
    let exponent = ((bits >> 52) & 0x7ff) as i64 - 1023;
    if bits >> 63 == 1 || exponent < 0 {
        0 // negative (or −0, or a NaN with its sign bit set), or below 1
    } else if exponent >= 64 {
        if x.is_nan() {
            0
        } else {
            u64::MAX
        }
    } else {
        let significand = (bits & ((1 << 52) - 1)) | (1 << 52);
        if exponent <= 52 {
            significand >> (52 - exponent)
        } else {
            significand << (exponent - 52)
        }
    }
}

/// Natural logarithm of a positive finite `x` from basic IEEE operations only.
///
/// Splits `x = m · 2^e` with `m` in `[1, 2)`, looks up `c = 1 + i/128 ≤ m` in a table of
/// constants, and sums `ln(1 + r)` for `r = (m − c)/c < 1/128` to the sixth power (truncation
/// below 3e-16). Only adds and multiplies after the table: the same bits on every platform, and
/// fast enough that drawing Poisson gaps is not the cost of a run.
pub fn ln(x: f64) -> f64 {
    ln_with(&tables().ln, x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ln_agrees_with_the_platform_to_a_few_ulps() {
        for &x in &[1e-300, 1e-10, 0.001, 0.25, 0.5, 0.7, 1.0, 1.5, 2.0, 10.0, 12345.678, 1e300] {
            let (ours, std) = (ln(x), x.ln());
            assert!((ours - std).abs() <= 4.0 * f64::EPSILON * std.abs().max(1.0), "ln({x}) = {ours} vs {std}");
        }
    }

    #[test]
    fn the_ziggurat_draws_the_exponential_distribution() {
        let mut r = SimRng::new(3);
        let n = 400_000;
        let draws: Vec<f64> = (0..n).map(|_| r.standard_exponential()).collect();
        let mean = draws.iter().sum::<f64>() / n as f64;
        let var = draws.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n as f64;
        assert!((mean - 1.0).abs() < 0.01 && (var - 1.0).abs() < 0.02, "mean {mean}, variance {var}");
        // Tail probabilities P(X > t) = e^(−t), including past the base layer's edge r ≈ 7.7.
        for t in [0.1, 1.0, 3.0, 8.0] {
            let p = draws.iter().filter(|&&x| x > t).count() as f64 / n as f64;
            let expected = (-t).exp();
            assert!((p - expected).abs() < 4.0 * (expected / n as f64).sqrt() + 1e-5, "P(X > {t}) = {p} vs {expected}");
        }
    }

    #[test]
    fn same_seed_same_stream() {
        let (mut a, mut b) = (SimRng::new(42), SimRng::new(42));
        for _ in 0..1000 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }

    #[test]
    fn exponential_mean_is_close_to_the_requested_mean() {
        let mut r = SimRng::new(7);
        let n = 200_000;
        let sum: u64 = (0..n).map(|_| r.exponential(1_000_000.0)).sum();
        let mean = sum as f64 / n as f64;
        assert!((mean - 1_000_000.0).abs() < 10_000.0, "mean {mean}");
    }

    #[test]
    fn the_bitwise_conversion_equals_the_saturating_cast_everywhere() {
        let two_63 = 9_223_372_036_854_775_808.0f64;
        let edges = [0.0, -0.0, 0.5, 0.999, 1.0, 1.5, 1e9 + 0.5, two_63 - 1024.0, two_63, 1.8e19, 2.0 * two_63, 1e300];
        let specials = [f64::INFINITY, f64::NEG_INFINITY, f64::NAN, -f64::NAN, f64::MIN_POSITIVE, -1.0];
        for x in edges.into_iter().chain(specials) {
            assert_eq!(to_u64_saturating(x), x as u64, "{x}");
        }
        // Every exponent, random significands and signs.
        let mut r = SimRng::new(3);
        for _ in 0..200_000 {
            let x = f64::from_bits(r.next_u64());
            assert_eq!(to_u64_saturating(x), x as u64, "{x:e} ({:#x})", x.to_bits());
        }
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = SimRng::new(1);
        assert!((0..10_000).all(|_| r.below(7) < 7));
        assert_eq!(r.below(0), 0);
    }
}
