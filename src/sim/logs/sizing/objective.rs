//! What the sizing assistant recommends a policy for. By default ([`Objective::Outliers`]) the
//! log's own shape: the keys whose busiest second looks like the bulk's are split from the
//! outliers by Tukey's far-out fence on the per-key peaks in 1 s ([`Split::of`]), and the
//! tightest policy that spares every bulk key and throttles every outlier is recommended — the
//! current one ("keep it") when it already does. [`Objective::Target`] is the older rule: the
//! smallest policy under which at most a share of the keys sees a 429.

use super::{Sizing, SizingRow};
use crate::sim::support::decimal::format_f64_trimmed;

/// The fence's factor on the interquartile range: Tukey's "far out" (3, not the 1.5 of his
/// "outside"), so a busy but ordinary client is never called an outlier.
pub const FAR_OUT: f64 = 3.0;

/// What the recommendation must do.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Objective {
    /// Spare every key whose peak looks like the bulk's and throttle the outliers ([`Split`]).
    Outliers,
    /// Throttle at most this share of the keys, 0–1.
    Target(f64),
}

/// The keys of a log split by their peaks: the bulk and the outliers above the fence.
#[derive(Clone, Debug, PartialEq)]
pub struct Split {
    /// The lower and upper quartiles of the per-key peaks in 1 s.
    pub quartiles: (u64, u64),
    /// A key whose peak in 1 s is above this is an outlier: Q3 + 3 × IQR, the IQR taken as at
    /// least 1 (peaks are whole requests; with most keys at one request a second, the IQR is 0).
    pub fence: f64,
    /// The outliers' key indices, the highest peak first.
    pub outliers: Vec<u32>,
}

impl Split {
    /// The split of keys whose peaks in 1 s are `peaks` (by key index).
    ///
    /// ```
    /// use ratelimit_playground::sim::logs::sizing::objective::Split;
    /// // Twenty clients at 1–3 requests in their busiest second, two scrapers at 30 and 45.
    /// let mut peaks = vec![1, 2, 1, 3, 1, 1, 2, 1, 1, 2, 1, 1, 1, 3, 1, 2, 1, 1, 1, 1];
    /// peaks.extend([30, 45]);
    /// let split = Split::of(&peaks);
    /// assert_eq!((split.quartiles, split.fence), ((1, 2), 5.0));
    /// assert_eq!(split.outliers, [21, 20]);
    /// assert!(Split::of(&[1, 2, 3, 4, 5]).outliers.is_empty(), "no outliers in an even spread");
    /// ```
    pub fn of(peaks: &[u64]) -> Split {
        let mut sorted = peaks.to_vec();
        sorted.sort_unstable();
        let at = |q: f64| sorted.get(((sorted.len().max(1) - 1) as f64 * q).round() as usize).copied().unwrap_or(0);
        let (q1, q3) = (at(0.25), at(0.75));
        let fence = q3 as f64 + FAR_OUT * (q3 - q1).max(1) as f64;
        let mut outliers: Vec<u32> = (0..peaks.len() as u32).filter(|&k| peaks[k as usize] as f64 > fence).collect();
        outliers.sort_by_key(|&k| (std::cmp::Reverse(peaks[k as usize]), k));
        Split { quartiles: (q1, q3), fence, outliers }
    }

    /// The rule in words, with its numbers.
    pub fn rule_words(&self) -> String {
        let (q1, q3) = self.quartiles;
        format!(
            "a key is an outlier when its peak in 1 s is above {}, Tukey's far-out fence: the upper quartile {q3} + 3 × the interquartile range {} (taken as at least 1)",
            format_f64_trimmed(self.fence, 2),
            (q3 - q1).max(1)
        )
    }
}

/// Why the recommendation is the policy it is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Reason {
    /// The current policy already spares the bulk and throttles every outlier.
    Keep,
    /// The tightest policy tried that spares the bulk and throttles every outlier.
    Split,
    /// No policy tried throttles every outlier while sparing the bulk: the tightest that spares it.
    SparesBulk,
    /// The smallest policy under the target share of keys throttled.
    Target,
}

/// How `row` treats the keys split by `outlier` (by key index): whether it spares every bulk key
/// and whether it throttles every outlier.
fn treats(row: &SizingRow, outlier: &[bool]) -> (bool, bool) {
    let throttled = |k: usize| row.counts.get(k).is_some_and(|c| c.rejected > 0);
    let spares_bulk = (0..outlier.len()).all(|k| outlier[k] || !throttled(k));
    let throttles_outliers = (0..outlier.len()).all(|k| !outlier[k] || throttled(k));
    (spares_bulk, throttles_outliers)
}

