//! [`first`]: the first instant (a millisecond or a nanosecond, as the caller counts) at which a
//! limiter left alone admits again, by binary search; the models whose arithmetic has no closed
//! form for it (Upstash's cache, the Lua scripts, Python's float clock) use it.

/// The first instant in `from..=to` at which `admits` holds, for a predicate that, once true,
/// stays true while nothing else happens (a limiter left alone only frees quota): a binary search,
/// so a day-long window costs 27 probes, not 86 million.
pub(crate) fn first(from: u64, to: u64, admits: impl Fn(u64) -> bool) -> Option<u64> {
    if !admits(to) {
        return None;
    }
    let (mut lo, mut hi) = (from, to);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if admits(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Some(lo)
}
