//! `ratelimit-sim`: runs a scenario to completion and prints what happened, as JSON or CSV.
//!
//! A thin shell over the engine: the same scenario query the web app puts in its URL.

#[cfg(not(target_arch = "wasm32"))]
use ratelimit_playground::chart::svg;
use ratelimit_playground::sim::{report, Nanos, Scenario, Trace, TrafficShape};

/// The longest span an SVG chart shows: the last ten minutes of a longer run.
#[cfg(not(target_arch = "wasm32"))]
const SVG_MAX_SECS: u64 = 600;
use std::io::{Read, Write};
use std::process::ExitCode;
use std::sync::Arc;

const USAGE: &str = "\
usage: ratelimit-sim --query QUERY [--trace FILE] [--format json|csv|svg] [--out FILE]

Runs a rate-limiting scenario to completion, exactly and deterministically.

  --query QUERY   the scenario, in the web app's URL format, e.g.
                  'algo=token_bucket&capacity=10&refill=5&rate=20&duration=60'
                  (the README lists every key with its unit, range and default)
  --trace FILE    arrival times to replay, one per line in milliseconds ('-' reads stdin);
                  implies traffic=trace
  --format F      json (default: totals, latency percentiles, the series), csv (the series), or
                  svg (the app's throughput and inner-state charts, for docs without iframes)
  --out FILE      write there instead of standard output

Exit status: 0 on success, 2 on invalid input (the message names the parameter and its range).";

/// What to print.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Json,
    Csv,
    Svg,
}

struct Args {
    query: String,
    trace: Option<String>,
    format: Format,
    out: Option<String>,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut args = Args { query: String::new(), trace: None, format: Format::Json, out: None };
    let mut query = None;
    while let Some(flag) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match flag.as_str() {
            "-h" | "--help" => return Ok(None),
            "--query" => query = Some(value("--query")?),
            "--trace" => args.trace = Some(value("--trace")?),
            "--out" => args.out = Some(value("--out")?),
            "--format" => {
                args.format = match value("--format")?.as_str() {
                    "json" => Format::Json,
                    "csv" => Format::Csv,
                    "svg" => Format::Svg,
                    other => return Err(format!("--format: '{other}' is not one of json | csv | svg")),
                }
            }
            other => return Err(format!("unknown argument '{other}'; see --help")),
        }
    }
    args.query = query.ok_or("--query is required (use --query '' for all defaults)")?;
    Ok(Some(args))
}

fn read_trace(path: &str) -> Result<Trace, String> {
    let limit = ratelimit_playground::sim::trace::MAX_TRACE_BYTES as u64;
    let mut text = String::new();
    let read = if path == "-" {
        std::io::stdin().take(limit + 1).read_to_string(&mut text)
    } else {
        let file = std::fs::File::open(path).map_err(|e| format!("--trace: cannot open {path}: {e}"))?;
        file.take(limit + 1).read_to_string(&mut text)
    };
    read.map_err(|e| format!("--trace: cannot read {path} as UTF-8 text: {e}"))?;
    Trace::parse(&text).map_err(|e| e.to_string())
}

fn run(args: Args) -> Result<(), String> {
    let mut sc = match &args.trace {
        // The trace arrives separately; parse the rest with traffic=trace accepted.
        Some(_) => Scenario::from_query(&format!("{}&traffic=constant", args.query)).map(|mut s| {
            s.traffic = TrafficShape::Trace;
            s
        }),
        None => Scenario::from_query(&args.query),
    }
    .map_err(|e| e.to_string())?;
    if let Some(path) = &args.trace {
        sc.trace = Some(Arc::new(read_trace(path)?));
        let last = sc.trace.as_ref().and_then(|t| t.times().last().copied()).unwrap_or(0);
        // Replay the whole trace unless the query sets the run's duration.
        if !args.query.split('&').any(|p| p.starts_with("duration=")) {
            sc.duration = Nanos(last + 1).max(Nanos::from_millis(1));
        }
    }
    let text = match args.format {
        Format::Json => report::run(&sc).map_err(|e| e.to_string())?.to_json(),
        Format::Csv => report::run(&sc).map_err(|e| e.to_string())?.to_csv(),
        #[cfg(target_arch = "wasm32")]
        Format::Svg => return Err("--format svg: the SVG backend is only built natively".into()),
        #[cfg(not(target_arch = "wasm32"))]
        Format::Svg => {
            // The chart spans the whole run, up to its last ten minutes; one state sample per pixel.
            let span = sc.duration.as_nanos().div_ceil(1_000_000_000).clamp(1, SVG_MAX_SECS);
            let every = Nanos((span * 1_000_000_000 / u64::from(svg::WIDTH)).max(1_000_000));
            let sim = report::simulate(&sc, |sim| sim.sample_state(every, svg::WIDTH as usize + 1))
                .map_err(|e| e.to_string())?;
            svg::run_svg(&sim, span)?
        }
    };
    match &args.out {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("--out: cannot write {path}: {e}")),
        None => match std::io::stdout().lock().write_all(text.as_bytes()) {
            // A reader that stopped early (`| head`) is not an error worth a message.
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("cannot write to stdout: {e}")),
            _ => Ok(()),
        },
    }
}

fn main() -> ExitCode {
    match parse_args(std::env::args().skip(1)) {
        Ok(None) => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Ok(Some(args)) => match run(args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("ratelimit-sim: {e}");
                ExitCode::from(2)
            }
        },
        Err(e) => {
            eprintln!("ratelimit-sim: {e}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}
