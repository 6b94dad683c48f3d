//! Checking the nginx model against nginx's own dry run (`ratelimit-sim --log FILE --against
//! nginx-dry-run`). With `limit_req_dry_run on`, nginx decides every request as it would and
//! serves it anyway, and `$limit_req_status` says what it decided: `PASSED`, `DELAYED_DRY_RUN`
//! or `REJECTED_DRY_RUN` (`DELAYED` and `REJECTED` when the limit is live). A log of those, with
//! each request's `$msec`, is replayed through `algo=nginx` under the query's policy, one limiter
//! per key as in shadow mode, and each request's decision compared with the one nginx logged.
//!
//! nginx decides in arrival order on its millisecond clock (ngx_http_limit_req_module.c: a request
//! over the burst is refused without touching the zone's state, in a dry run too, and one within
//! it is accounted whether or not it is then delayed), so the replay orders requests by `$msec`
//! and, within a millisecond, by log line. Requests whose location has no `limit_req` log `-`:
//! they never reached the zone, and are left out of the replay and counted.

use std::collections::HashMap;
use std::io::BufRead;

use super::chunks::each_chunk;
use super::error::{error, LogError};
use super::format::LogFormat;
use super::keys::KeyBy;
use super::order::{origin_s, Arrival};
use super::per_key::{midnight_before, LineRequests};
use super::reader::{Sender, MAX_LINE};
use super::shadow::Shadow;
use crate::sim::{Scenario, SimTime};

/// The most requests the page's check keeps (24 bytes each: about 100 MiB), as many as the
/// sizing sweep keeps arrivals.
pub const MAX_CHECKED: usize = 1 << 22;

/// How many disagreements the report lists.
pub const SHOWN: usize = 20;

/// What `limit_req` decided for one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Within the rate: served at once.
    Passed,
    /// Within the burst but over the rate: held (or, in a dry run, would have been).
    Delayed,
    /// Over the burst: refused (or, in a dry run, would have been).
    Rejected,
}

impl Status {
    /// Reads `$limit_req_status`'s value.
    pub fn parse(s: &str) -> Option<Status> {
        match s {
            "PASSED" => Some(Status::Passed),
            "DELAYED" | "DELAYED_DRY_RUN" => Some(Status::Delayed),
            "REJECTED" | "REJECTED_DRY_RUN" => Some(Status::Rejected),
            _ => None,
        }
    }

    /// Its name in the report.
    pub fn name(self) -> &'static str {
        match self {
            Status::Passed => "passed",
            Status::Delayed => "delayed",
            Status::Rejected => "rejected",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// One request the model decided otherwise than nginx logged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// Its line in the log.
    pub line: usize,
    /// Its key.
    pub key: String,
    /// Its time, ms since the epoch.
    pub ms: i64,
    /// What nginx logged.
    pub logged: Status,
    /// What the model decided.
    pub model: Status,
}

/// How far the model agrees with nginx's dry run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Agreement {
    /// The log's format.
    pub format: LogFormat,
    /// Lines read.
    pub lines: usize,
    /// Requests compared (those with a `$limit_req_status`).
    pub requests: u64,
    /// Requests decided alike.
    pub agree: u64,
    /// Requests whose `$limit_req_status` is `-` (no `limit_req` in their location).
    pub unlimited: u64,
    /// Requests by status, as nginx logged them: passed, delayed, rejected.
    pub logged: [u64; 3],
    /// Requests by status, as the model decided them.
    pub model: [u64; 3],
    /// The first [`SHOWN`] disagreements, in time order.
    pub first: Vec<Disagreement>,
    /// Requests past the page's limit, not checked.
    pub unchecked: u64,
}

impl Agreement {
    /// Agreement in percent (100 with no request).
    pub fn percent(&self) -> f64 {
        if self.requests == 0 {
            100.0
        } else {
            self.agree as f64 * 100.0 / self.requests as f64
        }
    }
}

/// `$limit_req_status` of `line`: the JSON field `limit_req_status`, or else the last word of the
/// line that is one. `Some(None)` for `-` (no `limit_req` ran), `None` if the line has neither.
fn logged_status(line: &str) -> Option<Option<Status>> {
    if line.trim_start().starts_with('{') {
        let value: serde_json::Value = serde_json::from_str(line).ok()?;
        let s = value.get("limit_req_status")?.as_str()?;
        return if s.is_empty() || s == "-" { Some(None) } else { Status::parse(s).map(Some) };
    }
    let last = line.split_whitespace().next_back()?;
    match Status::parse(last) {
        Some(s) => Some(Some(s)),
        None => (last == "-" || last == "\"-\"").then_some(None),
    }
}

