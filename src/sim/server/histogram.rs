//! [`LogHistogram`]: durations in buckets that widen with their value (each a 1/64 of its power
//! of two, so a percentile is within 1.6 % of the exact one), with the exact sum beside them for
//! the mean. Service-time latencies take every value, unlike the limiter's few round trips
//! ([`crate::sim::metrics::Latencies`] keeps those exactly): a run of millions of requests keeps
//! at most a few thousand buckets.

use crate::sim::time::Nanos;
use std::collections::BTreeMap;

// (Keyed by u64, as `Latencies` is: one BTreeMap's code for both in the whole page.)

/// Sub-buckets per power of two.
const SUB_BITS: u32 = 6;

/// Durations counted by bucket, with their exact sum.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogHistogram {
    counts: BTreeMap<u64, u64>,
    total: u64,
    sum: u128,
}

/// The bucket of `ns`: exact below 128 ns, then 64 per power of two.
fn bucket(ns: u64) -> u64 {
    if ns < 1 << (SUB_BITS + 1) {
        return ns;
    }
    let exp = u64::from(63 - ns.leading_zeros());
    let sub = (ns >> (exp - u64::from(SUB_BITS))) & ((1 << SUB_BITS) - 1);
    ((exp - u64::from(SUB_BITS)) << SUB_BITS) + (1 << SUB_BITS) + sub
}

/// The least duration in bucket `b`.
fn floor(b: u64) -> u64 {
    if b < 1 << (SUB_BITS + 1) {
        return b;
    }
    let exp = (b >> SUB_BITS) - 1 + u64::from(SUB_BITS);
    let sub = b & ((1 << SUB_BITS) - 1);
    (1 << exp) | (sub << (exp - u64::from(SUB_BITS)))
}

impl LogHistogram {
    /// Counts one duration.
    pub fn record(&mut self, d: Nanos) {
        *self.counts.entry(bucket(d.as_nanos())).or_insert(0) += 1;
        self.total += 1;
        self.sum += u128::from(d.as_nanos());
    }

    /// Durations counted.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// Their exact sum, ns.
    pub fn sum(&self) -> u128 {
        self.sum
    }

    /// Their mean in ms (0 with none).
    pub fn mean_ms(&self) -> f64 {
        if self.total == 0 {
            return 0.0;
        }
        self.sum as f64 / self.total as f64 / 1e6
    }

    /// The `p`-th percentile (0–100, nearest rank): the least duration of its bucket, so at most
    /// 1/64 of a power of two below the exact one (0 with none).
    pub fn percentile(&self, p: f64) -> Nanos {
        if self.total == 0 {
            return Nanos::ZERO;
        }
        let rank = ((p / 100.0 * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut seen = 0;
        for (&b, &n) in &self.counts {
            seen += n;
            if seen >= rank {
                return Nanos(floor(b));
            }
        }
        Nanos::ZERO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_s_floor_is_within_a_64th_of_its_power_of_two_below_any_value_in_it() {
        for ns in (0..200_000u64).chain([1_000_000, 123_456_789, 9_999_999_999, u64::MAX / 3]) {
            let f = floor(bucket(ns));
            assert!(f <= ns && (ns - f) * 64 <= ns.max(1), "{ns}: {f}");
            assert_eq!(bucket(f), bucket(ns), "{ns}");
        }
    }

    #[test]
    fn percentiles_and_the_mean_follow_the_durations() {
        let mut h = LogHistogram::default();
        for ms in 1..=100u64 {
            h.record(Nanos::from_millis(ms));
        }
        assert_eq!(h.mean_ms(), 50.5);
        let p50 = h.percentile(50.0).as_nanos() as f64 / 1e6;
        let p99 = h.percentile(99.0).as_nanos() as f64 / 1e6;
        assert!((49.3..=50.0).contains(&p50) && (97.5..=99.0).contains(&p99), "{p50} {p99}");
    }
}
