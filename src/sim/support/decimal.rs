//! Exact decimal parsing and printing for fixed-point quantities (rates, seconds, milliseconds).
//!
//! Query values such as `refill=2.5` are parsed digit by digit into integers, never through a
//! float, so `2.5` tokens/s is exactly 2 500 milli-tokens/s and a scenario round-trips unchanged.

/// Why a decimal string was not accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecimalError {
    /// Not a plain non-negative decimal number (`12`, `0.5`, `.25`, `3.`).
    NotANumber,
    /// More fractional digits than the quantity's precision.
    TooPrecise(u32),
    /// Larger than any quantity this engine accepts.
    TooLarge,
}

/// Parses a non-negative decimal into an integer count of `10^-digits` units.
///
/// ```
/// use ratelimit_playground::sim::support::decimal::{parse_fixed, DecimalError};
/// assert_eq!(parse_fixed("2.5", 3), Ok(2500));
/// assert_eq!(parse_fixed("0.001", 3), Ok(1));
/// assert_eq!(parse_fixed("7", 0), Ok(7));
/// assert_eq!(parse_fixed("1.0005", 3), Err(DecimalError::TooPrecise(3)));
/// assert_eq!(parse_fixed("-1", 3), Err(DecimalError::NotANumber));
/// ```
pub fn parse_fixed(s: &str, digits: u32) -> Result<u64, DecimalError> {
    let s = s.trim();
    let (int, frac) = match s.split_once('.') {
        Some((i, f)) => (i, f),
        None => (s, ""),
    };
    let all_digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    if (int.is_empty() && frac.is_empty()) || !all_digits(int) || !all_digits(frac) {
        return Err(DecimalError::NotANumber);
    }
    // Trailing zeros carry no precision: "1.500" with 1 digit is fine.
    let frac = frac.trim_end_matches('0');
    if frac.len() as u32 > digits {
        return Err(DecimalError::TooPrecise(digits));
    }
    let int = int.trim_start_matches('0');
    if int.len() > 20 {
        return Err(DecimalError::TooLarge);
    }
    let int: u128 = if int.is_empty() { 0 } else { int.parse().map_err(|_| DecimalError::TooLarge)? };
    let mut frac_value: u128 = 0;
    for (i, b) in frac.bytes().enumerate() {
        frac_value += u128::from(b - b'0') * 10u128.pow(digits - 1 - i as u32);
    }
    u64::try_from(int * 10u128.pow(digits) + frac_value).map_err(|_| DecimalError::TooLarge)
}

/// Prints an integer count of `10^-digits` units as the shortest exact decimal.
///
/// ```
/// use ratelimit_playground::sim::support::decimal::format_fixed;
/// assert_eq!(format_fixed(2500, 3), "2.5");
/// assert_eq!(format_fixed(7000, 3), "7");
/// assert_eq!(format_fixed(50, 3), "0.05");
/// ```
pub fn format_fixed(value: u64, digits: u32) -> String {
    let unit = 10u64.pow(digits);
    let (int, frac) = (value / unit, value % unit);
    if frac == 0 {
        return int.to_string();
    }
    let frac = format!("{:0width$}", frac, width = digits as usize);
    format!("{int}.{}", frac.trim_end_matches('0'))
}

/// The most decimals [`format_f64`] prints.
pub const MAX_F64_DECIMALS: u32 = 6;

/// Prints `v` rounded to `decimals` places (at most [`MAX_F64_DECIMALS`]) exactly as
/// `format!("{v:.decimals$}")` does: the float's exact binary value, ties to even, the sign of a
/// negative value kept even when it rounds to zero. It does its own integer arithmetic, so the
/// web app's modules carry no copy of core's float printing (`flt2dec`; see docs/size.md).
///
/// ```
/// use ratelimit_playground::sim::support::decimal::format_f64;
/// assert_eq!(format_f64(2.018, 2), "2.02");
/// assert_eq!(format_f64(0.125, 2), "0.12"); // an exact tie: to even
/// assert_eq!(format_f64(0.35, 1), "0.3"); // 0.35 is 0.34999… in binary
/// assert_eq!(format_f64(-0.04, 1), "-0.0");
/// assert_eq!(format_f64(1e20, 0), "100000000000000000000");
/// ```
pub fn format_f64(v: f64, decimals: u32) -> String {
    let decimals = decimals.min(MAX_F64_DECIMALS);
    if v.is_nan() {
        return "NaN".into();
    }
    let sign = if v.is_sign_negative() { "-" } else { "" };
    if v.is_infinite() {
        return format!("{sign}inf");
    }
    // |v| = mantissa × 2^exp, exactly.
    let bits = v.to_bits();
    let raw_exp = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    let (mantissa, exp) = if raw_exp == 0 { (fraction, -1074) } else { (fraction | 1 << 52, raw_exp - 1075) };
    let scale = 10u128.pow(decimals);
    let scaled = u128::from(mantissa) * scale; // < 2^73
    let digits = if exp >= 0 {
        // An integer (every float ≥ 2^53 is): mantissa × 2^exp, then the decimals' zeros.
        let mut limbs = times_power_of_two(mantissa, exp as u32);
        limbs.push_str(&"0".repeat(decimals as usize));
        limbs
    } else {
        // scaled ÷ 2^k, rounded to the nearest integer, ties to even.
        let k = exp.unsigned_abs();
        let rounded = if k >= 100 {
            0 // scaled < 2^73 ≤ 2^(k-1): below one half
        } else {
            let (quotient, remainder) = (scaled >> k, scaled & ((1u128 << k) - 1));
            let half = 1u128 << (k - 1);
            if remainder > half || (remainder == half && quotient % 2 == 1) {
                quotient + 1
            } else {
                quotient
            }
        };
        format!("{rounded:0width$}", width = decimals as usize + 1)
    };
    if decimals == 0 {
        return format!("{sign}{digits}");
    }
    // `digits` has more than `decimals` digits, all ASCII, so this always splits; the checked
    // split keeps core's str slicing panic (its message prints a `char` with `{:?}`, which brings
    // the Debug code for it) out of the modules.
    let (int, frac) = digits.split_at_checked(digits.len() - decimals as usize).unwrap_or((&digits, ""));
    format!("{sign}{int}.{frac}")
}

