//! The logarithm and `e^(−x)` that the random generator ([`super::rng`]) samples with and builds
//! its constant tables with (`tables.rs`), from IEEE-754 basic operations only: a platform's libm
//! may differ in the last bit between native and WebAssembly builds; these give the same bits on
//! every platform.

/// [`ln`](super::rng::ln) with the table of `ln(1 + i/128)` given (the tables are built with it).
pub(crate) fn ln_with(table: &[f64; 128], x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return f64::NAN;
    }
    if x.is_infinite() {
        return x;
    }
    let (m, e) = frexp(x);
    let (m, e) = (m * 2.0, e - 1);
    let i = ((m - 1.0) * 128.0) as usize;
    let ln_c = table[i.min(127)];
    let c = 1.0 + i as f64 / 128.0;
    // Times the rounded reciprocal, not divided by `c`: the table's original second column, whose
    // 128 values were exactly these divisions (`ln_uses_the_reciprocals_of_the_old_table`).
    let inv_c = 1.0 / c;
    let r = (m - c) * inv_c;
    let series = r * (1.0 + r * (-0.5 + r * (1.0 / 3.0 + r * (-0.25 + r * (0.2 + r * (-1.0 / 6.0))))));
    f64::from(e) * std::f64::consts::LN_2 + ln_c + series
}

/// `e^(−x)` for finite `x ≥ 0` from basic IEEE operations only: `x = k·ln 2 + r`, then
/// `2^(−k) · e^(−r)` with the Taylor series of `e^(−r)` for `0 ≤ r < ln 2` to the 20th power.
pub fn exp_neg(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x > 745.0 {
        return 0.0;
    }
    let x = x.max(0.0);
    let k = (x * std::f64::consts::LOG2_E) as i32;
    let r = x - f64::from(k) * std::f64::consts::LN_2;
    let mut term = 1.0;
    let mut sum = 1.0;
    for n in 1..=20 {
        term *= -r / f64::from(n);
        sum += term;
    }
    // 2^(−k) is exact as a double for k < 1023; beyond, split it in two.
    let scale = |k: i32| f64::from_bits(((1023 - k) as u64) << 52);
    if k < 1000 {
        sum * scale(k)
    } else {
        sum * scale(k / 2) * scale(k - k / 2)
    }
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
    fn ln_uses_the_reciprocals_of_the_old_table() {
        // Entries of the second column `ln_table.rs` had until the division replaced it (all 128
        // were checked equal when it did).
        for (i, old) in
            [(1, 0.9922480620155039), (3, 0.9770992366412213), (125, 0.5059288537549407), (127, 0.5019607843137255)]
        {
            assert_eq!((1.0 / (1.0 + f64::from(i) / 128.0)).to_bits(), f64::to_bits(old), "{i}");
        }
    }

    #[test]
    fn exp_neg_agrees_with_the_platform_to_a_few_ulps() {
        for &x in &[0.0, 1e-9, 0.1, 0.5, 0.693, 1.0, 2.5, 7.697, 20.0, 100.0, 700.0] {
            let (ours, std) = (exp_neg(x), (-x).exp());
            // Range reduction loses about one ulp per unit of x; the ziggurat needs x < 8.
            assert!((ours - std).abs() <= (8.0 + x) * f64::EPSILON * std, "exp(-{x}) = {ours} vs {std}");
        }
    }
}
