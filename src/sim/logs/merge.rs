//! Several logs read as one, in time order: a rotated set (`access.log.2.gz`, `access.log.1`,
//! `access.log`) or one log per server. Each source is fed as it comes ([`Merge::feed`]); its
//! lines wait, stamped, until every source still being read has a line waiting, and then go out
//! oldest first ([`Merge::drain`]) to one [`LogReader`](super::reader::LogReader), which orders,
//! keys and counts them as it does a single log's. [`Merge::wanted`] says which source to read
//! next, so only about one chunk of each is held. A line that does not fit the format (a comment,
//! a stray line) keeps its place after its source's previous line; a CSV source's header goes
//! out once, and a source whose header differs is an error.

use std::collections::VecDeque;

use super::chunks::newline;
use super::csv::csv_header;
use super::error::{error, LogError};
use super::format::LogFormat;
use super::reader::MAX_LINE;

/// One source: its complete lines not yet out (stamp ms, range in `buf`), and a line's start
/// whose end is in a later chunk.
#[derive(Default)]
struct Source {
    buf: Vec<u8>,
    lines: VecDeque<(i64, usize, usize)>,
    carry: Vec<u8>,
    done: bool,
    /// The stamp of its latest line that had one (`i64::MIN` before the first).
    last_ms: i64,
    /// Its CSV header, once read.
    header: Option<Vec<String>>,
}

/// Several logs in one format merged by time.
pub struct Merge {
    format: Option<LogFormat>,
    sources: Vec<Source>,
    /// The CSV header every source must have: the first read, its columns and its line.
    header: Option<(Vec<String>, String)>,
    header_out: bool,
}

impl Merge {
    /// A merge of `n` sources in `format` (detected from the first line read if `None`).
    pub fn new(n: usize, format: Option<LogFormat>) -> Self {
        let sources = (0..n).map(|_| Source { last_ms: i64::MIN, ..Source::default() }).collect();
        Merge { format, sources, header: None, header_out: false }
    }

    /// The next chunk of source `i`.
    pub fn feed(&mut self, i: usize, chunk: &[u8]) -> Result<(), LogError> {
        let mut rest = chunk;
        if self.sources[i].lines.is_empty() {
            self.sources[i].buf.clear();
        }
        if !self.sources[i].carry.is_empty() {
            let Some(end) = newline(rest) else { return self.keep(i, rest) };
            let mut line = std::mem::take(&mut self.sources[i].carry);
            line.extend_from_slice(&rest[..=end]);
            self.line(i, &line)?;
            rest = &rest[end + 1..];
        }
        while let Some(end) = newline(rest) {
            self.line(i, &rest[..=end])?;
            rest = &rest[end + 1..];
        }
        self.keep(i, rest)
    }

    /// The end of source `i`.
    pub fn end(&mut self, i: usize) -> Result<(), LogError> {
        let last = std::mem::take(&mut self.sources[i].carry);
        if !last.is_empty() {
            self.line(i, &last)?;
        }
        self.sources[i].done = true;
        Ok(())
    }

    /// A source to read more of before more lines can go out: one still being read with no line
    /// waiting. `None`: [`drain`](Self::drain) can go on, or every source has ended.
    pub fn wanted(&self) -> Option<usize> {
        self.sources.iter().position(|s| !s.done && s.lines.is_empty())
    }

    /// Hands `out` every line that can go out now, oldest first (ties: the earlier source).
    pub fn drain(&mut self, out: &mut impl FnMut(&[u8]) -> Result<(), LogError>) -> Result<(), LogError> {
        while self.wanted().is_none() {
            if let (false, Some((_, line))) = (self.header_out, &self.header) {
                self.header_out = true;
                out(format!("{line}\n").as_bytes())?;
            }
            let next =
                self.sources.iter().enumerate().filter_map(|(i, s)| s.lines.front().map(|&(ms, _, _)| (ms, i))).min();
            let Some((_, i)) = next else { return Ok(()) };
            let s = &mut self.sources[i];
            let (_, from, to) = s.lines.pop_front().expect("a line");
            out(&s.buf[from..to])?;
        }
        Ok(())
    }

    fn keep(&mut self, i: usize, start: &[u8]) -> Result<(), LogError> {
        let carry = &mut self.sources[i].carry;
        if carry.len() + start.len() > MAX_LINE {
            return Err(error(0, format!("file {} has a line longer than {MAX_LINE} bytes: not an access log", i + 1)));
        }
        carry.extend_from_slice(start);
        Ok(())
    }

    /// One line of source `i`: stamped and queued (a CSV source's header is kept instead).
    fn line(&mut self, i: usize, bytes: &[u8]) -> Result<(), LogError> {
        let text = std::str::from_utf8(bytes).unwrap_or("");
        let trimmed = text.trim_end_matches(['\r', '\n']);
        if self.format.is_none() && !trimmed.trim().is_empty() {
            self.format = LogFormat::detect(trimmed);
        }
        let s = &mut self.sources[i];
        if matches!(self.format, Some(LogFormat::Csv(_))) && s.header.is_none() && !trimmed.trim().is_empty() {
            let header = csv_header(trimmed);
            match &self.header {
                Some((first, _)) if *first != header => {
                    return Err(error(
                        0,
                        format!(
                            "file {}'s CSV header is not the first file's: merge logs with the same columns",
                            i + 1
                        ),
                    ));
                }
                Some(_) => {}
                None => self.header = Some((header.clone(), trimmed.to_string())),
            }
            s.header = Some(header);
            return Ok(());
        }
        let header = s.header.as_deref().unwrap_or(&[]);
        if let Some(e) = self.format.as_ref().and_then(|f| f.parse(trimmed, header)) {
            s.last_ms = s.last_ms.max(e.stamp.ms);
        }
        let from = s.buf.len();
        s.buf.extend_from_slice(bytes);
        if bytes.last() != Some(&b'\n') {
            s.buf.push(b'\n');
        }
        s.lines.push_back((s.last_ms, from, s.buf.len()));
        Ok(())
    }
}

