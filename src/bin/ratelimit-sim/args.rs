//! `ratelimit-sim`'s command line: the usage text, and the flags read into [`Args`] with a
//! message naming any flag that is wrong and its allowed values.

use ratelimit_playground::present::share::cards::{parse_cards, Card};
use ratelimit_playground::present::share::frame::{Theme, MAX_CAPTION, THEMES};
use ratelimit_playground::present::share::link::MAX_MOMENT_SECS;
use ratelimit_playground::production;
use ratelimit_playground::sim::logs::samples::SAMPLES;
use ratelimit_playground::sim::logs::scope::Scope;
use ratelimit_playground::sim::logs::sizing::Objective;
use ratelimit_playground::sim::logs::{KeyBy, LogFormat};
use ratelimit_playground::sim::Nanos;

/// The longest sample log `--minutes` makes: a week.
const MAX_SAMPLE_MINUTES: u64 = 10_080;

/// The usage text; `{exports}` stands for the export targets, which the product registry lists
/// ([`usage`] fills them in).
const USAGE: &str = "\
usage: ratelimit-sim --query QUERY [--trace FILE] [--format json|csv|svg|decisions|products] [--out FILE]
       ratelimit-sim --query QUERY --format svg --show CARDS [--at SECONDS] [--theme T]
                     [--caption TEXT] [--scale N] [--out FILE]
       ratelimit-sim --query QUERY --log FILE [--log-format F] [--key K] [--format json|csv] [--out FILE]
                     [--scope global|instance|field:NAME [--instances N] [--placement P]]
       ratelimit-sim --query QUERY --log FILE --sweep [--target-keys PCT] [--latency-objective MS]
                     [--format json|csv]
       ratelimit-sim --query algo=nginx&… --log FILE --against nginx-dry-run
       ratelimit-sim --sample-log api|login [--minutes M] [--query seed=S] [--out FILE]
       ratelimit-sim --query QUERY --export {exports}
       ratelimit-sim redis --url redis://HOST:PORT[/DB] --query QUERY [--speed S]
       ratelimit-sim redis --cluster redis://HOST:PORT[,…] --query QUERY [--shards K]
                           [--trace FILE] [--format json|decisions] [--out FILE]

