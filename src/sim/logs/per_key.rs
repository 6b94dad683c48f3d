//! One key's requests replayed on their own, in any order they come: what a cluster (Spark, Dask)
//! runs per group after shuffling the log by key. A key's arrival times depend on its own stamps
//! and name alone ([`super::order::spread`]), and its limiter sees nothing else, so the counts
//! are exactly the ones the whole log's shadow run gives that key ([`super::shadow`]), whatever
//! other keys sent and however the rows were split or shuffled.
//!
//! Memory: a whole-second stamp costs one counter per distinct second the key was active in, a
//! finer stamp 8 bytes; a hot key of a billion whole-second requests over a week is ~600 000
//! counters.

use std::collections::BTreeMap;

use super::error::{error, LogError};
use super::format::{LogFormat, FORMAT_NAMES};
use super::keys::{phase_ns, KeyBy};
use super::order::{origin_s, spread, Arrival};
use super::reader::{ReadSummary, Sender};
use super::scope::{Placement, Scope, Scoped};
use super::shadow::KeyCounts;
use crate::sim::{Scenario, SimTime};

/// The largest stamp taken, ns from the epoch either way: the reader's bound ([`super::reader`]).
const MAX_STAMP_NS: i64 = 9_000_000_000_000 * 1_000_000;

/// One key's requests, collected in any order.
#[derive(Clone, Debug, Default)]
pub struct KeyRequests {
    /// Whole-second stamps: second since the epoch → requests in it.
    seconds: BTreeMap<i64, u64>,
    /// Finer stamps, ns since the epoch.
    exact: Vec<i64>,
}

/// What one key's replay found: its counts and its first 429.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyReplay {
    /// Requests, admitted, rejected and the peaks, as the whole log's report has them.
    pub counts: KeyCounts,
    /// When the first 429 came, ms since the epoch.
    pub first_rejected_ms: Option<i64>,
    /// Under a scope, what one global counter would have admitted and rejected.
    pub global: Option<(u64, u64)>,
}

impl KeyRequests {
    /// A request stamped with the whole second `second` (since the epoch): spread over it.
    pub fn whole_second(&mut self, second: i64) -> Result<(), LogError> {
        check(second.saturating_mul(1_000_000_000))?;
        *self.seconds.entry(second).or_default() += 1;
        Ok(())
    }

    /// A request stamped `ns` since the epoch, exactly.
    pub fn exact(&mut self, ns: i64) -> Result<(), LogError> {
        check(ns)?;
        self.exact.push(ns);
        Ok(())
    }

    /// Requests collected.
    pub fn len(&self) -> u64 {
        self.seconds.values().sum::<u64>() + self.exact.len() as u64
    }

    /// Whether none was.
    pub fn is_empty(&self) -> bool {
        self.seconds.is_empty() && self.exact.is_empty()
    }

    /// The key's requests through `sc`'s limiter for a client named `key`, with simulated 0 at
    /// `origin_ms` (ms since the epoch: the UTC midnight before the whole log's first request,
    /// [`midnight_before`]; 0 for a `times` log).
    pub fn replay(self, key: &str, sc: &Scenario, origin_ms: i64) -> KeyReplay {
        self.replay_scoped(key, sc, origin_ms, &Scope::Global).expect("the global scope needs no order")
    }