/// One request of the log to replay: when (ns since the epoch), its line, its key and what nginx
/// logged.
struct Logged {
    ns: i64,
    line: usize,
    key: u32,
    status: Status,
}

/// Whether a [`DryRun`] demands `$limit_req_status` on every line or looks for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The CLI's `--against nginx-dry-run`: a request line without the status is an error.
    Strict,
    /// The page's log panel: the log is checked if its first request carries a status (not `-`),
    /// on its first [`MAX_CHECKED`] requests; otherwise the check keeps quiet.
    Look,
}

/// A log fed a chunk at a time, its requests and their `$limit_req_status` kept for the replay.
pub struct DryRun {
    mode: Mode,
    parser: Result<LineRequests, LogError>,
    /// Whether the log carries statuses: unknown until its first request.
    carries: Option<bool>,
    carry: Vec<u8>,
    lines: usize,
    index: HashMap<String, u32>,
    names: Vec<String>,
    requests: Vec<Logged>,
    unlimited: u64,
    /// Requests past the page's limit, not kept.
    dropped: u64,
    error: Option<LogError>,
}

impl DryRun {
    /// A check of a log in `format` (detected unless given), keyed by `key`.
    pub fn new(format: Option<LogFormat>, key: &KeyBy, mode: Mode) -> DryRun {
        DryRun {
            mode,
            parser: LineRequests::new(format, key),
            carries: None,
            carry: Vec::new(),
            lines: 0,
            index: HashMap::new(),
            names: Vec::new(),
            requests: Vec::new(),
            unlimited: 0,
            dropped: 0,
            error: None,
        }
    }

    /// Whether the check is still reading (no error, and the log may carry statuses).
    fn reading(&self) -> bool {
        self.error.is_none() && self.carries != Some(false)
    }

    /// Reads the next `chunk` of the log.
    pub fn feed(&mut self, chunk: &[u8]) {
        let mut rest = chunk;
        while self.reading() {
            let Some(i) = rest.iter().position(|&b| b == b'\n') else { break };
            if self.carry.is_empty() {
                self.line(&rest[..i]);
            } else {
                let mut whole = std::mem::take(&mut self.carry);
                whole.extend_from_slice(&rest[..i]);
                self.line(&whole);
            }
            rest = &rest[i + 1..];
        }
        if self.reading() {
            if self.carry.len() + rest.len() > MAX_LINE {
                self.error =
                    Some(error(self.lines + 1, format!("is longer than {MAX_LINE} bytes: not an access log line")));
            } else {
                self.carry.extend_from_slice(rest);
            }
        }
    }

    /// One line, without its `\n`.
    fn line(&mut self, bytes: &[u8]) {
        self.lines += 1;
        let n = self.lines;
        if let Err(e) = self.read(n, bytes) {
            self.error = Some(e);
        }
    }

    fn read(&mut self, n: usize, bytes: &[u8]) -> Result<(), LogError> {
        if bytes.len() > MAX_LINE {
            return Err(error(n, format!("is longer than {MAX_LINE} bytes: not an access log line")));
        }
        let line = std::str::from_utf8(bytes)
            .map_err(|e| error(n, format!("is not UTF-8 text (at byte {})", e.valid_up_to())))?;
        let parser = self.parser.as_mut().map_err(|e| e.clone())?;
        let mut request = None;
        parser
            .line(line, |k, ns, whole| request = Some((k.to_string(), ns, whole)))
            .map_err(|e| error(n, e.message))?;
        let Some((k, ns, whole)) = request else { return Ok(()) };
        let status = logged_status(line);
        if self.carries.is_none() {
            let carries = matches!(status, Some(Some(_))) || self.mode == Mode::Strict;
            self.carries = Some(carries);
            if !carries {
                return Ok(());
            }
        }
        if whole {
            return Err(error(n, "stamps whole seconds: nginx decides on milliseconds, so log $msec (docs/shadow-mode.md gives the log_format)"));
        }
        let status = match status {
            Some(Some(s)) => s,
            Some(None) => {
                self.unlimited += 1;
                return Ok(());
            }
            None => return Err(error(n, "has no $limit_req_status (PASSED, DELAYED_DRY_RUN, REJECTED_DRY_RUN or -): add it to the log_format as docs/shadow-mode.md shows")),
        };
        if self.mode == Mode::Look && self.requests.len() >= MAX_CHECKED {
            self.dropped += 1;
            return Ok(());
        }
        let id = *self.index.entry(k.clone()).or_insert_with(|| {
            self.names.push(k);
            self.names.len() as u32 - 1
        });
        self.requests.push(Logged { ns, line: n, key: id, status });
        Ok(())
    }

