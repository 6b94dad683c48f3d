//! `ratelimit-sim --log` and `--sample-log`: an access log in shadow mode, the sizing table,
//! and the generated samples, streamed to a file or standard output.

use std::io::Write;

#[cfg(not(target_arch = "wasm32"))]
use ratelimit_playground::files::open_log;
use ratelimit_playground::sim::logs::dry_run::{against_nginx_dry_run, agreement_json};
use ratelimit_playground::sim::logs::reader::read_log;
use ratelimit_playground::sim::logs::samples::write_sample;
use ratelimit_playground::sim::logs::scope::shadow_scoped;
use ratelimit_playground::sim::logs::sizing::{sweep, Objective};
use ratelimit_playground::sim::logs::{output, KeyBy};
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

/// The CLI compiles for wasm32 too (with every bin of the crate), where there are no files.
#[cfg(target_arch = "wasm32")]
fn open_log(
    _: &[String],
    _: Option<ratelimit_playground::sim::logs::LogFormat>,
) -> Result<Box<dyn std::io::BufRead>, String> {
    Err("--log: logs are read by the native build".into())
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
    if args.against_nginx {
        let input = open_log(paths, args.log_format.clone())?;
        let key = args.key.clone().unwrap_or(KeyBy::Ip);
        let agreement = against_nginx_dry_run(input, args.log_format.clone(), &key, sc).map_err(|e| e.to_string())?;
        return Ok(agreement_json(&agreement, sc));
    }
    let key = args.key.clone().unwrap_or(KeyBy::Ip);
    let input = open_log(paths, args.log_format.clone())?;
    let (report, against) =
        shadow_scoped(input, args.log_format.clone(), &key, sc, args.scope.clone()).map_err(|e| e.to_string())?;
    Ok(output::shadow(&report, sc, args.format == Format::Csv, against.as_ref()))
}