    /// [`KeyRequests::replay`] with the key's counters kept per instance ([`Scope`]): placed at
    /// random or by a hash of the key, which depend on the key's own requests alone. Round robin
    /// depends on every key's order, and a field's value is not among a key's stamps: both are
    /// refused, in words that say what to do instead.
    pub fn replay_scoped(
        mut self,
        key: &str,
        sc: &Scenario,
        origin_ms: i64,
        scope: &Scope,
    ) -> Result<KeyReplay, String> {
        match scope {
            Scope::Instances { placement: Placement::RoundRobin, .. } => {
                return Err("placement: round robin turns on every key's requests in one order; per key (Arrow, Spark, Dask) use placement=random (what it looks like to one client among many) or hash, or replay the files with shadow(path)".into())
            }
            Scope::Field(f) => {
                return Err(format!("scope: per key (Arrow, Spark, Dask) a counter per {f} is a key of key and {f}: make the key column both (e.g. concat)"))
            }
            _ => {}
        }
        let phase = phase_ns(key);
        let whole = self.len() as usize - self.exact.len();
        let mut times = std::mem::take(&mut self.exact);
        times.reserve(whole);
        for (&second, &n) in &self.seconds {
            times.extend((0..n).map(|k| spread(second, k, n, phase)));
        }
        times.sort_unstable();
        let mut run = Scoped::new(sc, scope.clone());
        let from = Sender { key, origin_s: origin_s(origin_ms) };
        let origin_ns = origin_ms.saturating_mul(1_000_000);
        for ns in times {
            run.push(Arrival { at: SimTime(ns.saturating_sub(origin_ns).max(0) as u64), key: 0, part: 0 }, from);
        }
        let (report, against) = run.finish(ReadSummary::of_replay(origin_ms));
        let first = report.first_rejected.first().copied().flatten();
        Ok(KeyReplay {
            counts: report.per_key.into_iter().next().unwrap_or_default(),
            first_rejected_ms: first.map(|t| origin_ms + (t.as_nanos() / 1_000_000) as i64),
            global: against.map(|g| (g.admitted, g.rejected)),
        })
    }
}

/// Simulated 0 for a log whose first request came `first_ns` after the epoch: the UTC midnight
/// before it, ms since the epoch, as the reader sets it.
pub fn midnight_before(first_ns: i64) -> i64 {
    const DAY_MS: i64 = 86_400_000;
    first_ns.div_euclid(1_000_000).div_euclid(DAY_MS) * DAY_MS
}

/// A log's lines read into requests one by one, in no order: what a cluster's workers run over
/// their part of the log before the engine groups it by key. Each line is read as the reader
/// ([`super::reader`]) reads it: its format detected from the first line unless named, blank and
/// comment lines passed over, a line that does not fit the format counted in `skipped`.
pub struct LineRequests {
    format: Option<LogFormat>,
    key: KeyBy,
    /// Lines that do not fit the format.
    pub skipped: u64,
}

impl LineRequests {
    /// Lines in `format` (detected from the first if `None`), keyed by `key`.
    pub fn new(format: Option<LogFormat>, key: &KeyBy) -> Result<Self, LogError> {
        Ok(LineRequests { format: format.map(line_by_line).transpose()?, key: key.clone(), skipped: 0 })
    }

    /// The format read: as named, or detected from the first line.
    pub fn format(&self) -> Option<LogFormat> {
        self.format.clone()
    }

    /// Reads `line`, telling `out` its request (key, ns since the epoch, whether the stamp is a
    /// whole second) if it is one.
    pub fn line(&mut self, line: &str, out: impl FnOnce(&str, i64, bool)) -> Result<(), LogError> {
        let line = line.strip_suffix('\n').unwrap_or(line);
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.bytes().all(|b| b.is_ascii_whitespace()) {
            return Ok(());
        }
        if self.format.is_none() {
            let detected = LogFormat::detect(line).ok_or_else(|| {
                error(
                    0,
                    format!(
                        "'{}' is not in a log format this reads ({FORMAT_NAMES}); name one with log_format",
                        clip(line)
                    ),
                )
            })?;
            self.format = Some(line_by_line(detected)?);
        }
        let f = self.format.as_ref().expect("a format");
        if line.starts_with('#') && matches!(f, LogFormat::CloudFront | LogFormat::Times) {
            return Ok(());
        }
        match f.parse(line, &[]).filter(|e| e.stamp.ms.unsigned_abs() <= (MAX_STAMP_NS / 1_000_000) as u64) {
            Some(entry) => out(self.key.of(&entry), entry.ns(), entry.stamp.whole_second),
            None => self.skipped += 1,
        }
        Ok(())
    }
}