Runs a rate-limiting scenario to completion, exactly and deterministically.

  --query QUERY   the scenario, in the web app's URL format, e.g.
                  'algo=token_bucket&capacity=10&refill=5&rate=20&duration=60'
                  (the README lists every key with its unit, range and default)
  --trace FILE    arrival times to replay, one per line in milliseconds ('-' reads stdin);
                  implies traffic=trace
  --format F      json (default: totals, latency percentiles, the series), csv (the series),
                  svg (the app's throughput and inner-state charts, for docs without iframes), or
                  decisions (one CSV line per request: t_ms,key,node,status,retry_after_ms, and
                  delay_ms for a limiter that holds requests), or products (the same policy
                  through every product's exported config on the same arrivals, one CSV line
                  each: admitted, refused, the first refusal, the longest hold, why it differs)
  --out FILE      write there instead of standard output
  --show CARDS    with --format svg: an embed's still instead — exactly the cards an embed with
                  show=CARDS draws (throughput,state,steady,strip,response,stats,compare,
                  multi-node topology,swimlane,code,nodes,rtt,sweep,outage, and with workers the
                  server's server_load,server_latency,server_queue), 600 px wide, by the same
                  drawing code, at the moment --at
  --at SECONDS    the moment of the still, like an embed's t= (0 to 600; default: the end of the
                  scenario's duration, at most 600)
  --theme T       the still's theme, like an embed's theme=: auto (default: light, and dark
                  where the reader's system is dark), light or dark
  --caption TEXT  the embed's caption, under the cards (plain text, up to 200 characters)
  --scale N       the still's size as N times 600 px wide (1 to 4; default 1), the same drawing:
                  for a site that turns it into a picture, a sharp one
  --log FILE      shadow mode: replay an access log ('-' reads stdin; gzip is read as it is)
                  through the policy, one limiter per key, and report who would have got a
                  429 (give --log again for each file of a rotated set or of each server: they
                  are merged by time; a bad line is numbered in the merged log): totals, keys,
                  keys_throttled, per_key (sorted by rejections, then key), rejections over time;
                  csv prints per_key. Nothing leaves the machine.
  --log-format F  the log's format (default: detected from its first line): combined | common |
                  msec | json[:TIME_FIELD] | csv[:TIME_COLUMN] | alb | cloudfront | times
  --key K         what a limiter is kept per: ip (default) | field:NAME | path | global
  --sweep         the sizing assistant: the query's policy rated on the log first (the keys it
                  throttles and spares, with their peaks), then up to 100 policies (capacity ×
                  refill, or limit × window) drawn from the log's peaks, each run on the log, and
                  one recommended with what it changes against the current one: by default the
                  tightest that spares every key whose peak in 1 s looks like the bulk's and
                  throttles the outliers (above Q3 + 3 × IQR; the current one if it already
                  does); with --target-keys PCT (0 to 100) the smallest under which at most PCT %
                  of the keys see a 429 instead; with a server in the query (workers=N), each
                  policy's admitted requests also go through it, and the largest policy under
                  which its p99 latency keeps --latency-objective MS (default: the query's
                  client_timeout) and nothing is shed is named
  --scope S       with --log: where the counters are kept: global (default: one per key),
                  instance (one per key on each of --instances N instances, 1 to 1024, default 2,
                  placed by --placement rr | random | hash, default rr: nginx instances each with
                  its own zone) or field:NAME (one per key and value of a log field, e.g. a POP);
                  the report's counts are the scope's, and scope says what it changes against
                  one global counter (admitted, keys newly spared and newly throttled)
  --against nginx-dry-run
                  with --log: check the nginx model against nginx's own limit_req_dry_run log
                  ($msec first, $limit_req_status last: docs/shadow-mode.md gives the
                  log_format): each request replayed under the query's algo=nginx policy, one
                  limiter per key, and its decision compared with the one nginx logged;
                  prints agreement {requests, agree, percent}, the counts by status both ways
                  and the first disagreements with their lines and times (JSON)
  --sample-log S  print a generated (not real) combined-format log to try --log on: api (300
                  clients, three scrapers, a cron burst each minute) or login (credential
                  stuffing); --minutes M long (1 to 10080, default 10), from the query's seed
  --export T      print the scenario's policy as configuration for T instead of running it:
                  exactly what the page's \"Use this in production\" tab copies

`redis` runs a multi-node scenario (nodes=N, store=race|atomic|async|replica_read, rtt=…) against a real Redis
in real time — one connection per node, the round trip added by a local delay proxy — and prints
the measured run beside the engine's simulation of it. Everything it writes is one key,
rlp:{run-…}:limiter (with --replica also …:ledger and …:probe), deleted at the end (and on
Ctrl-C).

  --url URL       redis://[[user]:password@]host[:port][/db]
  --replica URL   a replica of --url (started with --replicaof), for failover=S and
                  store=replica_read: fed through a delay proxy so it lags replica_lag ms,
                  promoted at the failover (REPLICAOF NO ONE), put back under --url afterwards
  --failover-at S the same as failover=S in the query; --read-from-replica: store=replica_read;
                  --skew MS: skew=MS (node i of n stamps its requests −MS + 2·MS·i/(n−1) ms off)
  --cluster URL[,URL…]  instead of --url: nodes of a Redis Cluster (--cluster-enabled yes); the
                  limiter's key lives on the primary serving its slot, and with --shards K (or
                  shards=K) K keys, each allowed a K-th of the limit, go to the primaries in turn;
                  MOVED and ASK are followed; the JSON gives each key's and primary's load
  --speed S       scenario seconds per real second (default 1; 0.01 to 100)
  --format F      json (default: measured, simulated, difference) or decisions (one CSV line
                  per measured request)

Exit status: 0 on success, 2 on invalid input (the message names the parameter and its range),
1 when the server cannot be reached or refuses a command, 130 when interrupted.";

/// The usage text, with the export targets the product registry has.
pub fn usage() -> String {
    USAGE.replace("{exports}", &ratelimit_playground::sim::products::EXPORT_NAMES.join("|"))
}

/// What to print.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Json,
    Csv,
    Svg,
    Decisions,
    Products,
}

pub struct Args {
    pub query: String,
    pub trace: Option<String>,
    pub format: Format,
    pub out: Option<String>,
    pub export: Option<String>,
    /// `--show`: the cards of an embed's still.
    pub show: Option<Vec<Card>>,
    /// `--at`: the still's moment.
    pub at: Option<Nanos>,
    /// `--theme`: the still's theme.
    pub theme: Option<Theme>,
    /// `--caption`: the still's caption.
    pub caption: Option<String>,
    /// `--scale`: the still's size as a multiple of 600 px.
    pub scale: Option<u32>,
    /// `--log` (repeated): the access logs to replay in shadow mode, merged by time.
    pub log: Vec<String>,
    /// `--log-format`.
    pub log_format: Option<LogFormat>,
    /// `--key` (`ip` when not given).
    pub key: Option<KeyBy>,
    /// `--sample-log` and `--minutes`.
    pub sample: Option<(String, u64)>,
    /// `--sweep`: the outlier rule, or with `--target-keys` the share of keys (0–1).
    pub sweep: Option<Objective>,
    /// `--latency-objective`: the p99 the server behind the limiter must keep, for `--sweep`.
    pub latency_objective: Option<Nanos>,
    /// `--against nginx-dry-run`: check the model against nginx's dry-run log.
    pub against_nginx: bool,
    /// `--scope` with `--instances` and `--placement`: where the counters are kept.
    pub scope: Scope,
}

