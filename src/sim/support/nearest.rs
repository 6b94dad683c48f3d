//! [`nearest_f64`]: the double nearest a plain decimal, computed exactly in integers — the value
//! `str::parse::<f64>` (and C's `strtod`, and so Lua's `tonumber`) gives. The page reads its few
//! floats (a speed, a moment, Lua's numbers) with it instead of core's float parser and its table
//! of powers of five: kept for the first module's size, see docs/size.md.

/// Most fractional digits read (after trailing zeros are dropped): `10^19` still fits a `u64`.
const MAX_FRACTION_DIGITS: usize = 19;

/// The double nearest `s`, a plain decimal with an optional leading minus (`12`, `0.5`, `-3.25`,
/// `.5`, `7.`), rounded half to even; `None` for anything else (exponents, `inf`, `NaN`, a plus
/// sign, spaces) and for more than 38 significant or 19 fractional digits.
///
/// ```
/// use ratelimit_playground::sim::support::nearest::nearest_f64;
/// assert_eq!(nearest_f64("0.1"), Some(0.1));
/// assert_eq!(nearest_f64("-2.5"), Some(-2.5));
/// assert_eq!(nearest_f64("1e3"), None);
/// ```
pub fn nearest_f64(s: &str) -> Option<f64> {
    let (negative, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let decimal = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    if (int.is_empty() && frac.is_empty()) || !decimal(int) || !decimal(frac) {
        return None;
    }
    let frac = frac.trim_end_matches('0');
    if frac.len() > MAX_FRACTION_DIGITS {
        return None;
    }
    let mut n: u128 = 0;
    for b in int.bytes().chain(frac.bytes()) {
        n = n.checked_mul(10)?.checked_add(u128::from(b - b'0'))?;
    }
    let magnitude = quotient(n, 10u128.pow(frac.len() as u32));
    Some(if negative { -magnitude } else { magnitude })
}

/// `n / d` rounded to the nearest double, half to even, for `d < 2^64` and `n < 2^127`.
fn quotient(n: u128, d: u128) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let bits = |v: u128| 128 - v.leading_zeros() as i32;
    // Shift n left until the quotient has at least 55 bits: 53 kept, one to round on, and
    // more below it (with the remainder) to break ties.
    let shift = (bits(d) + 55 - bits(n)).max(0);
    let scaled = n << shift;
    let (q, inexact) = (scaled / d, !scaled.is_multiple_of(d));
    let drop = bits(q) - 53;
    let mut kept = (q >> drop) as u64;
    let rest = q & ((1u128 << drop) - 1);
    let half = 1u128 << (drop - 1);
    if rest > half || (rest == half && (inexact || kept & 1 == 1)) {
        kept += 1;
    }
    // kept ≤ 2^53 is exact as a double; so is the power of two, and so their product.
    kept as f64 * power_of_two(drop - shift)
}

/// `2^e` for a normal exponent.
fn power_of_two(e: i32) -> f64 {
    f64::from_bits(((e + 1023) as u64) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn plain_decimals_read_as_the_standard_parser_reads_them() {
        for s in [
            "0",
            "1",
            "7.",
            ".5",
            "0.1",
            "0.2",
            "0.3",
            "2.5",
            "12.125",
            "0.001",
            "1000000",
            "3600000000.000000",
            "9007199254740993",
            "9007199254740995",
            "0.000000000000000001",
            "123456789012345678901234567890.5",
            "-0.1",
            "-2.5",
            "00012.50",
            "1.0000000000000000000",
        ] {
            assert_eq!(nearest_f64(s), s.parse::<f64>().ok(), "{s}");
        }
    }

    #[test]
    fn anything_but_a_plain_decimal_is_refused() {
        for s in ["", ".", "-", "1e3", "+1", " 1", "1 ", "inf", "NaN", "0x10", "1.2.3", "--1", "1,5"] {
            assert_eq!(nearest_f64(s), None, "{s:?}");
        }
        assert_eq!(nearest_f64("0.00000000000000000001"), None, "20 fractional digits");
        assert_eq!(nearest_f64(&"9".repeat(39)), None, "39 significant digits");
    }

    #[test]
    fn ties_round_to_even() {
        // 2^53 + 1 and 2^53 + 3 lie halfway between doubles.
        assert_eq!(nearest_f64("9007199254740993"), Some(9007199254740992.0));
        assert_eq!(nearest_f64("9007199254740995"), Some(9007199254740996.0));
    }

    proptest! {
        #[test]
        fn any_plain_decimal_reads_exactly(int in 0u64..=u64::MAX, frac in "[0-9]{0,19}", negative: bool) {
            let s = format!("{}{int}.{frac}", if negative { "-" } else { "" });
            prop_assert_eq!(nearest_f64(&s), s.parse::<f64>().ok(), "{}", s);
        }

        #[test]
        fn the_engines_millisecond_stamps_read_exactly(ns in 0u64..=u64::MAX) {
            let s = format!("{}.{:06}", ns / 1_000_000, ns % 1_000_000);
            prop_assert_eq!(nearest_f64(&s), s.parse::<f64>().ok(), "{}", s);
        }
    }
}
