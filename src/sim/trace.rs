//! [`Trace`]: a user's recorded arrivals, parsed from text with line-numbered errors.
//!
//! Format: one arrival time per line in milliseconds since the start (`12`, `12.5`, `0.000001`),
//! in non-decreasing order; blank lines and `#` comments are ignored.

use crate::sim::support::decimal::{format_f64, parse_fixed, DecimalError};
use std::fmt;

/// Largest trace text accepted, in bytes.
pub const MAX_TRACE_BYTES: usize = 16 * 1024 * 1024;
/// Most arrivals a trace may hold.
pub const MAX_TRACE_ARRIVALS: usize = 1_000_000;
// The refusal names it in millions.
const _: () = assert!(MAX_TRACE_ARRIVALS.is_multiple_of(1_000_000));
/// Latest arrival time accepted: one day, in milliseconds.
pub const MAX_TRACE_MILLIS: u64 = 86_400_000;

/// Arrival times in nanoseconds, sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    times: Vec<u64>,
}

/// Why a trace was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceError {
    /// The text is larger than [`MAX_TRACE_BYTES`].
    TooLarge {
        /// Its size in bytes.
        bytes: usize,
    },
    /// More than [`MAX_TRACE_ARRIVALS`] arrivals.
    TooManyArrivals,
    /// One line is not a valid arrival time.
    BadLine {
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// No arrivals at all.
    Empty,
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceError::TooLarge { bytes } => write!(
                f,
                "trace: {} MB is too large; at most {} MB and {} million arrivals are accepted",
                format_f64(*bytes as f64 / 1e6, 1),
                format_f64(MAX_TRACE_BYTES as f64 / 1e6, 1),
                MAX_TRACE_ARRIVALS / 1_000_000
            ),
            TraceError::TooManyArrivals => write!(f, "trace: more than {MAX_TRACE_ARRIVALS} arrivals; shorten it"),
            TraceError::BadLine { line, reason } => write!(f, "trace line {line}: {reason}"),
            TraceError::Empty => f.write_str("trace: no arrival times found (one time in ms per line, # for comments)"),
        }
    }
}

impl std::error::Error for TraceError {}

impl Trace {
    /// Parses trace text, refusing oversized input before looking at it.
    ///
    /// ```
    /// use ratelimit_playground::sim::Trace;
    /// let t = Trace::parse("# my traffic\n0\n0.5\n\n12 # late\n").unwrap();
    /// assert_eq!(t.times(), &[0, 500_000, 12_000_000]);
    /// let err = Trace::parse("1\nten\n").unwrap_err();
    /// assert!(err.to_string().starts_with("trace line 2:"));
    /// ```
    pub fn parse(text: &str) -> Result<Trace, TraceError> {
        if text.len() > MAX_TRACE_BYTES {
            return Err(TraceError::TooLarge { bytes: text.len() });
        }
        let mut times = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let bad = |reason: String| TraceError::BadLine { line: i + 1, reason };
            let ns = parse_fixed(line, 6).map_err(|e| {
                bad(match e {
                    DecimalError::TooPrecise(_) => format!("'{}' is more precise than 1 ns", clip(line)),
                    _ => format!(
                        "'{}' is not a time in milliseconds (0 to {MAX_TRACE_MILLIS}, decimals allowed)",
                        clip(line)
                    ),
                })
            })?;
            if ns > MAX_TRACE_MILLIS * 1_000_000 {
                return Err(bad(format!("{} ms is later than one day ({MAX_TRACE_MILLIS} ms)", clip(line))));
            }
            if let Some(&prev) = times.last() {
                if ns < prev {
                    return Err(bad(format!(
                        "{} ms is earlier than the line before it; arrival times must be in order",
                        clip(line)
                    )));
                }
            }
            if times.len() == MAX_TRACE_ARRIVALS {
                return Err(TraceError::TooManyArrivals);
            }
            times.push(ns);
        }
        if times.is_empty() {
            return Err(TraceError::Empty);
        }
        Ok(Trace { times })
    }

    /// A trace of `times` (ns since the start), if they are what [`parse`](Self::parse) accepts:
    /// in order, at least one, at most [`MAX_TRACE_ARRIVALS`], none later than a day.
    ///
    /// ```
    /// use ratelimit_playground::sim::Trace;
    /// assert_eq!(Trace::from_times(vec![0, 5, 5]).map(|t| t.len()), Some(3));
    /// assert_eq!(Trace::from_times(vec![5, 0]), None);
    /// assert_eq!(Trace::from_times(vec![]), None);
    /// ```
    pub fn from_times(times: Vec<u64>) -> Option<Trace> {
        let ordered = times.windows(2).all(|p| p[0] <= p[1]);
        let within = times.last().is_some_and(|&t| t <= MAX_TRACE_MILLIS * 1_000_000);
        (ordered && within && times.len() <= MAX_TRACE_ARRIVALS).then_some(Trace { times })
    }

    /// Arrival times in nanoseconds since the start, sorted.
    pub fn times(&self) -> &[u64] {
        &self.times
    }

    /// Number of arrivals.
    pub fn len(&self) -> usize {
        self.times.len()
    }

    /// Whether there are no arrivals.
    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// The trace as text [`parse`](Self::parse) reads back exactly: one time a line in ms, with
    /// as many decimals as it needs (never longer than the text it was parsed from, less its
    /// comments).
    ///
    /// ```
    /// use ratelimit_playground::sim::Trace;
    /// let t = Trace::parse("0\n0.5\n12.000001 # late\n").unwrap();
    /// assert_eq!(t.to_text(), "0\n0.5\n12.000001\n");
    /// ```
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut text = String::with_capacity(self.times.len() * 8);
        for &ns in &self.times {
            let (ms, frac) = (ns / 1_000_000, ns % 1_000_000);
            let _ = write!(text, "{ms}");
            if frac > 0 {
                let digits = format!("{frac:06}");
                text.push('.');
                text.push_str(digits.trim_end_matches('0'));
            }
            text.push('\n');
        }
        text
    }
}