/// Several readers merged by time as one reader, for the readers of one log
/// ([`read_log`](super::reader::read_log), [`shadow`](super::shadow::shadow)): the CLI's
/// `--log a --log b`.
pub struct MergedInput<R: std::io::BufRead> {
    merge: Merge,
    inputs: Vec<R>,
    out: Vec<u8>,
    at: usize,
}

impl<R: std::io::BufRead> MergedInput<R> {
    /// `inputs` in `format` (detected if `None`), merged by time.
    pub fn new(inputs: Vec<R>, format: Option<LogFormat>) -> Self {
        MergedInput { merge: Merge::new(inputs.len(), format), inputs, out: Vec::new(), at: 0 }
    }
}

impl<R: std::io::BufRead> std::io::Read for MergedInput<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = {
            let have = std::io::BufRead::fill_buf(self)?;
            let n = have.len().min(buf.len());
            buf[..n].copy_from_slice(&have[..n]);
            n
        };
        std::io::BufRead::consume(self, n);
        Ok(n)
    }
}

impl<R: std::io::BufRead> std::io::BufRead for MergedInput<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        let failed = |e: LogError| std::io::Error::other(e.message);
        while self.at == self.out.len() {
            self.out.clear();
            self.at = 0;
            let out = &mut self.out;
            self.merge
                .drain(&mut |line| {
                    out.extend_from_slice(line);
                    Ok(())
                })
                .map_err(failed)?;
            if !self.out.is_empty() {
                break;
            }
            let Some(i) = self.merge.wanted() else { break };
            let chunk = self.inputs[i].fill_buf()?;
            let n = chunk.len();
            if n == 0 {
                self.merge.end(i).map_err(failed)?;
            } else {
                self.merge.feed(i, chunk).map_err(failed)?;
                self.inputs[i].consume(n);
            }
        }
        Ok(&self.out[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at = (self.at + n).min(self.out.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `sources` merged, fed in chunks of `chunk` bytes as [`Merge::wanted`] asks.
    fn merged(sources: &[&str], chunk: usize) -> Result<String, LogError> {
        let mut m = Merge::new(sources.len(), None);
        let mut at = vec![0; sources.len()];
        let mut out = String::new();
        loop {
            m.drain(&mut |l| {
                out.push_str(std::str::from_utf8(l).unwrap());
                Ok(())
            })?;
            let Some(i) = m.wanted() else { break };
            let src = sources[i].as_bytes();
            let end = (at[i] + chunk).min(src.len());
            if at[i] == end {
                m.end(i)?;
            } else {
                m.feed(i, &src[at[i]..end])?;
                at[i] = end;
            }
        }
        Ok(out)
    }

    fn clf(ip: &str, second: u32) -> String {
        format!("{ip} - - [02/Nov/2026:10:00:{second:02} +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"-\"\n")
    }

    #[test]
    fn two_servers_logs_come_out_in_time_order_whatever_the_chunks() {
        let a: String = [1, 3, 5, 7].iter().map(|&s| clf("10.0.0.1", s)).collect();
        let b: String = [2, 3, 4, 9].iter().map(|&s| clf("10.0.0.2", s)).collect::<String>() + "# a stray line\n";
        let want: String = [(1, 1), (2, 2), (3, 1), (3, 2), (4, 2), (5, 1), (7, 1), (9, 2)]
            .iter()
            .map(|&(s, n)| clf(&format!("10.0.0.{n}"), s))
            .collect::<String>()
            + "# a stray line\n";
        for chunk in [1, 7, 64, 1 << 20] {
            assert_eq!(merged(&[&a, &b], chunk).unwrap(), want, "{chunk}-byte chunks");
        }
        assert_eq!(merged(&[&a, ""], 64).unwrap(), a, "an empty file adds nothing");
    }

    #[test]
    fn merged_as_one_reader_the_logs_give_the_report_of_their_lines_in_order() {
        use crate::sim::logs::{shadow, KeyBy};
        use crate::sim::Scenario;
        let a: String = (0..40).map(|s| clf("10.0.0.1", s)).collect();
        let b: String = (10..50).map(|s| clf("10.0.0.2", s)).collect();
        let sc = Scenario::from_query("capacity=5&refill=0.5").unwrap();
        let inputs = vec![a.as_bytes(), b.as_bytes()];
        let both = shadow(MergedInput::new(inputs, None), None, &KeyBy::Ip, &sc).unwrap();
        let one = shadow(merged(&[&a, &b], 4096).unwrap().as_bytes(), None, &KeyBy::Ip, &sc).unwrap();
        assert_eq!((both.requests, both.rejected, both.read.reordered), (80, one.rejected, 0));
        assert_eq!(both.per_key, one.per_key);
    }

    #[test]
    fn a_csv_header_goes_out_once_and_a_different_one_is_named() {
        let a = "time,ip\n2026-11-02T10:00:01Z,10.0.0.1\n";
        let b = "time,ip\n2026-11-02T10:00:00Z,10.0.0.2\n";
        let m = merged(&[a, b], 16).unwrap();
        assert_eq!(m, "time,ip\n2026-11-02T10:00:00Z,10.0.0.2\n2026-11-02T10:00:01Z,10.0.0.1\n");
        let e = merged(&[a, "ip,time\n10.0.0.3,2026-11-02T10:00:00Z\n"], 16).unwrap_err();
        assert!(e.message.contains("file 2's CSV header"), "{}", e.message);
    }
}
