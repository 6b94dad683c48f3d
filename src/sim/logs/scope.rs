//! Where a product keeps its counters: one global counter per key (shadow mode's default), one per
//! instance behind a balancer (each nginx keeps its own zone: N instances, N counters per client),
//! or one per value of a log field (Cloudflare counts per data centre: a `pop` column). A scoped
//! run ([`Scoped`]) replays the same arrivals through both the scope's counters and the global
//! one, so the report says what the scope changes: requests admitted, keys throttled, and which
//! keys the scope spares or throttles that the global counter would not.

use std::collections::HashMap;

use super::chunks::each_chunk;
use super::error::LogError;
use super::format::LogFormat;
use super::keys::{phase_ns, KeyBy};
use super::order::Arrival;
use super::reader::{LogReader, ReadSummary, Sender};
use super::shadow::{Shadow, ShadowReport};
use crate::sim::{Scenario, SimTime};

/// The most instances a scope takes.
pub const MAX_INSTANCES: u32 = 1024;

/// How a balancer places requests on instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Instance 0, 1, 2, … in turn over every request of the log, in time order.
    RoundRobin,
    /// A uniform choice per request, seeded (from the scenario's `seed`, the key and its request's
    /// index among the key's): the same choices however the log is split.
    Random,
    /// A hash of the key: every request of a key on one instance (`hash $remote_addr`).
    Hash,
}

/// What a counter is kept per.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Scope {
    /// One counter per key, wherever its requests land.
    #[default]
    Global,
    /// One counter per key on each of `n` instances, the requests placed by `placement`.
    Instances {
        /// How many.
        n: u32,
        /// How requests reach them.
        placement: Placement,
    },
    /// One counter per key and value of the named log field.
    Field(String),
}

/// The names `--scope` takes, and `--placement`'s.
pub const SCOPE_NAMES: &str = "global | instance | field:NAME";
/// The names `--placement` takes.
pub const PLACEMENT_NAMES: &str = "rr | random | hash";

impl Scope {
    /// Reads `--scope` with `--instances` and `--placement` (the defaults: 2 instances, round
    /// robin), in the CLI's words when one is wrong.
    pub fn named(scope: &str, instances: Option<&str>, placement: Option<&str>) -> Result<Scope, String> {
        let instance_only = || match (instances, placement) {
            (None, None) => Ok(()),
            _ => Err("--instances and --placement describe instances: add --scope instance".to_string()),
        };
        match scope {
            "global" => instance_only().map(|_| Scope::Global),
            "instance" => {
                let n = match instances {
                    None => 2,
                    Some(text) => match text.parse::<u32>() {
                        Ok(n) if (1..=MAX_INSTANCES).contains(&n) => n,
                        _ => {
                            return Err(format!(
                                "--instances: '{text}' is not a whole number from 1 to {MAX_INSTANCES}"
                            ))
                        }
                    },
                };
                let placement = match placement.unwrap_or("rr") {
                    "rr" => Placement::RoundRobin,
                    "random" => Placement::Random,
                    "hash" => Placement::Hash,
                    other => return Err(format!("--placement: '{other}' is not one of {PLACEMENT_NAMES}")),
                };
                Ok(Scope::Instances { n, placement })
            }
            _ => match scope.strip_prefix("field:").filter(|f| !f.is_empty()) {
                Some(field) => instance_only().map(|_| Scope::Field(field.to_string())),
                None => Err(format!("--scope: '{scope}' is not one of {SCOPE_NAMES}")),
            },
        }
    }

    /// Its name in one word, as [`Scope::parse`] reads it: `global`, `instance:N:rr` (or
    /// `random`, `hash`), `field:NAME`.
    pub fn name(&self) -> String {
        match self {
            Scope::Global => "global".into(),
            Scope::Instances { n, placement } => format!("instance:{n}:{}", placement_name(*placement)),
            Scope::Field(f) => format!("field:{f}"),
        }
    }

    /// Reads [`Scope::name`]'s word.
    pub fn parse(word: &str) -> Result<Scope, String> {
        match word.strip_prefix("instance:").and_then(|rest| rest.split_once(':')) {
            Some((n, placement)) => Scope::named("instance", Some(n), Some(placement)),
            None => Scope::named(word, None, None),
        }
    }

    /// The log field the reader must tag arrivals with, for [`Scope::Field`].
    pub fn field(&self) -> Option<&str> {
        match self {
            Scope::Field(f) => Some(f),
            _ => None,
        }
    }

    /// Its words in a report ("4 instances, round robin").
    pub fn words(&self) -> String {
        match self {
            Scope::Global => "one global counter per key".into(),
            Scope::Instances { n, placement } => format!(
                "a counter per key on each of {n} instances, placed by {}",
                match placement {
                    Placement::RoundRobin => "round robin",
                    Placement::Random => "a random choice per request",
                    Placement::Hash => "a hash of the key (all of a key's requests on one instance)",
                }
            ),
            Scope::Field(f) => format!("a counter per key and value of {f}"),
        }
    }
}

/// `--placement`'s word for `p`.
fn placement_name(p: Placement) -> &'static str {
    match p {
        Placement::RoundRobin => "rr",
        Placement::Random => "random",
        Placement::Hash => "hash",
    }
}

