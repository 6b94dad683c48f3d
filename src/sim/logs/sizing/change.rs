//! What a policy does against the current one: the keys the current policy throttles and spares
//! ([`Sizing::throttled_by`], [`Sizing::spared_by`]), each with its peaks, and what another
//! policy changes ([`Sizing::change`]): the keys it newly spares, the keys it newly throttles,
//! its burst and rate as multiples of the current's.

use super::{Sizing, SizingRow};

/// One key with its peaks (measured on the log, the window being the current policy's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyPeaks {
    /// The key's index ([`crate::sim::logs::keys::Keys`] names it).
    pub key: u32,
    /// Its most requests within any 1 s.
    pub peak_1s: u64,
    /// Its most requests within any span of the current policy's window.
    pub peak_window: u64,
    /// Requests refused: under the policy that throttles it (for a key newly spared, the current).
    pub rejected: u64,
}

/// What a policy changes against the current one.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// Keys the current policy throttles and this one spares, the highest peak first.
    pub newly_spared: Vec<KeyPeaks>,
    /// Keys the current policy spares and this one throttles, the highest peak first.
    pub newly_throttled: Vec<KeyPeaks>,
    /// Its burst ÷ the current's.
    pub burst_multiple: f64,
    /// Its rate ÷ the current's.
    pub rate_multiple: f64,
}

impl Change {
    /// Whether it changes nothing about who is throttled.
    pub fn same_keys(&self) -> bool {
        self.newly_spared.is_empty() && self.newly_throttled.is_empty()
    }
}

impl Sizing {
    /// The policy in the query, as run on the log.
    pub fn current_row(&self) -> &SizingRow {
        &self.rows[self.current]
    }

    /// Key `k`'s peaks, with what `row` refused of it.
    fn peaks(&self, k: u32, row: &SizingRow) -> KeyPeaks {
        let c = &self.current_row().counts[k as usize];
        let rejected = row.counts.get(k as usize).map_or(0, |r| r.rejected);
        KeyPeaks { key: k, peak_1s: c.peak_1s, peak_window: c.peak_window, rejected }
    }

    /// The keys for which `keep(key)` holds, with their peaks under `row`, the highest first.
    fn keys_where(&self, row: &SizingRow, keep: impl Fn(u32) -> bool) -> Vec<KeyPeaks> {
        let n = self.current_row().counts.len() as u32;
        let mut out: Vec<KeyPeaks> = (0..n).filter(|&k| keep(k)).map(|k| self.peaks(k, row)).collect();
        out.sort_by_key(|p| (std::cmp::Reverse((p.peak_1s, p.peak_window)), p.key));
        out
    }

    /// The keys `row` throttles, the highest peak first.
    pub fn throttled_by(&self, row: &SizingRow) -> Vec<KeyPeaks> {
        self.keys_where(row, |k| row.throttles(k))
    }

    /// The keys `row` spares, the highest peak first.
    pub fn spared_by(&self, row: &SizingRow) -> Vec<KeyPeaks> {
        self.keys_where(row, |k| !row.throttles(k))
    }

    /// The outliers ([`Sizing::split`]) with their peaks and what the current policy refused.
    pub fn outliers(&self) -> Vec<KeyPeaks> {
        self.split.outliers.iter().map(|&k| self.peaks(k, self.current_row())).collect()
    }

    /// What `row` changes against the current policy.
    pub fn change(&self, row: &SizingRow) -> Change {
        let current = self.current_row();
        let ratio = |a: f64, b: f64| if b > 0.0 { a / b } else { f64::INFINITY };
        Change {
            newly_spared: self.keys_where(current, |k| current.throttles(k) && !row.throttles(k)),
            newly_throttled: self.keys_where(row, |k| !current.throttles(k) && row.throttles(k)),
            burst_multiple: ratio(row.burst as f64, current.burst as f64),
            rate_multiple: ratio(row.rate, current.rate),
        }
    }
}
