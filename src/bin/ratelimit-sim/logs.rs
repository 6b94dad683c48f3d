//! `ratelimit-sim --log` and `--sample-log`: an access log in shadow mode, the sizing table,
//! and the generated samples, streamed to a file or standard output.

use std::io::{BufRead, Write};

use ratelimit_playground::sim::logs::merge::MergedInput;
use ratelimit_playground::sim::logs::reader::read_log;
use ratelimit_playground::sim::logs::samples::write_sample;
use ratelimit_playground::sim::logs::sizing::{sweep, Objective};
use ratelimit_playground::sim::logs::{output, shadow, KeyBy, LogFormat};
use ratelimit_playground::sim::Scenario;

use crate::args::{Args, Format};

/// Streams a sample log to `out` (or standard output), a minute at a time.
pub fn write_sample_out(out: Option<&str>, name: &str, seed: u64, minutes: u64) -> Result<(), String> {
    let done = match out {
        Some(path) => {
            let file = std::fs::File::create(path).map_err(|e| format!("--out: cannot write {path}: {e}"))?;
            let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
            write_sample(name, seed, minutes, &mut w).and_then(|_| w.flush())
        }
        None => {
            let mut w = std::io::BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
            write_sample(name, seed, minutes, &mut w).and_then(|_| w.flush())
        }
    };
    match done {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("cannot write the sample: {e}")),
        _ => Ok(()),
    }
}

/// Opens the log at `path` (`-`: standard input), decompressing it if it is gzip (by its first
/// two bytes, whatever its name: `access.log.2.gz`, an ALB or CloudFront log).
fn open_one(path: &str) -> Result<Box<dyn BufRead>, String> {
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
#[cfg(not(target_arch = "wasm32"))]
fn gunzip(input: Box<dyn BufRead>) -> Result<Box<dyn BufRead>, String> {
    let inflated = Damaged(flate2::bufread::MultiGzDecoder::new(input));
    Ok(Box::new(std::io::BufReader::with_capacity(1 << 20, inflated)))
}

/// A gzip reader whose errors say what they mean for the log, as the page says them: "damaged
/// or cut-short gzip (incomplete deflate stream)".
#[cfg(not(target_arch = "wasm32"))]
struct Damaged<R>(R);

#[cfg(not(target_arch = "wasm32"))]
impl<R: std::io::Read> std::io::Read for Damaged<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf).map_err(|e| std::io::Error::new(e.kind(), format!("damaged or cut-short gzip ({e})")))
    }
}

/// The CLI compiles for wasm32 too (with every bin of the crate); there it reads no gzip.
#[cfg(target_arch = "wasm32")]
fn gunzip(_: Box<dyn BufRead>) -> Result<Box<dyn BufRead>, String> {
    Err("--log: gzip logs are read by the native build".into())
}

/// The logs at `paths` as one: a single log as it is, several merged by time.
fn open_log(paths: &[String], format: Option<LogFormat>) -> Result<Box<dyn BufRead>, String> {
    match paths {
        [one] => open_one(one),
        _ => {
            let inputs = paths.iter().map(|p| open_one(p)).collect::<Result<Vec<_>, _>>()?;
            Ok(Box::new(MergedInput::new(inputs, format)))
        }
    }
}

/// The sizing assistant's table for the logs at `paths` around `sc`, as JSON or CSV.
fn sizing_report(sc: &Scenario, args: &Args, paths: &[String], objective: Objective) -> Result<String, String> {
    let key = args.key.clone().unwrap_or(KeyBy::Ip);
    let mut arrivals = Vec::new();
    let input = open_log(paths, args.log_format.clone())?;
    let read = read_log(input, args.log_format.clone(), &key, |a| arrivals.push(a)).map_err(|e| e.to_string())?;
    if args.latency_objective.is_some() && ratelimit_playground::sim::server::ServerConfig::of(&sc.product).is_none() {
        return Err("--latency-objective: the objective is the server's: add a server to the query (workers=N)".into());
    }
    let mut sizing = sweep(&arrivals, &read, sc, objective);
    if args.latency_objective.is_some() {
        sizing.latency_objective = args.latency_objective;
    }
    Ok(output::sizing(&sizing, &read.keys, sc, args.format == Format::Csv))
}

/// The shadow report of the logs at `paths` (merged by time) under `sc`, as JSON or CSV.
pub fn shadow_report(sc: &Scenario, args: &Args, paths: &[String]) -> Result<String, String> {
    if let Some(objective) = args.sweep {
        return sizing_report(sc, args, paths, objective);
    }
    let key = args.key.clone().unwrap_or(KeyBy::Ip);
    let input = open_log(paths, args.log_format.clone())?;
    let report = shadow(input, args.log_format.clone(), &key, sc).map_err(|e| e.to_string())?;
    Ok(output::shadow(&report, sc, args.format == Format::Csv))
}
