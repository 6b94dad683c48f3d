//! `ratelimit-sim`: runs a scenario to completion and prints what happened, as JSON or CSV.
//!
//! A thin shell over the engine: the same scenario query the web app puts in its URL. Its flags
//! are read in [`args`]; access logs and samples are [`logs`]'s.

mod args;
mod logs;

#[cfg(not(target_arch = "wasm32"))]
use ratelimit_playground::chart::svg;
#[cfg(not(target_arch = "wasm32"))]
use ratelimit_playground::present::share::link::MAX_MOMENT_SECS;
#[cfg(not(target_arch = "wasm32"))]
use ratelimit_playground::present::share::still::still_svg;
#[cfg(not(target_arch = "wasm32"))]
use ratelimit_playground::present::share::still_look::scaled;
use ratelimit_playground::production;
use ratelimit_playground::sim::products::ALGO_NAMES;
use ratelimit_playground::sim::query::pairs;
use ratelimit_playground::sim::support::decimal;
use ratelimit_playground::sim::{product_runs, report, Nanos, Scenario, Trace, TrafficShape};

use args::{parse_args, usage, Args, Format};
use logs::{shadow_report, write_sample_out};
/// The longest span an SVG chart shows: the last ten minutes of a longer run.
#[cfg(not(target_arch = "wasm32"))]
const SVG_MAX_SECS: u64 = 600;
use std::io::{Read, Write};
use std::process::ExitCode;
use std::sync::Arc;

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
        if !pairs(query).any(|(key, _)| key == "duration") {
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

fn run(args: Args) -> Result<(), String> {
    if let Some((name, minutes)) = &args.sample {
        let sc = scenario(&args.query, None)?;
        return write_sample_out(args.out.as_deref(), name, sc.seed, *minutes);
    }
    if !args.log.is_empty() {
        let sc = scenario(&args.query, None)?;
        return write_out(args.out.as_deref(), &shadow_report(&sc, &args, &args.log)?);
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
        Format::Products => every_product_csv(&sc)?,
        #[cfg(target_arch = "wasm32")]
        Format::Svg => return Err("--format svg: the SVG backend is only built natively".into()),
        #[cfg(not(target_arch = "wasm32"))]
        Format::Svg if args.show.is_some() => {
            let at = args.at.unwrap_or(sc.duration.min(Nanos::from_secs(MAX_MOMENT_SECS)));
            let caption = args.caption.as_deref().unwrap_or_default();
            let still =
                still_svg(&sc, args.show.as_deref().unwrap_or_default(), at, args.theme.unwrap_or_default(), caption)?;
            scaled(&still, args.scale.unwrap_or(1))
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

/// `--format products`: [`product_runs::every_product`] as CSV, one line per limiter.
fn every_product_csv(sc: &Scenario) -> Result<String, String> {
    let rows = product_runs::every_product(sc).map_err(|e| e.to_string())?;
    let secs = |ns: u64| decimal::format_fixed(ns, 9);
    let mut out = String::from("limiter,algo,export,admitted,refused,first_refusal_s,longest_delay_s,difference\n");
    for r in rows {
        let first = r.first_refusal.map(|t| secs(t.as_nanos())).unwrap_or_default();
        let quoted = format!("\"{}\"", r.difference.replace('"', "\"\""));
        out.push_str(&format!(
            "{},{},{},{},{},{first},{},{quoted}\n",
            r.name,
            ALGO_NAMES.iter().find(|(_, a)| *a == r.algo).map_or("", |(name, _)| name),
            r.export.unwrap_or(""),
            r.admitted,
            r.refused,
            secs(r.longest_delay.as_nanos())
        ));
    }
    Ok(out)
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1).peekable();
    if args.peek().map(String::as_str) == Some("redis") {
        args.next();
        return redis_main(args);
    }
    match parse_args(args) {
        Ok(None) => {
            println!("{}", usage());
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
            eprintln!("ratelimit-sim: {e}\n\n{}", usage());
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
    // Set by flags, as the query's keys (the engine's run is the same scenario).
    let (mut replica, mut keys, mut seeds) = (None, Vec::new(), Vec::new());
    while let Some(flag) = it.next() {
        let mut value = |name: &str| it.next().ok_or_else(|| format!("{name} needs a value"));
        let parsed: Result<(), String> = (|| {
            match flag.as_str() {
                "-h" | "--help" => return Err(String::new()),
                "--url" => url = Some(RedisUrl::parse(&value("--url")?)?),
                "--query" => query = Some(value("--query")?),
                "--trace" => trace = Some(value("--trace")?),
                "--out" => out = Some(value("--out")?),
                "--replica" => {
                    replica = Some(RedisUrl::parse(&value("--replica")?).map_err(|e| e.replace("--url", "--replica"))?)
                }
                "--failover-at" => keys.push(("failover", value("--failover-at")?)),
                "--cluster" => {
                    for u in value("--cluster")?.split(',') {
                        seeds.push(RedisUrl::parse(u).map_err(|e| e.replace("--url", "--cluster"))?);
                    }
                }
                "--read-from-replica" => keys.push(("store", "replica_read".to_string())),
                "--skew" => keys.push(("skew", value("--skew")?)),
                "--shards" => keys.push(("shards", value("--shards")?)),
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
                println!("{}", usage());
                return ExitCode::SUCCESS;
            }
            Err(e) => return fail(2, format!("{e}\n\n{}", usage())),
            Ok(()) => {}
        }
    }
    let cluster = !seeds.is_empty();
    if cluster && url.is_some() {
        return fail(2, "--cluster: give the cluster's nodes there and no --url".into());
    }
    // A cluster is reached through the first of its nodes that answers.
    let url = url.or_else(|| {
        let up = |u: &&RedisUrl| redis::conn::resolve(u, std::time::Duration::from_secs(2)).is_ok();
        seeds.iter().find(up).or(seeds.first()).cloned()
    });
    let (Some(url), Some(mut query)) = (url, query) else {
        return fail(2, "--url (or --cluster) and --query are required; see --help".into());
    };
    for (key, v) in keys {
        let flag = match key {
            "store" => "--read-from-replica",
            "skew" => "--skew",
            "shards" => "--shards",
            _ => "--failover-at",
        };
        if pairs(&query).any(|(k, _)| k == key) {
            return fail(2, format!("{flag}: the query already sets {key}; use one or the other"));
        }
        query.push_str(&format!("&{key}={v}"));
    }
    let sc = match scenario(&query, trace.as_deref()) {
        Ok(sc) => sc,
        Err(e) => return fail(2, e),
    };
    let interrupted = redis::interrupt::install();
    let opts = Options { url, speed, keep_decisions: decisions, replica, cluster };
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
