//! `ratelimit-sim`: runs a scenario to completion and prints what happened, as JSON or CSV.
//!
//! A thin shell over the engine: the same scenario query the web app puts in its URL.

use ratelimit_playground::app::share::cards::{parse_cards, Card};
use ratelimit_playground::app::share::link::MAX_MOMENT_SECS;
#[cfg(not(target_arch = "wasm32"))]
use ratelimit_playground::app::share::still::still_svg;
#[cfg(not(target_arch = "wasm32"))]
use ratelimit_playground::chart::svg;
use ratelimit_playground::production;
use ratelimit_playground::sim::logs::reader::read_log;
use ratelimit_playground::sim::logs::samples::{write_sample, SAMPLES};
use ratelimit_playground::sim::logs::sizing::sweep;
use ratelimit_playground::sim::logs::{output, shadow, KeyBy, LogFormat};
use ratelimit_playground::sim::{report, Nanos, Scenario, Trace, TrafficShape};

/// The longest sample log `--minutes` makes: a week.
const MAX_SAMPLE_MINUTES: u64 = 10_080;
/// The longest span an SVG chart shows: the last ten minutes of a longer run.
#[cfg(not(target_arch = "wasm32"))]
const SVG_MAX_SECS: u64 = 600;
use std::io::{Read, Write};
use std::process::ExitCode;
use std::sync::Arc;

const USAGE: &str = "\
usage: ratelimit-sim --query QUERY [--trace FILE] [--format json|csv|svg|decisions] [--out FILE]
       ratelimit-sim --query QUERY --format svg --show CARDS [--at SECONDS] [--out FILE]
       ratelimit-sim --query QUERY --log FILE [--log-format F] [--key K] [--format json|csv] [--out FILE]
       ratelimit-sim --query QUERY --log FILE --sweep [--target-keys PCT] [--format json|csv]
       ratelimit-sim --sample-log api|login [--minutes M] [--query seed=S] [--out FILE]
       ratelimit-sim --query QUERY --export nginx|envoy|governor|express|upstash|redis-lua
       ratelimit-sim redis --url redis://HOST:PORT[/DB] --query QUERY [--speed S]
                           [--trace FILE] [--format json|decisions] [--out FILE]

Runs a rate-limiting scenario to completion, exactly and deterministically.

  --query QUERY   the scenario, in the web app's URL format, e.g.
                  'algo=token_bucket&capacity=10&refill=5&rate=20&duration=60'
                  (the README lists every key with its unit, range and default)
  --trace FILE    arrival times to replay, one per line in milliseconds ('-' reads stdin);
                  implies traffic=trace
  --format F      json (default: totals, latency percentiles, the series), csv (the series),
                  svg (the app's throughput and inner-state charts, for docs without iframes), or
                  decisions (one CSV line per request: t_ms,key,node,status,retry_after_ms)
  --out FILE      write there instead of standard output
  --show CARDS    with --format svg: an embed's still instead — exactly the cards an embed with
                  show=CARDS draws (throughput,state,steady,strip,response,stats,compare, and
                  multi-node topology,swimlane,code,nodes,rtt,sweep,outage), 600 px wide, by the
                  same drawing code, at the moment --at
  --at SECONDS    the moment of the still, like an embed's t= (0 to 600; default: the end of the
                  scenario's duration, at most 600)
  --log FILE      shadow mode: replay an access log ('-' reads stdin) through the policy, one
                  limiter per key, and report who would have got a 429: totals, keys,
                  keys_throttled, per_key (sorted by rejections, then key), rejections over time;
                  csv prints per_key. Nothing leaves the machine.
  --log-format F  the log's format (default: detected from its first line): combined | common |
                  msec | json[:TIME_FIELD] | csv[:TIME_COLUMN] | alb | cloudfront | times
  --key K         what a limiter is kept per: ip (default) | field:NAME | path | global
  --sweep         the sizing assistant: up to 100 policies (capacity × refill, or limit ×
                  window) drawn from the log's peaks, each run on the log, and the smallest under
                  which at most --target-keys PCT (0 to 100, default 1) of the keys see a 429,
                  with the keys it still throttles
  --sample-log S  print a generated (not real) combined-format log to try --log on: api (300
                  clients, three scrapers, a cron burst each minute) or login (credential
                  stuffing); --minutes M long (1 to 10080, default 10), from the query's seed
  --export T      print the scenario's policy as configuration for T instead of running it:
                  exactly what the page's \"Use this in production\" tab copies

`redis` runs a multi-node scenario (nodes=N, store=race|atomic|async, rtt=…) against a real Redis
in real time — one connection per node, the round trip added by a local delay proxy — and prints
the measured run beside the engine's simulation of it. Everything it writes is one key,
rlp:{run-…}:limiter, deleted at the end (and on Ctrl-C).

  --url URL       redis://[[user]:password@]host[:port][/db]
  --speed S       scenario seconds per real second (default 1; 0.01 to 100)
  --format F      json (default: measured, simulated, difference) or decisions (one CSV line
                  per measured request)

Exit status: 0 on success, 2 on invalid input (the message names the parameter and its range),
1 when the server cannot be reached or refuses a command, 130 when interrupted.";

/// What to print.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Json,
    Csv,
    Svg,
    Decisions,
}