/// [`format_f64`] without trailing zeros (nor a trailing point): `2.5`, `12`, `13.125`.
///
/// ```
/// use ratelimit_playground::sim::support::decimal::format_f64_trimmed;
/// assert_eq!(format_f64_trimmed(13.200000000000001, 6), "13.2");
/// assert_eq!(format_f64_trimmed(12.0, 3), "12");
/// ```
pub fn format_f64_trimmed(v: f64, decimals: u32) -> String {
    let s = format_f64(v, decimals);
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// `mantissa × 2^exp` in decimal digits: a little base-10^9 bignum, since a float can be as
/// large as 2^1024.
fn times_power_of_two(mantissa: u64, exp: u32) -> String {
    const BASE: u64 = 1_000_000_000;
    let mut limbs = vec![mantissa % BASE, mantissa / BASE % BASE, mantissa / BASE / BASE]; // least significant first
    let mut left = exp;
    while left > 0 {
        let step = left.min(30);
        left -= step;
        let mut carry = 0u64;
        for limb in &mut limbs {
            let x = (*limb << step) + carry;
            (*limb, carry) = (x % BASE, x / BASE);
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
    }
    while limbs.len() > 1 && limbs.last() == Some(&0) {
        limbs.pop();
    }
    let mut out = limbs.pop().unwrap_or(0).to_string();
    for limb in limbs.iter().rev() {
        out.push_str(&format!("{limb:09}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_exponents_signs_and_garbage() {
        for bad in ["", ".", "1e3", "+1", "1,5", "NaN", "inf", "0x10", "1.2.3", " - "] {
            assert_eq!(parse_fixed(bad, 3), Err(DecimalError::NotANumber), "{bad:?}");
        }
    }

    #[test]
    fn accepts_the_largest_u64_and_nothing_above() {
        assert_eq!(parse_fixed("18446744073709551615", 0), Ok(u64::MAX));
        assert_eq!(parse_fixed("18446744073709551616", 0), Err(DecimalError::TooLarge));
    }

    #[test]
    fn refuses_numbers_too_large_instead_of_wrapping() {
        assert_eq!(parse_fixed("99999999999999999999", 0), Err(DecimalError::TooLarge));
        assert_eq!(parse_fixed("18446744073709552", 3), Err(DecimalError::TooLarge));
    }

    /// Every bit pattern class: tiny, subnormal, ties, huge, negative zero.
    #[test]
    fn prints_floats_exactly_as_core_does() {
        let cases = [
            0.0,
            -0.0,
            0.5,
            1.5,
            2.5,
            0.125,
            0.375,
            0.35,
            0.05,
            0.95,
            9.995,
            99.95,
            2.018,
            42.26,
            1e-7,
            5e-7,
            4.9e-324,
            f64::MIN_POSITIVE,
            123_456.789_5,
            1e15 + 0.3,
            9_007_199_254_740_993.0,
            1e20,
            1.7e308,
            f64::MAX,
            -0.04,
            -2.5,
            -1e300,
            0.000_499_999,
            0.000_5,
            0.000_000_5,
        ];
        for v in cases {
            for d in 0..=MAX_F64_DECIMALS {
                assert_eq!(format_f64(v, d), format!("{v:.p$}", p = d as usize), "{v:e} to {d} decimals");
            }
        }
        assert_eq!(format_f64(f64::NAN, 2), format!("{:.2}", f64::NAN));
        assert_eq!(format_f64(f64::INFINITY, 1), format!("{:.1}", f64::INFINITY));
        assert_eq!(format_f64(f64::NEG_INFINITY, 0), format!("{:.0}", f64::NEG_INFINITY));
    }

    proptest::proptest! {
        #[test]
        fn prints_any_float_exactly_as_core_does(bits: u64, d in 0u32..=MAX_F64_DECIMALS) {
            let v = f64::from_bits(bits);
            proptest::prop_assert_eq!(format_f64(v, d), format!("{v:.p$}", p = d as usize));
        }

        #[test]
        fn prints_display_sized_floats_exactly_as_core_does(v in -1e7f64..1e7, d in 0u32..=MAX_F64_DECIMALS) {
            proptest::prop_assert_eq!(format_f64(v, d), format!("{v:.p$}", p = d as usize));
        }
    }

    #[test]
    fn round_trips_every_printed_value() {
        for v in [0u64, 1, 9, 10, 999, 1000, 1001, 123_456_789] {
            assert_eq!(parse_fixed(&format_fixed(v, 3), 3), Ok(v));
        }
    }
}