    /// The end of the log: the agreement under `sc` (whose algorithm must be nginx's), or
    /// `None` when the page's check found no status in the log.
    pub fn finish(mut self, sc: &Scenario) -> Option<Result<Agreement, LogError>> {
        if self.reading() && !self.carry.is_empty() {
            let last = std::mem::take(&mut self.carry);
            self.line(&last);
        }
        if self.mode == Mode::Look && self.carries != Some(true) {
            return None;
        }
        if let Some(e) = self.error.take() {
            return Some(Err(e));
        }
        if crate::sim::products::export_name(sc.algo) != Some("nginx") {
            return Some(Err(not_nginx()));
        }
        let format = self.parser.as_ref().ok().and_then(LineRequests::format);
        let Some(format) = format else { return Some(Err(error(0, "is empty: no request to compare"))) };
        Some(Ok(self.compare(format, sc)))
    }

    /// Replays the kept requests in nginx's order and compares each decision.
    fn compare(mut self, format: LogFormat, sc: &Scenario) -> Agreement {
        // nginx's order: its millisecond, then the log's (one worker writes in the order it decides).
        self.requests.sort_by_key(|r| (r.ns, r.line));
        let origin = self.requests.first().map_or(0, |r| midnight_before(r.ns));
        let mut run = Shadow::without_peaks(sc);
        let mut report = Agreement {
            format,
            lines: self.lines,
            requests: 0,
            agree: 0,
            unlimited: self.unlimited,
            logged: [0; 3],
            model: [0; 3],
            first: Vec::new(),
            unchecked: self.dropped,
        };
        for r in &self.requests {
            let at = SimTime((r.ns - origin * 1_000_000).max(0) as u64);
            let from = Sender { key: &self.names[r.key as usize], origin_s: origin_s(origin) };
            let model = match run.push(Arrival { at, key: r.key, part: 0 }, from) {
                false => Status::Rejected,
                true if run.held(r.key).as_nanos() > 0 => Status::Delayed,
                true => Status::Passed,
            };
            report.requests += 1;
            report.logged[r.status.index()] += 1;
            report.model[model.index()] += 1;
            if model == r.status {
                report.agree += 1;
            } else if report.first.len() < SHOWN {
                report.first.push(Disagreement {
                    line: r.line,
                    key: self.names[r.key as usize].clone(),
                    ms: r.ns.div_euclid(1_000_000),
                    logged: r.status,
                    model,
                });
            }
        }
        report
    }
}

/// Why a policy other than nginx's cannot be checked against its dry run.
fn not_nginx() -> LogError {
    error(
        0,
        "--against nginx-dry-run replays nginx's model: put algo=nginx (with the zone's rate and burst) in the query",
    )
}

/// Replays the log in `input` (`format`: detected unless given; it must stamp milliseconds, as
/// `$msec` does) through `sc`'s nginx model, one limiter per `key`, and compares each request's
/// decision with the `$limit_req_status` nginx logged for it.
pub fn against_nginx_dry_run(
    mut input: impl BufRead,
    format: Option<LogFormat>,
    key: &KeyBy,
    sc: &Scenario,
) -> Result<Agreement, LogError> {
    if crate::sim::products::export_name(sc.algo) != Some("nginx") {
        return Err(not_nginx());
    }
    let mut check = DryRun::new(format, key, Mode::Strict);
    each_chunk(&mut input, |chunk| {
        check.feed(chunk);
        Ok(())
    })?;
    check.finish(sc).expect("a strict check always answers")
}

/// The agreement as the CLI prints it (JSON).
pub fn agreement_json(a: &Agreement, sc: &Scenario) -> String {
    let by =
        |counts: &[u64; 3]| serde_json::json!({ "passed": counts[0], "delayed": counts[1], "rejected": counts[2] });
    let json = serde_json::json!({
        "scenario": sc.to_query_full(),
        "against": "nginx-dry-run",
        "log": { "format": a.format.name(), "lines": a.lines, "without_limit_req": a.unlimited },
        "agreement": { "requests": a.requests, "agree": a.agree, "percent": (a.percent() * 100.0).round() / 100.0 },
        "logged": by(&a.logged),
        "model": by(&a.model),
        "disagreements": a.first.iter().map(|d| serde_json::json!({
            "line": d.line, "key": d.key, "time_ms": d.ms, "logged": d.logged.name(), "model": d.model.name(),
        })).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&json).expect("JSON") + "\n"
}

#[cfg(test)]
mod tests;