pub fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let mut args = Args {
        query: String::new(),
        trace: None,
        format: Format::Json,
        out: None,
        export: None,
        show: None,
        at: None,
        theme: None,
        caption: None,
        scale: None,
        log: Vec::new(),
        log_format: None,
        key: None,
        sample: None,
        sweep: None,
        latency_objective: None,
        against_nginx: false,
        scope: Scope::Global,
    };
    let (mut scope, mut instances, mut placement) = (None, None, None);
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
                    "products" => Format::Products,
                    other => {
                        return Err(format!(
                            "--format: '{other}' is not one of json | csv | svg | decisions | products"
                        ))
                    }
                }
            }
            "--log" => args.log.push(value("--log")?),
            "--sweep" => args.sweep = Some(Objective::Outliers),
            "--scope" => scope = Some(value("--scope")?),
            "--instances" => instances = Some(value("--instances")?),
            "--placement" => placement = Some(value("--placement")?),
            "--against" => match value("--against")?.as_str() {
                "nginx-dry-run" => args.against_nginx = true,
                other => return Err(format!("--against: '{other}' is not a dry run this reads; known: nginx-dry-run")),
            },
            "--latency-objective" => {
                let text = value("--latency-objective")?;
                match text.parse::<f64>() {
                    Ok(ms) if ms > 0.0 && ms <= 3_600_000.0 => {
                        args.latency_objective = Some(Nanos::from_secs_f64(ms / 1e3));
                    }
                    _ => {
                        return Err(format!(
                            "--latency-objective: '{text}' is not a time in ms from 0 (excluded) to 3600000"
                        ))
                    }
                }
            }
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
            "--theme" => {
                let text = value("--theme")?;
                match THEMES.iter().find(|(_, k)| *k == text) {
                    Some(&(theme, _)) => args.theme = Some(theme),
                    None => return Err(format!("--theme: '{text}' is not one of auto, light, dark")),
                }
            }
            "--caption" => {
                let text = value("--caption")?;
                if text.chars().count() > MAX_CAPTION {
                    return Err(format!("--caption: is longer than {MAX_CAPTION} characters"));
                }
                args.caption = Some(text);
            }
            "--scale" => {
                let text = value("--scale")?;
                match text.parse::<u32>() {
                    Ok(n) if (1..=4).contains(&n) => args.scale = Some(n),
                    _ => return Err(format!("--scale: '{text}' is not a whole number from 1 to 4")),
                }
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
    if (args.at.is_some() || args.theme.is_some() || args.caption.is_some() || args.scale.is_some())
        && args.show.is_none()
    {
        return Err("--at, --theme, --caption and --scale describe an embed's still: give the cards with --show".into());
    }
    match (&mut args.sample, minutes) {
        (Some(sample), Some(m)) => sample.1 = m,
        (None, Some(_)) => return Err("--minutes is the length of a --sample-log".into()),
        _ => {}
    }
    match (&mut args.sweep, target) {
        (Some(objective), Some(t)) => *objective = Objective::Target(t),
        (None, Some(_)) => return Err("--target-keys is the sizing assistant's: add --sweep".into()),
        _ => {}
    }
    if args.latency_objective.is_some() && args.sweep.is_none() {
        return Err("--latency-objective is the sizing assistant's: add --sweep (and a server: workers=N)".into());
    }
    if scope.is_some() || instances.is_some() || placement.is_some() {
        let named = scope.as_deref().unwrap_or("global");
        args.scope = Scope::named(named, instances.as_deref(), placement.as_deref())?;
        if args.log.is_empty() || args.sweep.is_some() || args.against_nginx {
            return Err("--scope keeps shadow mode's counters per instance or field: give a log with --log FILE, without --sweep or --against".into());
        }
    }
    if args.against_nginx && (args.log.is_empty() || args.sweep.is_some() || args.format != Format::Json) {
        return Err("--against checks a log: give it with --log FILE, without --sweep, as json".into());
    }
    if args.sweep.is_some() && args.log.is_empty() {
        return Err("--sweep sizes a policy on a log: give it with --log FILE".into());
    }
    if args.sample.is_some() && query.is_none() {
        query = Some(String::new());
    }
    if !args.log.is_empty() && !matches!(args.format, Format::Json | Format::Csv) {
        return Err("--log reports as json or csv: use --format json or --format csv".into());
    }
    if !args.log.is_empty() && (args.trace.is_some() || args.export.is_some()) {
        return Err("--log replays a log: leave out --trace and --export".into());
    }
    if args.log.is_empty() && (args.log_format.is_some() || args.key.is_some()) {
        return Err("--log-format and --key describe a log: give it with --log FILE".into());
    }
    args.query = query.ok_or("--query is required (use --query '' for all defaults)")?;
    Ok(Some(args))
}
