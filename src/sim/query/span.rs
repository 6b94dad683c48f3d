//! Spans of time in the query format: `outage=START-END` and the products' span keys
//! (`spike`), in seconds, or `none`.

use super::keys::S;
use crate::sim::scenario::Outage;
use crate::sim::support::decimal::{format_fixed, parse_fixed};
use crate::sim::time::SimTime;

/// `outage=START-END` in seconds, `START < END ≤ 86400`, or `none` (or empty): `None` if it is
/// neither.
pub(super) fn outage_of(value: &str) -> Option<Option<Outage>> {
    span_of(value, S).map(|s| s.map(|(a, b)| Outage { start: SimTime(a), end: SimTime(b) }))
}

/// `START-END` in seconds with up to `digits` fractional digits, `START < END ≤ 86400`, as
/// integers in those units; or `none` (or empty): `None` if it is neither.
pub(super) fn span_of(value: &str, digits: u32) -> Option<Option<(u64, u64)>> {
    if value == "none" || value.is_empty() {
        return Some(None);
    }
    let (a, b) = value.split_once('-')?;
    let (a, b) = (parse_fixed(a, digits).ok()?, parse_fixed(b, digits).ok()?);
    (a < b && b <= 86_400 * 10u64.pow(digits)).then_some(Some((a, b)))
}

/// A span of seconds as the query format writes it: `START-END`, or `none`.
pub(super) fn span_text(span: Option<(u64, u64)>, digits: u32) -> String {
    span.map_or("none".to_string(), |(a, b)| format!("{}-{}", format_fixed(a, digits), format_fixed(b, digits)))
}