struct Args {
    query: String,
    trace: Option<String>,
    format: Format,
    out: Option<String>,
    export: Option<String>,
    /// `--show`: the cards of an embed's still.
    show: Option<Vec<Card>>,
    /// `--at`: the still's moment.
    at: Option<Nanos>,
    /// `--log`: the access log to replay in shadow mode.
    log: Option<String>,
    /// `--log-format`.
    log_format: Option<LogFormat>,
    /// `--key` (`ip` when not given).
    key: Option<KeyBy>,
    /// `--sample-log` and `--minutes`.
    sample: Option<(String, u64)>,
    /// `--sweep`, with `--target-keys` as a share (0–1).
    sweep: Option<f64>,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut args = Args {
        query: String::new(),
        trace: None,
        format: Format::Json,
        out: None,
        export: None,
        show: None,
        at: None,
        log: None,
        log_format: None,
        key: None,
        sample: None,
        sweep: None,
    };
    let (mut query, mut minutes, mut target) = (None, None, None);
    while let Some(flag) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        match flag.as_str() {
            "-h" | "--help" => return Ok(None),
            "--query" => query = Some(value("--query")?),
            "--trace" => args.trace = Some(value("--trace")?),
            "--out" => args.out = Some(value("--out")?),
            "--export" => {
                let name = value("--export")?;
                if !production::EXPORT_NAMES.contains(&name.as_str()) {
                    let names = production::EXPORT_NAMES.join(" | ");
                    return Err(format!("--export: '{name}' is not one of {names}"));
                }
                args.export = Some(name);
            }
            "--format" => {
                args.format = match value("--format")?.as_str() {
                    "json" => Format::Json,
                    "csv" => Format::Csv,
                    "svg" => Format::Svg,
                    "decisions" => Format::Decisions,
                    other => return Err(format!("--format: '{other}' is not one of json | csv | svg | decisions")),
                }
            }
            "--log" => args.log = Some(value("--log")?),
            "--sweep" => args.sweep = Some(0.01),
            "--target-keys" => {
                let text = value("--target-keys")?;
                match text.parse::<f64>() {
                    Ok(p) if (0.0..=100.0).contains(&p) => target = Some(p / 100.0),
                    _ => return Err(format!("--target-keys: '{text}' is not a percentage from 0 to 100")),
                }
            }
            "--sample-log" => {
                let name = value("--sample-log")?;
                if !SAMPLES.contains(&name.as_str()) {
                    return Err(format!("--sample-log: '{name}' is not one of {}", SAMPLES.join(" | ")));
                }
                args.sample = Some((name, 10));
            }
            "--minutes" => {
                let text = value("--minutes")?;
                match text.parse::<u64>() {
                    Ok(m) if (1..=MAX_SAMPLE_MINUTES).contains(&m) => minutes = Some(m),
                    _ => {
                        return Err(format!(
                            "--minutes: '{text}' is not a whole number of minutes from 1 to {MAX_SAMPLE_MINUTES}"
                        ))
                    }
                }
            }
            "--log-format" => {
                args.log_format =
                    Some(LogFormat::named(&value("--log-format")?).map_err(|e| format!("--log-format: {e}"))?)
            }
            "--key" => args.key = Some(KeyBy::named(&value("--key")?).map_err(|e| format!("--key: {e}"))?),
            "--show" => {
                let (cards, error) = parse_cards(&value("--show")?);
                if let Some(e) = error {
                    return Err(format!("--show: {}", e.trim_end_matches("; ignored")));
                }
                if cards.is_empty() {
                    return Err("--show: name at least one card".into());
                }
                args.show = Some(cards);
            }
            "--at" => {
                let text = value("--at")?;
                match text.parse::<f64>() {
                    Ok(t) if t.is_finite() && (0.0..=MAX_MOMENT_SECS as f64).contains(&t) => {
                        args.at = Some(Nanos((t * 1000.0).round() as u64 * 1_000_000));
                    }
                    _ => return Err(format!("--at: '{text}' is not a time in seconds from 0 to {MAX_MOMENT_SECS}")),
                }
            }
            other => return Err(format!("unknown argument '{other}'; see --help")),
        }
    }
    if (args.show.is_some() || args.at.is_some()) && args.format != Format::Svg {
        return Err("--show and --at draw an embed's still: use them with --format svg".into());
    }
    if args.at.is_some() && args.show.is_none() {
        return Err("--at is the moment of an embed's still: give the cards with --show".into());
    }
    match (&mut args.sample, minutes) {
        (Some(sample), Some(m)) => sample.1 = m,
        (None, Some(_)) => return Err("--minutes is the length of a --sample-log".into()),
        _ => {}
    }
    match (&mut args.sweep, target) {
        (Some(share), Some(t)) => *share = t,
        (None, Some(_)) => return Err("--target-keys is the sizing assistant's: add --sweep".into()),
        _ => {}
    }
    if args.sweep.is_some() && args.log.is_none() {
        return Err("--sweep sizes a policy on a log: give it with --log FILE".into());
    }
    if args.sample.is_some() && query.is_none() {
        query = Some(String::new());
    }
    if args.log.is_some() && !matches!(args.format, Format::Json | Format::Csv) {
        return Err("--log reports as json or csv: use --format json or --format csv".into());
    }
    if args.log.is_some() && (args.trace.is_some() || args.export.is_some()) {
        return Err("--log replays a log: leave out --trace and --export".into());
    }
    if args.log.is_none() && (args.log_format.is_some() || args.key.is_some()) {
        return Err("--log-format and --key describe a log: give it with --log FILE".into());
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

/// The scenario of `query`, replaying the trace at `trace` if given.
fn scenario(query: &str, trace: Option<&str>) -> Result<Scenario, String> {
    let mut sc = match trace {
        // The trace arrives separately; parse the rest with traffic=trace accepted.
        Some(_) => Scenario::from_query(&format!("{query}&traffic=constant")).map(|mut s| {
            s.traffic = TrafficShape::Trace;
            s
        }),
        None => Scenario::from_query(query),
    }
    .map_err(|e| e.to_string())?;
    if let Some(path) = trace {
        sc.trace = Some(Arc::new(read_trace(path)?));
        let last = sc.trace.as_ref().and_then(|t| t.times().last().copied()).unwrap_or(0);
        // Replay the whole trace unless the query sets the run's duration.
        if !query.split('&').any(|p| p.starts_with("duration=")) {
            sc.duration = Nanos(last + 1).max(Nanos::from_millis(1));
        }
    }
    Ok(sc)
}

/// Writes `text` to `out`, or to standard output.
fn write_out(out: Option<&str>, text: &str) -> Result<(), String> {
    match out {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("--out: cannot write {path}: {e}")),
        None => match std::io::stdout().lock().write_all(text.as_bytes()) {
            // A reader that stopped early (`| head`) is not an error worth a message.
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(format!("cannot write to stdout: {e}")),
            _ => Ok(()),
        },
    }
}

