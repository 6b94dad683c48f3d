//! [`key_points`]: the round values an `f64` axis puts its ticks at, chosen as plotters 0.3.7
//! chooses them for a `RangedCoordf64` with `BoldPoints` (its `compute_f64_key_points`, in
//! `src/coord/ranged1d/types/numeric.rs`), written here with one difference in how the numbers
//! are reached: the power of ten that starts the search comes from `powi`, not `powf`. `powf`
//! would be the only caller of libm's `pow` in the first modules, kept out of them for their size
//! (see docs/size.md).
//! `powi` builds 10ⁿ exactly and divides once, so it gives the correctly rounded power for
//! |n| ≤ 22, natively and in wasm alike. Natively `powf` gives the same; wasm's libm is one unit
//! in the last place off for some negative exponents (10⁻⁵, 10⁻¹¹, …), so for spans below 10⁻⁴
//! plotters' ticks in wasm could differ from these by that much. A chart's spans are ≥ 1; the
//! tests check the equality natively over any range and in wasm from 10⁻⁴ up.

/// At most `max_points` round values in `lo..=hi` (either order): multiples of 1, 2 or 5 × 10ⁿ,
/// as many as fit.
///
/// ```
/// use ratelimit_playground::chart::key_points::key_points;
/// assert_eq!(key_points(0.0, 60.0, 7), vec![0.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0]);
/// assert_eq!(key_points(0.0, 1.0, 3), vec![0.0, 0.5, 1.0]);
/// assert_eq!(key_points(5.0, 5.0, 3), vec![5.0]);
/// assert!(key_points(0.0, 1.0, 0).is_empty());
/// ```
pub fn key_points(lo: f64, hi: f64, max_points: usize) -> Vec<f64> {
    if max_points == 0 || lo.is_nan() || hi.is_nan() {
        return Vec::new();
    }
    let (lo, hi) = (lo.min(hi), hi.max(lo));
    if (lo - hi).abs() < f64::EPSILON {
        return vec![lo];
    }
    let mut scale = 10f64.powi((hi - lo).log(10.0).floor() as i32);
    // Values are rounded to a multiple of this, so that no tick reads 1.00000000001.
    let mut granularity = scale / 10.0;
    if 1 + ((hi - lo) / scale).floor() as usize > max_points {
        scale *= 10.0;
        granularity *= 10.0;
    }
    // Finer steps (÷2, ÷5, ÷10 of the last power of ten) while the points still fit.
    'finer: loop {
        let step = scale;
        for divisor in [2.0, 5.0, 10.0] {
            let mut left = lo - rem_euclid(lo, step / divisor);
            if left < lo {
                left += step / divisor;
            }
            let right = hi - rem_euclid(hi, step / divisor);
            if (1.0 + (right - left) / step * divisor).round() as usize > max_points {
                break 'finer;
            }
            scale = step / divisor;
        }
        scale = step / 10.0;
        granularity /= 10.0;
    }
    // A base and an offset from it, so that a huge `left` still advances by `scale`.
    let left = {
        let value = lo - rem_euclid(lo, scale);
        if value < lo {
            value + scale
        } else {
            value
        }
    };
    let base = (left / granularity).floor() * granularity;
    let mut offset = left - base;
    let right = hi - rem_euclid(hi, scale);
    let mut points = Vec::new();
    while right - offset - base >= -f64::EPSILON {
        if (offset / granularity).round() * granularity < 0.0 {
            offset += granularity;
        }
        points.push(offset + base);
        offset += scale;
    }
    points
}

/// `a` modulo `b`, in `b`'s sign, with a remainder within an epsilon of `b` read as 0.
fn rem_euclid(a: f64, b: f64) -> f64 {
    let rem = if b > 0.0 { a - (a / b).floor() * b } else { a - (a / b).ceil() * b };
    if (rem - b).abs() < f64::EPSILON {
        0.0
    } else {
        rem
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plotters::coord::ranged1d::{BoldPoints, Ranged};
    use plotters::coord::types::RangedCoordf64;
    use proptest::prelude::*;

    fn plotters(lo: f64, hi: f64, n: usize) -> Vec<f64> {
        RangedCoordf64::from(lo..hi).key_points(BoldPoints(n))
    }

    #[test]
    fn powi_gives_the_powers_of_ten_powf_gives() {
        for e in -22..=22 {
            assert_eq!(10f64.powi(e).to_bits(), 10f64.powf(f64::from(e)).to_bits(), "10^{e}");
        }
    }

    #[test]
    fn the_charts_axes_get_the_points_plotters_chose() {
        for hi in [1.0, 5.0, 6.0, 12.0, 25.0, 60.0, 120.0, 600.0, 1_000.0, 12_000.0, 2.5e6, 0.02] {
            for n in [3, 5, 7] {
                assert_eq!(key_points(0.0, hi, n), plotters(0.0, hi, n), "0..{hi}, {n} points");
                assert_eq!(key_points(hi / 3.0, hi, n), plotters(hi / 3.0, hi, n), "{}..{hi}, {n} points", hi / 3.0);
            }
        }
    }

    proptest! {
        #[test]
        fn any_range_gets_the_points_plotters_chose(lo in -1e9f64..1e9, span in 1e-6f64..1e9, n in 0usize..12) {
            prop_assert_eq!(key_points(lo, lo + span, n), plotters(lo, lo + span, n));
            prop_assert_eq!(key_points(lo + span, lo, n), plotters(lo + span, lo, n));
        }
    }
}