/// The recommended row of `rows` (sorted smallest first; `current` is the policy in the query)
/// under `objective` over `keys` keys, split by `split`, and why; `None` if no row qualifies.
pub fn pick(
    objective: Objective,
    rows: &[SizingRow],
    current: usize,
    keys: usize,
    split: &Split,
) -> Option<(usize, Reason)> {
    match objective {
        Objective::Target(share) => {
            let allowed = (share * keys as f64).floor() as usize;
            rows.iter().position(|r| r.keys_throttled <= allowed).map(|i| (i, Reason::Target))
        }
        Objective::Outliers => {
            let mut outlier = vec![false; keys];
            for &k in &split.outliers {
                outlier[k as usize] = true;
            }
            let judged: Vec<(bool, bool)> = rows.iter().map(|r| treats(r, &outlier)).collect();
            if judged[current] == (true, true) {
                return Some((current, Reason::Keep));
            }
            judged
                .iter()
                .position(|&j| j == (true, true))
                .map(|i| (i, Reason::Split))
                .or_else(|| judged.iter().position(|j| j.0).map(|i| (i, Reason::SparesBulk)))
        }
    }
}

/// Whether `row` does what `objective` asks over `keys` keys split by `split`.
pub fn meets(objective: Objective, row: &SizingRow, keys: usize, split: &Split) -> bool {
    match objective {
        Objective::Target(share) => row.keys_throttled <= (share * keys as f64).floor() as usize,
        Objective::Outliers => {
            let mut outlier = vec![false; keys];
            for &k in &split.outliers {
                outlier[k as usize] = true;
            }
            treats(row, &outlier) == (true, true)
        }
    }
}

impl Sizing {
    /// Which rule picked the recommendation, in words, with the rule's numbers; `None` without one.
    pub fn objective_words(&self) -> Option<String> {
        let (n, rule) = (self.split.outliers.len(), self.split.rule_words());
        let bulk = self.keys - n;
        Some(match (self.reason?, n) {
            (Reason::Keep, 0) => {
                format!("keep it: the log has no outliers, and the current policy throttles none of its keys; the rule: {rule}")
            }
            (Reason::Keep, _) => format!(
                "keep it: the current policy already spares all {bulk} keys whose peaks look like the bulk and throttles all {n} outliers; the rule: {rule}"
            ),
            (Reason::Split, 0) => {
                format!("the log has no outliers: the tightest policy tried that throttles none of its keys; the rule: {rule}")
            }
            (Reason::Split, _) => format!(
                "the tightest policy tried that spares all {bulk} keys whose peaks look like the bulk and throttles all {n} outliers; the rule: {rule}"
            ),
            (Reason::SparesBulk, _) => {
                let row = &self.rows[self.recommended?];
                let spared = self.split.outliers.iter().filter(|&&k| !row.throttles(k)).count();
                format!(
                    "no policy tried throttles all {n} outliers without throttling a key of the bulk: the tightest that spares all {bulk} bulk keys, which also spares {spared} of the outliers; the rule: {rule}"
                )
            }
            (Reason::Target, _) => format!(
                "the smallest policy tried under which at most {} % of the keys see a 429 (the target, not the outlier rule)",
                format_f64_trimmed(self.throttled_share() * 100.0, 2)
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_at_one_request_a_second_has_no_outlier_and_a_fence_of_four() {
        let split = Split::of(&[1; 300]);
        assert_eq!((split.quartiles, split.fence, split.outliers.len()), ((1, 1), 4.0, 0));
        assert!(Split::of(&[]).outliers.is_empty());
    }

    #[test]
    fn a_fence_is_above_the_upper_quartile_by_three_interquartile_ranges() {
        // Ten keys at each peak from 10 to 19, then two of them at 32 and 33: the quartiles are
        // 12 and 17, the fence 17 + 3 × 5 = 32; 32 is not above it, 33 is.
        let mut peaks: Vec<u64> = (0..100).map(|i| 10 + i / 10).collect();
        (peaks[0], peaks[1]) = (32, 33);
        let split = Split::of(&peaks);
        assert_eq!((split.quartiles, split.fence, split.outliers), ((12, 17), 32.0, vec![1]));
    }
}
