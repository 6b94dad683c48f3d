//! Access logs on disk, opened as the CLI and the Python package read them (native only): a file
//! or standard input (`-`), gzip inflated whatever the file's name (by its first two bytes), and
//! several files merged by time ([`MergedInput`]). What is read is the engine's
//! ([`crate::sim::logs`]); this module only opens the bytes.

use std::io::BufRead;

use crate::sim::logs::merge::MergedInput;
use crate::sim::logs::LogFormat;

/// Opens the log at `path` (`-`: standard input), decompressing it if it is gzip (by its first
/// two bytes, whatever its name: `access.log.2.gz`, an ALB or CloudFront log).
pub fn open_one(path: &str) -> Result<Box<dyn BufRead>, String> {
    let mut input: Box<dyn BufRead> = if path == "-" {
        Box::new(std::io::BufReader::with_capacity(1 << 20, std::io::stdin()))
    } else {
        let file = std::fs::File::open(path).map_err(|e| format!("--log: cannot open {path}: {e}"))?;
        Box::new(std::io::BufReader::with_capacity(1 << 20, file))
    };
    let gzip = input.fill_buf().map_err(|e| format!("--log: cannot read {path}: {e}"))?.starts_with(&[0x1f, 0x8b]);
    if gzip {
        gunzip(input)
    } else {
        Ok(input)
    }
}

/// `input` decompressed: every gzip member, as `gzip -d` and rotated logs' `delaycompress` make.
fn gunzip(input: Box<dyn BufRead>) -> Result<Box<dyn BufRead>, String> {
    let inflated = Damaged(flate2::bufread::MultiGzDecoder::new(input));
    Ok(Box::new(std::io::BufReader::with_capacity(1 << 20, inflated)))
}

/// A gzip reader whose errors say what they mean for the log, as the page says them: "damaged
/// or cut-short gzip (incomplete deflate stream)".
struct Damaged<R>(R);

impl<R: std::io::Read> std::io::Read for Damaged<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf).map_err(|e| std::io::Error::new(e.kind(), format!("damaged or cut-short gzip ({e})")))
    }
}

/// The logs at `paths` as one: a single log as it is, several merged by time.
pub fn open_log(paths: &[String], format: Option<LogFormat>) -> Result<Box<dyn BufRead>, String> {
    match paths {
        [one] => open_one(one),
        _ => {
            let inputs = paths.iter().map(|p| open_one(p)).collect::<Result<Vec<_>, _>>()?;
            Ok(Box::new(MergedInput::new(inputs, format)))
        }
    }
}
