//! `ratelimit-sim --log` and `--sample-log`: an access log in shadow mode, the sizing table,
//! and the generated samples, streamed to a file or standard output.

use std::io::Write;

use ratelimit_playground::sim::logs::reader::read_log;
use ratelimit_playground::sim::logs::samples::write_sample;
use ratelimit_playground::sim::logs::sizing::sweep;
use ratelimit_playground::sim::logs::{output, shadow, KeyBy};
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

/// Opens the log at `path` (`-`: standard input).
fn open_log(path: &str) -> Result<Box<dyn std::io::BufRead>, String> {
    if path == "-" {
        return Ok(Box::new(std::io::stdin().lock()));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("--log: cannot open {path}: {e}"))?;
    Ok(Box::new(std::io::BufReader::with_capacity(1 << 20, file)))
}

/// The sizing assistant's table for the log at `path` around `sc`, as JSON or CSV.
fn sizing_report(sc: &Scenario, args: &Args, path: &str, target: f64) -> Result<String, String> {
    let key = args.key.clone().unwrap_or(KeyBy::Ip);
    let mut arrivals = Vec::new();
    let read =
        read_log(open_log(path)?, args.log_format.clone(), &key, |a| arrivals.push(a)).map_err(|e| e.to_string())?;
    let sizing = sweep(&arrivals, &read.keys, sc, target);
    Ok(output::sizing(&sizing, &read.keys, sc, args.format == Format::Csv))
}

/// The shadow report of the log at `path` under `sc`, as JSON or CSV.
pub fn shadow_report(sc: &Scenario, args: &Args, path: &str) -> Result<String, String> {
    if let Some(target) = args.sweep {
        return sizing_report(sc, args, path, target);
    }
    let key = args.key.clone().unwrap_or(KeyBy::Ip);
    let report = shadow(open_log(path)?, args.log_format.clone(), &key, sc).map_err(|e| e.to_string())?;
    Ok(output::shadow(&report, sc, args.format == Format::Csv))
}
