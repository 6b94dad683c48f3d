//! [`within`]: `f64::clamp` without its panic message, whose `{:?}` of the two bounds is enough
//! to put core's float printing in every web module that clamps a float (see docs/size.md).

/// `v` limited to `lo..=hi` (bounds in order): `lo` below, `hi` above, `v` itself otherwise,
/// NaN included, exactly as `v.clamp(lo, hi)`.
///
/// ```
/// use ratelimit_playground::sim::support::within::within;
/// assert_eq!(within(1.5, 0.0, 1.0), 1.0);
/// assert_eq!(within(-3.0, 0.0, 1.0), 0.0);
/// assert_eq!(within(0.25, 0.0, 1.0), 0.25);
/// assert!(within(f64::NAN, 0.0, 1.0).is_nan());
/// ```
pub fn within(v: f64, lo: f64, hi: f64) -> f64 {
    debug_assert!(lo <= hi, "within: the bounds are out of order");
    if v < lo {
        lo
    } else if v > hi {
        hi
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::within;

    proptest::proptest! {
        #[test]
        fn agrees_with_f64_clamp(bits: u64, a in -1e9f64..1e9, b in -1e9f64..1e9) {
            let (v, lo, hi) = (f64::from_bits(bits), a.min(b), a.max(b));
            let (ours, core) = (within(v, lo, hi), v.clamp(lo, hi));
            proptest::prop_assert!(ours.to_bits() == core.to_bits() || (ours.is_nan() && core.is_nan()));
        }
    }
}