/// What the scope changes against one global counter per key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgainstGlobal {
    /// The scope, in words.
    pub words: String,
    /// Admitted under the global counter.
    pub admitted: u64,
    /// Rejected under it.
    pub rejected: u64,
    /// Keys it throttles.
    pub keys_throttled: usize,
    /// Keys the global counter throttles that the scope spares.
    pub newly_spared: Vec<u32>,
    /// Keys the scope throttles that the global counter spares.
    pub newly_throttled: Vec<u32>,
    /// The counters the scope kept (key × instance or field value), and the instances or
    /// values seen.
    pub counters: usize,
}

/// A shadow run under a scope, beside the global one on the same arrivals.
pub struct Scoped<'s> {
    scope: Scope,
    seed: u64,
    global: Shadow<'s>,
    scoped: Shadow<'s>,
    /// (key, part) → the scoped run's key index.
    slots: HashMap<(u32, u32), u32>,
    /// The scoped run's key indices → the key.
    owner: Vec<u32>,
    /// Requests so far, over all keys (round robin) and per key (random placement).
    seen: u64,
    per_key: Vec<u32>,
}

impl<'s> Scoped<'s> {
    /// No request yet, under `sc` and `scope`.
    pub fn new(sc: &'s Scenario, scope: Scope) -> Self {
        Scoped {
            scope,
            seed: sc.seed,
            global: Shadow::new(sc),
            scoped: Shadow::new(sc),
            slots: HashMap::new(),
            owner: Vec::new(),
            seen: 0,
            per_key: Vec::new(),
        }
    }

    /// Decides the next request, from `from`, under both counters.
    pub fn push(&mut self, a: Arrival, from: Sender<'_>) {
        self.global.push(a, from);
        if self.scope == Scope::Global {
            return;
        }
        let k = a.key as usize;
        if self.per_key.len() <= k {
            self.per_key.resize(k + 1, 0);
        }
        let nth = self.per_key[k];
        self.per_key[k] += 1;
        let part = match self.scope {
            Scope::Global | Scope::Field(_) => a.part,
            Scope::Instances { n, placement: Placement::RoundRobin } => (self.seen % u64::from(n)) as u32,
            Scope::Instances { n, placement: Placement::Hash } => (phase_ns(from.key) % u64::from(n)) as u32,
            Scope::Instances { n, placement: Placement::Random } => {
                (mix(self.seed ^ phase_ns(from.key).rotate_left(32) ^ u64::from(nth)) % u64::from(n)) as u32
            }
        };
        self.seen += 1;
        let next = self.owner.len() as u32;
        let slot = *self.slots.entry((a.key, part)).or_insert(next);
        if slot == next {
            self.owner.push(a.key);
        }
        self.scoped.push(Arrival { at: a.at, key: slot, part: a.part }, from);
    }

    /// The report: the scope's counts per key (the peaks are the key's, over all its requests),
    /// and what the scope changes against the global counter (`None` for the global scope).
    pub fn finish(self, read: ReadSummary) -> (ShadowReport, Option<AgainstGlobal>) {
        let mut report = self.global.finish(read);
        if self.scope == Scope::Global {
            return (report, None);
        }
        let global_rejected: Vec<u64> = report.per_key.iter().map(|k| k.rejected).collect();
        let global = (report.admitted, report.rejected, report.keys_throttled());
        let scoped = self.scoped.finish(ReadSummary::empty_like(&report.read));
        for k in report.per_key.iter_mut() {
            (k.admitted, k.rejected) = (0, 0);
        }
        report.first_rejected.iter_mut().for_each(|f| *f = None);
        for (slot, counts) in scoped.per_key.iter().enumerate() {
            let key = self.owner[slot] as usize;
            report.per_key[key].admitted += counts.admitted;
            report.per_key[key].rejected += counts.rejected;
            let first: Option<SimTime> = scoped.first_rejected.get(slot).copied().flatten();
            let f = &mut report.first_rejected[key];
            *f = match (*f, first) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        (report.admitted, report.rejected) = (scoped.admitted, scoped.rejected);
        (report.rejections, report.bucket) = (scoped.rejections, scoped.bucket);
        let keys = 0..report.per_key.len() as u32;
        let newly_spared = keys
            .clone()
            .filter(|&k| global_rejected[k as usize] > 0 && report.per_key[k as usize].rejected == 0)
            .collect();
        let newly_throttled =
            keys.filter(|&k| global_rejected[k as usize] == 0 && report.per_key[k as usize].rejected > 0).collect();
        let against = AgainstGlobal {
            words: self.scope.words(),
            admitted: global.0,
            rejected: global.1,
            keys_throttled: global.2,
            newly_spared,
            newly_throttled,
            counters: self.owner.len(),
        };
        (report, Some(against))
    }
}

/// Runs the log in `input` through `sc`'s limiter, one per key and `scope` ([`Scoped`]): the
/// report under the scope, and what it changes against one global counter per key.
pub fn shadow_scoped(
    input: impl std::io::BufRead,
    format: Option<LogFormat>,
    key: &KeyBy,
    sc: &Scenario,
    scope: Scope,
) -> Result<(ShadowReport, Option<AgainstGlobal>), LogError> {
    let mut reader = LogReader::new(format, key).with_part_field(scope.field());
    let mut run = Scoped::new(sc, scope);
    let mut input = input;
    each_chunk(&mut input, |chunk| reader.feed(chunk, &mut |a, from| run.push(a, from)))?;
    let summary = reader.finish(&mut |a, from| run.push(a, from))?;
    Ok(run.finish(summary))
}

/// SplitMix64's finaliser: a well-spread 64-bit hash of `x`.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests;
