//! Streams an access log into arrivals in time order, each with its key, holding only a few
//! seconds of it: lines are read as they come (at most [`MAX_LINE`] bytes each), their format
//! detected from the first line unless given, and put in order ([`super::order`]):
//!
//! - a key's n requests stamped with one whole second arrive 1/n apart in log order, from a
//!   fraction of the second fixed by the key's name ([`super::order::spread`]): a key's times
//!   depend on its own requests alone;
//! - lines up to [`REORDER_MS`] out of order are put in order and counted; a jump further back
//!   (a clock change, logs concatenated out of order) is an error naming the line;
//! - a line that does not fit the format is skipped and counted; more than 1 % of them (and
//!   more than 10) is an error naming the first;
//! - simulated time 0 is the UTC midnight before the first request, so clock-aligned windows
//!   (a minute, an hour) fall where a real limiter's fall.

use std::cmp::Reverse;
use std::io::BufRead;

use super::chunks::{each_chunk, newline};
use super::csv::csv_header;
use super::error::{error, LogError};
use super::format::{LogFormat, FORMAT_NAMES};
pub use super::keys::{KeyBy, Keys, KEY_NAMES};
use super::order::{Arrival, Orderer, REORDER_MS};

/// The longest line read, in bytes.
pub const MAX_LINE: usize = 64 * 1024;
/// The largest stamp read, ms from the epoch either way (its ns fit an `i64`).
const MAX_STAMP_MS: i64 = 9_000_000_000_000;

/// What reading a log found besides its arrivals.
#[derive(Debug)]
pub struct ReadSummary {
    /// The format read (detected or given).
    pub format: LogFormat,
    /// Lines read, blank and comment lines included.
    pub lines: usize,
    /// Requests.
    pub requests: u64,
    /// Requests that came out of order (within [`REORDER_MS`]) and were put in order.
    pub reordered: u64,
    /// Lines skipped because they do not fit the format, and the first of them.
    pub skipped: (u64, Option<usize>),
    /// The keys.
    pub keys: Keys,
    /// Simulated time 0, ms since the epoch: the UTC midnight before the first request (0 for a
    /// `times` log).
    pub origin_ms: i64,
    /// The values of the field a counter is kept per, if one is ([`LogReader::with_part_field`]).
    pub parts: Keys,
}

impl ReadSummary {
    /// A summary of nothing read yet, in `other`'s format: what a run beside the main one
    /// finishes with ([`super::scope::Scoped`]).
    pub fn empty_like(other: &ReadSummary) -> ReadSummary {
        ReadSummary {
            format: other.format.clone(),
            lines: 0,
            requests: 0,
            reordered: 0,
            skipped: (0, None),
            keys: Keys::default(),
            origin_ms: other.origin_ms,
            parts: Keys::default(),
        }
    }

    /// The summary of one key's requests replayed on their own ([`super::per_key`]): no lines
    /// were read, simulated 0 is `origin_ms`.
    pub fn of_replay(origin_ms: i64) -> ReadSummary {
        ReadSummary {
            format: LogFormat::Times,
            lines: 0,
            requests: 0,
            reordered: 0,
            skipped: (0, None),
            keys: Keys::default(),
            origin_ms,
            parts: Keys::default(),
        }
    }

    /// Who sent arrival `a`: its key's name, and simulated 0 as a Unix second.
    pub fn sender(&self, a: Arrival) -> Sender<'_> {
        Sender { key: self.keys.name(a.key), origin_s: super::order::origin_s(self.origin_ms) }
    }
}

/// Who sent an arrival, as a product's limiter for that client is told it
/// ([`crate::sim::Limiter::for_sender`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sender<'a> {
    /// The client's key, as the log names it.
    pub key: &'a str,
    /// The Unix second simulated 0 stands for: the UTC midnight before the log's first request
    /// ([`crate::sim::time::EPOCH_S`] for a `times` log, which has no clock).
    pub origin_s: u64,
}

/// A log read as it comes, in chunks of any size ([`LogReader::feed`]): lines split across
/// chunks are carried over; [`LogReader::finish`] flushes what is left and says what was read.
pub struct LogReader {
    format: Option<LogFormat>,
    key: KeyBy,
    header: Vec<String>,
    keys: Keys,
    order: Orderer,
    lines: usize,
    requests: u64,
    reordered: u64,
    skipped: (u64, Option<usize>),
    /// The start of a line whose end is in a later chunk.
    carry: Vec<u8>,
    /// The log field whose value each arrival's `part` names ([`super::scope::Scope::Field`]).
    part_field: Option<String>,
    /// That field's values: part p is value p − 1.
    parts: Keys,
}