/// `format`, if its lines can be read one by one: a CSV line needs its file's header.
fn line_by_line(format: LogFormat) -> Result<LogFormat, LogError> {
    match format {
        LogFormat::Csv(_) => Err(error(
            0,
            "a CSV log's lines need its header: read it with the engine's CSV reader and pass the key and time columns",
        )),
        f => Ok(f),
    }
}

/// The start of `line`, for a message.
fn clip(line: &str) -> &str {
    line.char_indices().nth(80).map_or(line, |(i, _)| &line[..i])
}

/// A stamp the reader would take: within ±9·10¹² ms of the epoch (the years 1685–2255).
fn check(ns: i64) -> Result<(), LogError> {
    if ns.unsigned_abs() > MAX_STAMP_NS as u64 {
        return Err(error(0, format!("a time {ns} ns from the epoch is outside the years 1685–2255")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::logs::reader::read_log;
    use crate::sim::logs::samples::sample_log;
    use crate::sim::logs::{shadow, KeyBy};

    /// Every key of `log` replayed on its own from its stamps, handed over `shuffled`.
    fn per_key(log: &str, sc: &Scenario, shuffled: bool) -> Vec<(String, KeyReplay)> {
        let mut keys: BTreeMap<String, Vec<i64>> = BTreeMap::new();
        let read = read_log(log.as_bytes(), None, &KeyBy::Ip, |_| {}).unwrap();
        // The sample logs are combined logs: whole-second stamps, parsed as the reader does.
        for line in log.lines() {
            let entry = read.format.parse(line, &[]).unwrap();
            keys.entry(entry.ip.to_string()).or_default().push(entry.stamp.ms.div_euclid(1000));
        }
        let origin = read.origin_ms;
        keys.into_iter()
            .map(|(key, mut seconds)| {
                if shuffled {
                    seconds.reverse();
                    let third = seconds.len() / 3;
                    seconds.rotate_left(third);
                }
                let mut requests = KeyRequests::default();
                seconds.into_iter().for_each(|s| requests.whole_second(s).unwrap());
                let replay = requests.replay(&key, sc, origin);
                (key, replay)
            })
            .collect()
    }

    #[test]
    fn each_key_alone_and_shuffled_gets_the_whole_logs_counts() {
        let log = sample_log("api", 7, 3).unwrap();
        for query in
            ["capacity=20&refill=2", "algo=sliding_window&limit=30&window=10", "algo=nginx&capacity=10&refill=5"]
        {
            let sc = Scenario::from_query(query).unwrap();
            let whole = shadow(log.as_bytes(), None, &KeyBy::Ip, &sc).unwrap();
            let origin = whole.read.origin_ms;
            assert!(whole.keys_throttled() > 0, "{query}: some key is throttled");
            for shuffled in [false, true] {
                let alone = per_key(&log, &sc, shuffled);
                assert_eq!(alone.len(), whole.read.keys.len());
                for (key, replay) in alone {
                    let i = (0..whole.per_key.len() as u32).find(|&i| whole.read.keys.name(i) == key).unwrap();
                    assert_eq!(replay.counts, whole.per_key[i as usize], "{query}: {key}");
                    let first = whole.first_rejected[i as usize].map(|t| origin + (t.as_nanos() / 1_000_000) as i64);
                    assert_eq!(replay.first_rejected_ms, first, "{query}: {key}");
                }
            }
        }
    }

    #[test]
    fn instances_placed_at_random_or_by_hash_replay_per_key_as_in_the_whole_log() {
        let log = sample_log("api", 7, 3).unwrap();
        let sc = Scenario::from_query("capacity=20&refill=2").unwrap();
        for placement in [Placement::Random, Placement::Hash] {
            let scope = Scope::Instances { n: 3, placement };
            let (whole, against) =
                crate::sim::logs::scope::shadow_scoped(log.as_bytes(), None, &KeyBy::Ip, &sc, scope.clone()).unwrap();
            assert!(against.is_some());
            let mut keys: BTreeMap<String, KeyRequests> = BTreeMap::new();
            let mut lines = LineRequests::new(None, &KeyBy::Ip).unwrap();
            for line in log.lines().rev() {
                lines
                    .line(line, |k, ns, _| {
                        keys.entry(k.into()).or_default().whole_second(ns.div_euclid(1_000_000_000)).unwrap()
                    })
                    .unwrap();
            }
            for (key, r) in keys {
                let i = (0..whole.per_key.len() as u32).find(|&i| whole.read.keys.name(i) == key).unwrap();
                let got = r.replay_scoped(&key, &sc, whole.read.origin_ms, &scope).unwrap();
                assert_eq!(got.counts, whole.per_key[i as usize], "{placement:?} {key}");
            }
        }
        let rr = Scope::Instances { n: 3, placement: Placement::RoundRobin };
        assert!(KeyRequests::default().replay_scoped("a", &sc, 0, &rr).unwrap_err().contains("placement=random"));
    }

    #[test]
    fn exact_stamps_in_any_order_replay_in_time_order() {
        let sc = Scenario::from_query("capacity=2&refill=1").unwrap();
        let base = 1_700_000_000_000_000_000;
        let mut r = KeyRequests::default();
        for ms in [300, 0, 200, 100] {
            r.exact(base + ms * 1_000_000).unwrap();
        }
        let got = r.replay("a", &sc, midnight_before(base));
        assert_eq!((got.counts.requests, got.counts.admitted, got.counts.rejected, got.counts.peak_1s), (4, 2, 2, 4));
        assert_eq!(got.first_rejected_ms, Some(1_700_000_000_200), "the third in time, not in the order given");
    }

    #[test]
    fn lines_read_one_by_one_give_the_readers_requests() {
        let log = sample_log("api", 3, 1).unwrap();
        let sc = Scenario::from_query("capacity=20&refill=2").unwrap();
        let whole = shadow(log.as_bytes(), None, &KeyBy::Ip, &sc).unwrap();
        let mut lines = LineRequests::new(None, &KeyBy::Ip).unwrap();
        let mut keys: BTreeMap<String, KeyRequests> = BTreeMap::new();
        for line in log.lines().rev().chain(["", "not a request"]) {
            lines
                .line(line, |key, ns, whole_second| {
                    let r = keys.entry(key.to_string()).or_default();
                    assert!(whole_second, "a combined log's stamps are whole seconds");
                    r.whole_second(ns.div_euclid(1_000_000_000)).unwrap();
                })
                .unwrap();
        }
        assert_eq!((lines.skipped, keys.len()), (1, whole.read.keys.len()));
        let first = keys.values().flat_map(|r| r.seconds.keys()).min().unwrap() * 1_000_000_000;
        for (key, r) in keys {
            let i = (0..whole.per_key.len() as u32).find(|&i| whole.read.keys.name(i) == key).unwrap();
            assert_eq!(r.replay(&key, &sc, midnight_before(first)).counts, whole.per_key[i as usize], "{key}");
        }
        let csv = LineRequests::new(Some(LogFormat::named("csv").unwrap()), &KeyBy::Ip).err().unwrap();
        assert!(csv.message.contains("CSV reader"), "{csv}");
        let e = LineRequests::new(None, &KeyBy::Ip).unwrap().line("hello", |_, _, _| {}).unwrap_err();
        assert!(e.message.contains("'hello' is not in a log format"), "{e}");
    }

    #[test]
    fn a_time_outside_any_calendar_is_refused() {
        let mut r = KeyRequests::default();
        assert!(r.exact(i64::MAX).unwrap_err().message.contains("outside the years"));
        assert!(r.whole_second(i64::MIN / 2).is_err());
        assert!(r.is_empty());
    }
}