/// Streams a sample log to `out` (or standard output), a minute at a time.
fn write_sample_out(out: Option<&str>, name: &str, seed: u64, minutes: u64) -> Result<(), String> {
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
fn shadow_report(sc: &Scenario, args: &Args, path: &str) -> Result<String, String> {
    if let Some(target) = args.sweep {
        return sizing_report(sc, args, path, target);
    }
    let key = args.key.clone().unwrap_or(KeyBy::Ip);
    let report = shadow(open_log(path)?, args.log_format.clone(), &key, sc).map_err(|e| e.to_string())?;
    Ok(output::shadow(&report, sc, args.format == Format::Csv))
}

fn run(args: Args) -> Result<(), String> {
    if let Some((name, minutes)) = &args.sample {
        let sc = scenario(&args.query, None)?;
        return write_sample_out(args.out.as_deref(), name, sc.seed, *minutes);
    }
    if let Some(path) = &args.log {
        let sc = scenario(&args.query, None)?;
        return write_out(args.out.as_deref(), &shadow_report(&sc, &args, path)?);
    }
    let sc = scenario(&args.query, args.trace.as_deref())?;
    if let Some(name) = &args.export {
        let config = production::export(&sc, name).expect("the name was checked");
        return write_out(args.out.as_deref(), &config.snippet);
    }
    let text = match args.format {
        Format::Json => report::run(&sc).map_err(|e| e.to_string())?.to_json(),
        Format::Csv => report::run(&sc).map_err(|e| e.to_string())?.to_csv(),
        Format::Decisions => report::decisions_csv(&sc).map_err(|e| e.to_string())?,
        #[cfg(target_arch = "wasm32")]
        Format::Svg => return Err("--format svg: the SVG backend is only built natively".into()),
        #[cfg(not(target_arch = "wasm32"))]
        Format::Svg if args.show.is_some() => {
            let at = args.at.unwrap_or(sc.duration.min(Nanos::from_secs(MAX_MOMENT_SECS)));
            still_svg(&sc, args.show.as_deref().unwrap_or_default(), at)?
        }
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
    write_out(args.out.as_deref(), &text)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().map(String::as_str) == Some("redis") {
        args.next();
        return redis_main(args);
    }
    match parse_args(args) {
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

#[cfg(target_arch = "wasm32")]
fn redis_main(_: impl Iterator<Item = String>) -> ExitCode {
    eprintln!("ratelimit-sim redis: only built natively");
    ExitCode::from(2)
}

/// `ratelimit-sim redis …`: the scenario against a real Redis, beside the simulation.
#[cfg(not(target_arch = "wasm32"))]
fn redis_main(mut it: impl Iterator<Item = String>) -> ExitCode {
    use ratelimit_playground::redis::{self, url::RedisUrl, Options, RunError};
    let fail = |code: u8, e: String| {
        eprintln!("ratelimit-sim redis: {e}");
        ExitCode::from(code)
    };
    let (mut url, mut query, mut speed, mut decisions, mut out, mut trace) = (None, None, 1.0, false, None, None);
    while let Some(flag) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        let parsed: Result<(), String> = (|| {
            match flag.as_str() {
                "-h" | "--help" => return Err(String::new()),
                "--url" => url = Some(RedisUrl::parse(&value("--url")?)?),
                "--query" => query = Some(value("--query")?),
                "--trace" => trace = Some(value("--trace")?),
                "--out" => out = Some(value("--out")?),
                "--speed" => {
                    let v = value("--speed")?;
                    speed =
                        v.parse().map_err(|_| format!("--speed: '{v}' is not a number; allowed: from 0.01 to 100"))?;
                }
                "--format" => {
                    decisions = match value("--format")?.as_str() {
                        "json" => false,
                        "decisions" => true,
                        other => return Err(format!("--format: '{other}' is not one of json | decisions")),
                    }
                }
                other => return Err(format!("unknown argument '{other}'; see --help")),
            }
            Ok(())
        })();
        match parsed {
            Err(e) if e.is_empty() => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            Err(e) => return fail(2, format!("{e}\n\n{USAGE}")),
            Ok(()) => {}
        }
    }
    let (Some(url), Some(query)) = (url, query) else {
        return fail(2, "--url and --query are required; see --help".into());
    };
    let sc = match scenario(&query, trace.as_deref()) {
        Ok(sc) => sc,
        Err(e) => return fail(2, e),
    };
    let interrupted = redis::interrupt::install();
    let opts = Options { url, speed, keep_decisions: decisions };
    match redis::run(&sc, &opts, interrupted) {
        Ok(o) => {
            let text = if decisions {
                redis::report::decisions_csv(&o.decisions, &o.comparison.key)
            } else {
                o.comparison.to_json()
            };
            match write_out(out.as_deref(), &text) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => fail(1, e),
            }
        }
        Err(RunError::Invalid(e)) => fail(2, e),
        Err(RunError::Server(e)) => fail(1, e),
        Err(RunError::Interrupted(e)) => fail(130, e),
    }
}