impl LogReader {
    /// A reader of a log in `format` (detected from the first line if `None`), keyed by `key`.
    pub fn new(format: Option<LogFormat>, key: &KeyBy) -> Self {
        let mut order = Orderer::new();
        if format == Some(LogFormat::Times) {
            order.origin_ms = Some(0);
        }
        LogReader {
            format,
            key: key.clone(),
            header: Vec::new(),
            keys: Keys::default(),
            order,
            lines: 0,
            requests: 0,
            reordered: 0,
            skipped: (0, None),
            carry: Vec::new(),
            part_field: None,
            parts: Keys::default(),
        }
    }

    /// The same, each arrival's `part` naming the value of the log field `field` (1 + its index
    /// in [`ReadSummary::parts`]; `-` where the line has none).
    pub fn with_part_field(mut self, field: Option<&str>) -> Self {
        self.part_field = field.map(str::to_string);
        self
    }

    /// The log's format, as given or (once its first line is read) detected.
    pub fn format(&self) -> Option<LogFormat> {
        self.format.clone()
    }

    /// Reads the next `chunk` of the log, calling `out` with every arrival now in order and its
    /// sender.
    pub fn feed(&mut self, chunk: &[u8], out: &mut impl FnMut(Arrival, Sender<'_>)) -> Result<(), LogError> {
        let mut rest = chunk;
        if !self.carry.is_empty() {
            // A line began in an earlier chunk: its end, if it is in this one.
            let Some(i) = newline(rest) else { return self.keep(rest) };
            let mut line = std::mem::take(&mut self.carry);
            line.extend_from_slice(&rest[..=i]);
            let read = self.line(&line, out);
            line.clear();
            self.carry = line;
            read?;
            rest = &rest[i + 1..];
        }
        // Lines wholly in the chunk are read where they are, without a copy.
        while let Some(i) = newline(rest) {
            self.line(&rest[..=i], out)?;
            rest = &rest[i + 1..];
        }
        self.keep(rest)
    }

    /// Keeps the start of a line whose end is in a later chunk.
    fn keep(&mut self, start: &[u8]) -> Result<(), LogError> {
        if self.carry.len() + start.len() > MAX_LINE {
            return Err(error(self.lines + 1, format!("is longer than {MAX_LINE} bytes: not an access log line")));
        }
        self.carry.extend_from_slice(start);
        Ok(())
    }

    /// The end of the log: its last line, what is still held, and what reading found.
    pub fn finish(mut self, out: &mut impl FnMut(Arrival, Sender<'_>)) -> Result<ReadSummary, LogError> {
        if !self.carry.is_empty() {
            let last = std::mem::take(&mut self.carry);
            self.line(&last, out)?;
        }
        let keys = &self.keys;
        self.order.flush(true, &mut |a, origin_s| out(a, Sender { key: keys.name(a.key), origin_s }));
        let (skipped, first_skipped) = self.skipped;
        let format = self.format.ok_or_else(|| error(0, "is empty: no request to replay"))?;
        if self.requests == 0 {
            return Err(error(
                first_skipped.unwrap_or(0),
                format!("no line is a request in the {} format", format.name()),
            ));
        }
        if skipped > 10 && skipped * 100 > self.requests + skipped {
            return Err(error(
                first_skipped.unwrap_or(0),
                format!(
                    "{skipped} of {} lines do not fit the {} format (this is the first); name the format with log_format",
                    self.requests + skipped,
                    format.name()
                ),
            ));
        }
        Ok(ReadSummary {
            format,
            lines: self.lines,
            requests: self.requests,
            reordered: self.reordered,
            skipped: self.skipped,
            keys: self.keys,
            origin_ms: self.order.origin_ms.unwrap_or(0),
            parts: self.parts,
        })
    }

    /// One line (its `\n` included, if it has one).
    fn line(&mut self, bytes: &[u8], out: &mut impl FnMut(Arrival, Sender<'_>)) -> Result<(), LogError> {
        self.lines += 1;
        let lines = self.lines;
        if bytes.len() > MAX_LINE + 1 || (bytes.len() > MAX_LINE && bytes.last() != Some(&b'\n')) {
            return Err(error(lines, format!("is longer than {MAX_LINE} bytes: not an access log line")));
        }
        if bytes.contains(&0) {
            return Err(error(lines, "holds a NUL byte: this is a binary file, not a text log"));
        }
        let text = std::str::from_utf8(bytes)
            .map_err(|e| error(lines, format!("is not UTF-8 text (at byte {})", e.valid_up_to())))?;
        let line = text.strip_suffix('\n').unwrap_or(text);
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.bytes().all(|b| b.is_ascii_whitespace()) {
            return Ok(());
        }
        if self.format.is_none() {
            self.format = Some(LogFormat::detect(line).ok_or_else(|| {
                error(lines, format!("is not in a log format this reads ({FORMAT_NAMES}); name one with log_format"))
            })?);
            if self.format == Some(LogFormat::Times) {
                self.order.origin_ms = Some(0);
            }
        }
        let f = self.format.as_ref().expect("a format");
        if line.starts_with('#') && matches!(f, LogFormat::CloudFront | LogFormat::Times) {
            return Ok(());
        }
        if matches!(f, LogFormat::Csv(_)) && self.header.is_empty() {
            self.header = csv_header(line);
            return Ok(());
        }
        let Some(entry) = f.parse(line, &self.header) else {
            self.skipped.0 += 1;
            self.skipped.1.get_or_insert(lines);
            return Ok(());
        };
        let order = &mut self.order;
        let ms = entry.stamp.ms;
        // Nanoseconds since the epoch must fit an i64: a stamp beyond ±9·10¹² ms (the years
        // 1685–2255) is not a request's time.
        if ms.abs() > MAX_STAMP_MS {
            self.skipped.0 += 1;
            self.skipped.1.get_or_insert(lines);
            return Ok(());
        }
        if order.latest != i64::MIN && ms < order.latest - REORDER_MS {
            return Err(error(
                lines,
                format!("its time is {} s before an earlier line's; lines may be at most {} s out of order (sort merged logs by time first)", crate::sim::support::decimal::format_f64((order.latest - ms) as f64 / 1e3, 3), REORDER_MS / 1000),
            ));
        }
        let name = self.key.of(&entry);
        let id = self.keys.intern(name);
        // The value of the field the counter is kept per, if it is kept per one (0: none).
        let part = match &self.part_field {
            Some(field) => self.parts.intern(entry.field(field).filter(|v| !v.is_empty()).unwrap_or("-")) + 1,
            None => 0,
        };
        if id as usize == order.phases.len() {
            order.phases.push(super::keys::phase_ns(name));
        }
        self.requests += 1;
        if ms < order.latest && (!entry.stamp.whole_second || ms.div_euclid(1000) < order.latest.div_euclid(1000)) {
            self.reordered += 1;
        }
        let before = order.latest;
        order.latest = order.latest.max(ms);
        if entry.stamp.whole_second {
            order.seconds.entry(ms.div_euclid(1000)).or_default().push((id, part));
        } else {
            order.seq += 1;
            order.ready.push(Reverse((entry.ns(), order.seq, id, part)));
        }
        // What can go out only changes when the latest stamp moves.
        if order.latest != before {
            let keys = &self.keys;
            order.flush(false, &mut |a, origin_s| out(a, Sender { key: keys.name(a.key), origin_s }));
        }
        Ok(())
    }
}

/// Reads `input` (`format`: detected from the first line if `None`), keyed by `key`, calling
/// `out` with every arrival in time order. Stops at the first error.
pub fn read_log(
    input: impl BufRead,
    format: Option<LogFormat>,
    key: &KeyBy,
    mut out: impl FnMut(Arrival),
) -> Result<ReadSummary, LogError> {
    read_named(input, format, key, |a, _| out(a))
}

/// [`read_log`], calling `out` with each arrival's sender too (shadow mode's limiters for
/// products whose windows depend on the key or the day).
pub fn read_named(
    mut input: impl BufRead,
    format: Option<LogFormat>,
    key: &KeyBy,
    mut out: impl FnMut(Arrival, Sender<'_>),
) -> Result<ReadSummary, LogError> {
    let mut reader = LogReader::new(format, key);
    each_chunk(&mut input, |chunk| reader.feed(chunk, &mut out))?;
    reader.finish(&mut out)
}

#[cfg(test)]
mod tests;
