//! One analysis of a log as the page runs it (in its worker): read the log once, a chunk at a
//! time ([`Analysis::feed`]), replaying it in shadow mode while keeping its arrivals; then
//! ([`Analysis::finish`]) hand over the report, sweep the policy over those arrivals with
//! progress and hand over the sizing table. The CLI prints the same numbers from
//! the same functions ([`super::shadow`], [`super::sizing`]). What the page asks for and how the
//! answers are drawn are the worker's side (`crate::present::log_report`).

use std::io::BufRead;

use super::chunks::each_chunk;
use super::dry_run::{Agreement, DryRun, Mode};
use super::error::LogError;
use super::format::LogFormat;
use super::order::Arrival;
use super::reader::{KeyBy, LogReader, Sender};
use super::scope::{AgainstGlobal, Scope, Scoped};
use super::shadow::ShadowReport;
use super::sizing::{sweep_with, Objective, Sizing};
use crate::sim::Scenario;

/// The most arrivals kept for the sweep (16 bytes each: 64 MiB). A longer log is reported whole
/// and sized on its first `MAX_SWEPT` requests, which the page says.
pub const MAX_SWEPT: usize = 1 << 22;

/// What an analysis has to say, in order.
pub enum Step<'a> {
    /// The shadow report of the whole log; under a scope, what it changes against one global
    /// counter per key; and for a log that carries nginx's `$limit_req_status`, how far the
    /// nginx model agrees with it ([`super::dry_run`]).
    Report(&'a ShadowReport, Option<&'a AgainstGlobal>, Option<&'a Result<Agreement, LogError>>),
    /// `done` of `of` policies swept.
    Swept(usize, usize),
    /// The sizing table, over the first `swept` requests of the log.
    Sized {
        /// The sweep.
        sizing: &'a Sizing,
        /// The report (whose keys the sweep's indices name).
        report: &'a ShadowReport,
        /// Requests swept.
        swept: usize,
        /// The log's arrivals swept, in order (the first `swept`).
        arrivals: &'a [Arrival],
    },
}

/// One arrival through the shadow run, kept for the sweep while there is room.
fn replay(run: &mut Scoped<'_>, arrivals: &mut Vec<Arrival>, a: Arrival, from: Sender<'_>) {
    run.push(a, from);
    if arrivals.len() < MAX_SWEPT {
        arrivals.push(a);
    }
}

/// One analysis fed a chunk at a time (the page's worker reads a `File` as a stream).
pub struct Analysis<'s> {
    sc: &'s Scenario,
    objective: Objective,
    reader: LogReader,
    run: Scoped<'s>,
    dry: DryRun,
    arrivals: Vec<Arrival>,
}

impl<'s> Analysis<'s> {
    /// An analysis under `sc` of a log in `format` (`None`: detect it), limited by `key`, its
    /// counters kept per `scope` (the sizing sweep sizes one global counter per key),
    /// recommending a policy under `objective`; `bytes` (if
    /// known) sizes the arrivals kept for the sweep at once rather than by doubling (a log line
    /// is 80 bytes or more, so this rarely over-reserves and never past [`MAX_SWEPT`]).
    pub fn new(
        sc: &'s Scenario,
        format: Option<LogFormat>,
        key: &KeyBy,
        scope: Scope,
        objective: Objective,
        bytes: Option<u64>,
    ) -> Self {
        let expected = bytes.map_or(0, |b| (b / 80) as usize).min(MAX_SWEPT);
        Analysis {
            sc,
            objective,
            reader: LogReader::new(format.clone(), key).with_part_field(scope.field()),
            dry: DryRun::new(format, key, Mode::Look),
            run: Scoped::new(sc, scope),
            arrivals: Vec::with_capacity(expected),
        }
    }

    /// The log's format, as given or (once read) detected.
    pub fn format(&self) -> Option<LogFormat> {
        self.reader.format()
    }

    /// Reads the next `chunk` of the log.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), LogError> {
        let (run, arrivals) = (&mut self.run, &mut self.arrivals);
        self.reader.feed(chunk, &mut |a, from| replay(run, arrivals, a, from))?;
        self.dry.feed(chunk);
        Ok(())
    }

    /// The end of the log: tells `on` the report, the sweep's progress and the sizing table.
    pub fn finish(self, mut on: impl FnMut(Step<'_>)) -> Result<(), LogError> {
        let Analysis { sc, objective, reader, mut run, dry, mut arrivals } = self;
        let read = reader.finish(&mut |a, from| replay(&mut run, &mut arrivals, a, from))?;
        let (report, against) = run.finish(read);
        let checked = dry.finish(sc);
        on(Step::Report(&report, against.as_ref(), checked.as_ref()));
        let sizing = sweep_with(&arrivals, &report.read, sc, objective, |done, of| on(Step::Swept(done, of)));
        on(Step::Sized { sizing: &sizing, report: &report, swept: arrivals.len(), arrivals: &arrivals });
        Ok(())
    }
}

