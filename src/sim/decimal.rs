//! Exact decimal parsing and printing for fixed-point quantities (rates, seconds, milliseconds).
//!
//! Query values such as `refill=2.5` are parsed digit by digit into integers, never through a
//! float, so `2.5` tokens/s is exactly 2 500 milli-tokens/s and a scenario round-trips unchanged.

/// Why a decimal string was not accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
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
/// use ratelimit_playground::sim::decimal::{parse_fixed, DecimalError};
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
/// use ratelimit_playground::sim::decimal::format_fixed;
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

    #[test]
    fn round_trips_every_printed_value() {
        for v in [0u64, 1, 9, 10, 999, 1000, 1001, 123_456_789] {
            assert_eq!(parse_fixed(&format_fixed(v, 3), 3), Ok(v));
        }
    }
}
