//! [`SimRng`]: the one seeded random number generator of a run, identical on every platform.
//!
//! SplitMix64 for the bits; sampling uses only IEEE-754 basic operations (no `ln` from the
//! platform's libm, which may differ in the last bit between native and WebAssembly builds), so
//! the same seed gives the same run, byte for byte, everywhere.

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
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`, with 53 random bits.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in `0..n` (0 when `n` is 0), without modulo bias worth measuring (128-bit multiply).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// An exponentially distributed duration in nanoseconds with the given mean: the gap between
    /// arrivals of a Poisson process.
    pub fn exponential(&mut self, mean_nanos: f64) -> u64 {
        // 1 − u is in (0, 1]: never ln(0).
        let x = -ln(1.0 - self.uniform()) * mean_nanos;
        // x ≥ 0; the cast truncates (and saturates), so adding ½ rounds without a libm call.
        (x + 0.5) as u64
    }
}

/// Natural logarithm of a positive finite `x` from basic IEEE operations only.
///
/// Splits `x = m · 2^e` with `m` in `[1, 2)`, looks up `c = 1 + i/128 ≤ m` in a table of
/// constants, and sums `ln(1 + r)` for `r = (m − c)/c < 1/128` to the sixth power (truncation
/// below 3e-16). Only adds and multiplies after the table: the same bits on every platform, and
/// fast enough that drawing Poisson gaps is not the cost of a run.
pub fn ln(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return f64::NAN;
    }
    if x.is_infinite() {
        return x;
    }
    let (m, e) = frexp(x);
    let (m, e) = (m * 2.0, e - 1);
    let i = ((m - 1.0) * 128.0) as usize;
    let (ln_c, inv_c) = super::ln_table::LN_TABLE[i.min(127)];
    let c = 1.0 + i as f64 / 128.0;
    let r = (m - c) * inv_c;
    let series = r * (1.0 + r * (-0.5 + r * (1.0 / 3.0 + r * (-0.25 + r * (0.2 + r * (-1.0 / 6.0))))));
    f64::from(e) * std::f64::consts::LN_2 + ln_c + series
}

/// `x = m · 2^e` with `m` in `[0.5, 1)`, for positive finite normal or subnormal `x`.
fn frexp(x: f64) -> (f64, i32) {
    let bits = x.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        // Subnormal: scale into the normal range first.
        let (m, e) = frexp(x * (1u64 << 54) as f64);
        return (m, e - 54);
    }
    let m = f64::from_bits((bits & !(0x7ffu64 << 52)) | (1022u64 << 52));
    (m, exp - 1022)
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
    fn below_stays_in_range() {
        let mut r = SimRng::new(1);
        assert!((0..10_000).all(|_| r.below(7) < 7));
        assert_eq!(r.below(0), 0);
    }
}