/// A line shortened for an error message, so a megabyte of garbage is not echoed back.
/// A trace line quoted in a message.
fn clip(s: &str) -> String {
    crate::sim::support::quote::clip(s, 40)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_line_of_a_negative_or_nan_time() {
        for (text, line) in [("1\n2\n-3\n", 3), ("NaN\n", 1), ("1\n\n# x\ninf\n", 4), ("1e3\n", 1)] {
            match Trace::parse(text) {
                Err(TraceError::BadLine { line: l, .. }) => assert_eq!(l, line, "{text:?}"),
                other => panic!("{text:?} gave {other:?}"),
            }
        }
    }

    #[test]
    fn refuses_unsorted_times_with_the_line_number() {
        let e = Trace::parse("5\n3\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "trace line 2: 3 ms is earlier than the line before it; arrival times must be in order"
        );
    }

    #[test]
    fn refuses_oversized_text_without_parsing_it() {
        let big = "1\n".repeat(MAX_TRACE_BYTES / 2 + 1);
        let e = Trace::parse(&big).unwrap_err();
        assert!(matches!(e, TraceError::TooLarge { .. }));
        assert_eq!(e.to_string(), "trace: 16.8 MB is too large; at most 16.8 MB and 1 million arrivals are accepted");
    }

    #[test]
    fn binary_junk_is_quoted_without_its_control_characters() {
        let e = Trace::parse("1\n\0\x07\x1b[2Jjunk\n").unwrap_err().to_string();
        assert!(e.starts_with("trace line 2: '���[2Jjunk' is not a time"), "{e}");
        assert!(!e.chars().any(char::is_control), "{e:?}");
    }

    #[test]
    fn a_trace_reads_back_from_its_text_exactly() {
        let times = [0, 1, 999_999, 1_000_000, 1_500_000, 12_345_678_901, MAX_TRACE_MILLIS * 1_000_000];
        let trace = Trace { times: times.to_vec() };
        assert_eq!(Trace::parse(&trace.to_text()), Ok(trace.clone()));
        let longest = Trace { times: vec![MAX_TRACE_MILLIS * 1_000_000 - 1; MAX_TRACE_ARRIVALS] };
        assert!(longest.to_text().len() <= MAX_TRACE_BYTES, "the largest trace's text is accepted back");
    }

    #[test]
    fn an_empty_or_comment_only_trace_is_an_error() {
        assert_eq!(Trace::parse("# nothing\n\n"), Err(TraceError::Empty));
    }
}
