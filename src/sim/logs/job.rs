//! One analysis of a log as the page runs it (in its worker): read the log once, replaying it in
//! shadow mode while keeping its arrivals, hand over the report, then sweep the policy over those
//! arrivals with progress and hand over the sizing table. The CLI prints the same numbers from
//! the same functions ([`super::shadow`], [`super::sizing`]).

use std::io::BufRead;

use super::reader::{read_log, LogError};
use super::shadow::{Shadow, ShadowReport};
use super::sizing::{sweep_with, Sizing};
use super::wire::Ask;
use crate::sim::Scenario;

/// The most arrivals kept for the sweep (16 bytes each: 64 MiB). A longer log is reported whole
/// and sized on its first `MAX_SWEPT` requests, which the page says.
pub const MAX_SWEPT: usize = 1 << 22;

/// What an analysis has to say, in order.
pub enum Step<'a> {
    /// The shadow report of the whole log.
    Report(&'a ShadowReport),
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
    },
}

/// Analyses the log in `input` as `ask` says, telling `on` each step; stops at the first error
/// (a bad policy is line 0).
pub fn analyse(input: impl BufRead, ask: &Ask, mut on: impl FnMut(Step<'_>)) -> Result<(), LogError> {
    let sc = Scenario::from_query(&ask.query).map_err(|e| LogError { line: 0, message: format!("the policy: {e}") })?;
    let mut run = Shadow::new(&sc);
    let mut arrivals = Vec::new();
    let read = read_log(input, ask.format.clone(), &ask.key, |a| {
        run.push(a);
        if arrivals.len() < MAX_SWEPT {
            arrivals.push(a);
        }
    })?;
    let report = run.finish(read);
    on(Step::Report(&report));
    let sizing = sweep_with(&arrivals, &report.read.keys, &sc, ask.target, |done, of| on(Step::Swept(done, of)));
    on(Step::Sized { sizing: &sizing, report: &report, swept: arrivals.len() });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::logs::reader::KeyBy;
    use crate::sim::logs::samples::sample_log;
    use crate::sim::logs::{shadow, sizing};

    fn ask(query: &str) -> Ask {
        Ask { query: query.into(), format: None, key: KeyBy::Ip, target: 0.01, width: 600 }
    }

    #[test]
    fn one_pass_gives_the_numbers_the_cli_prints() {
        let log = sample_log("api", 3, 4).unwrap();
        let query = "capacity=20&refill=2";
        let sc = Scenario::from_query(query).unwrap();
        let direct = shadow(log.as_bytes(), None, &KeyBy::Ip, &sc).unwrap();
        let mut arrivals = Vec::new();
        let read = read_log(log.as_bytes(), None, &KeyBy::Ip, |a| arrivals.push(a)).unwrap();
        let expected = sizing::sweep(&arrivals, &read.keys, &sc, 0.01);
        let (mut steps, mut swept) = (Vec::new(), 0);
        analyse(log.as_bytes(), &ask(query), |step| match step {
            Step::Report(r) => {
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
    fn a_bad_log_or_policy_is_one_named_error() {
        let e = analyse(&b"\x00\x01binary"[..], &ask("capacity=5"), |_| panic!("no step")).unwrap_err();
        assert_eq!((e.line, e.message.as_str()), (1, "holds a NUL byte: this is a binary file, not a text log"));
        let e = analyse(&b"10\n20\n"[..], &ask("capacity=0"), |_| panic!("no step")).unwrap_err();
        assert!(e.line == 0 && e.message.starts_with("the policy: capacity"), "{e}");
    }
}