/// Analyses the log in `input` as [`Analysis::new`] says, telling `on` each step; stops at the
/// first error.
pub fn analyse(
    mut input: impl BufRead,
    sc: &Scenario,
    format: Option<LogFormat>,
    key: &KeyBy,
    objective: Objective,
    on: impl FnMut(Step<'_>),
) -> Result<(), LogError> {
    let mut analysis = Analysis::new(sc, format, key, Scope::Global, objective, None);
    each_chunk(&mut input, |chunk| analysis.feed(chunk))?;
    analysis.finish(on)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::logs::reader::read_log;
    use crate::sim::logs::samples::sample_log;
    use crate::sim::logs::{shadow, sizing};

    /// The log in `input` analysed under `query`, keyed by IP, its format detected, at 1 %.
    fn analyse_ip(input: &[u8], query: &str, on: impl FnMut(Step<'_>)) -> Result<(), LogError> {
        analyse(input, &Scenario::from_query(query).unwrap(), None, &KeyBy::Ip, Objective::Target(0.01), on)
    }

    #[test]
    fn one_pass_gives_the_numbers_the_cli_prints() {
        let log = sample_log("api", 3, 4).unwrap();
        let query = "capacity=20&refill=2";
        let sc = Scenario::from_query(query).unwrap();
        let direct = shadow(log.as_bytes(), None, &KeyBy::Ip, &sc).unwrap();
        let mut arrivals = Vec::new();
        let read = read_log(log.as_bytes(), None, &KeyBy::Ip, |a| arrivals.push(a)).unwrap();
        let expected = sizing::sweep(&arrivals, &read, &sc, Objective::Target(0.01));
        let (mut steps, mut swept) = (Vec::new(), 0);
        analyse_ip(log.as_bytes(), query, |step| match step {
            Step::Report(r, _, _) => {
                steps.push("report");
                assert_eq!((r.requests, r.admitted, r.rejected), (direct.requests, direct.admitted, direct.rejected));
                assert_eq!((r.read.keys.len(), r.keys_throttled()), (direct.read.keys.len(), direct.keys_throttled()));
            }
            Step::Swept(done, of) => {
                swept += 1;
                assert!(done <= of && of == expected.rows.len());
            }
            Step::Sized { sizing, swept: n, .. } => {
                steps.push("sized");
                assert_eq!(n, arrivals.len());
                assert_eq!(sizing.recommended, expected.recommended);
                assert_eq!(
                    sizing.rows.iter().map(|r| &r.policy).collect::<Vec<_>>(),
                    expected.rows.iter().map(|r| &r.policy).collect::<Vec<_>>()
                );
            }
        })
        .unwrap();
        assert_eq!((steps, swept), (vec!["report", "sized"], expected.rows.len()), "one progress step per policy");
    }

    #[test]
    fn chunks_of_any_size_read_as_the_whole_log() {
        let log = sample_log("login", 5, 2).unwrap();
        let sc = Scenario::from_query("capacity=5&refill=0.5").unwrap();
        let totals = |chunk: usize| {
            let mut analysis =
                Analysis::new(&sc, None, &KeyBy::Ip, Scope::Global, Objective::Target(0.01), Some(log.len() as u64));
            log.as_bytes().chunks(chunk).for_each(|c| analysis.feed(c).unwrap());
            let mut out = None;
            analysis
                .finish(|step| {
                    if let Step::Report(r, _, _) = step {
                        out = Some((r.requests, r.admitted, r.keys_throttled(), r.read.lines));
                    }
                })
                .unwrap();
            out.unwrap()
        };
        let whole = totals(log.len());
        assert_eq!(whole.0 as usize, log.lines().count());
        for chunk in [1, 7, 4096, 65_537] {
            assert_eq!(totals(chunk), whole, "{chunk}-byte chunks");
        }
        let mut long = Analysis::new(&sc, None, &KeyBy::Ip, Scope::Global, Objective::Outliers, None);
        let e = (0..20).find_map(|_| long.feed(&[b'x'; 4000]).err()).expect("refused");
        assert_eq!((e.line, e.message.as_str()), (1, "is longer than 65536 bytes: not an access log line"));
    }

    #[test]
    fn a_bad_log_is_one_named_error() {
        let e = analyse_ip(&b"\x00\x01binary"[..], "capacity=5", |_| panic!("no step")).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (1, "holds a NUL byte: this is a binary file, not a text log"));
    }
}
