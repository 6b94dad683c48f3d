//! Axis arithmetic shared by charts: a tidy upper bound for a value axis and short tick labels.

use crate::sim::support::decimal::format_f64_trimmed;

/// The smallest of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10ⁿ that is ≥ `v` (at least 5), for a
/// y axis with tidy labels and little empty space above the data.
///
/// ```
/// use ratelimit_playground::chart::axis::nice_ceiling;
/// assert_eq!(nice_ceiling(0.0), 5.0);
/// assert_eq!(nice_ceiling(5.75), 6.0);
/// assert_eq!(nice_ceiling(21.0), 25.0);
/// assert_eq!(nice_ceiling(11_500.0), 12_000.0);
/// ```
pub fn nice_ceiling(v: f64) -> f64 {
    if !v.is_finite() || v <= 5.0 {
        return 5.0;
    }
    // `powi` builds the power of ten exactly, so the ceiling is the same natively and in wasm.
    let magnitude = 10f64.powi(v.log10().floor() as i32);
    [1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|c| *c >= v * (1.0 - 1e-12))
        .unwrap_or(10.0 * magnitude)
}

/// Axis label for a count: `750`, `2.5k`, `10k`.
///
/// ```
/// use ratelimit_playground::chart::axis::short_number;
/// assert_eq!(short_number(750.0), "750");
/// assert_eq!(short_number(2500.0), "2.5k");
/// assert_eq!(short_number(10000.0), "10k");
/// assert_eq!(short_number(0.5), "0.5");
/// ```
pub fn short_number(v: f64) -> String {
    if v.abs() >= 1000.0 {
        format!("{}k", format_f64_trimmed(v / 1000.0, 1))
    } else {
        format_f64_trimmed(v, 1)
    }
}
