//! A product next to what it stands for: its model beside its textbook algorithm on the same
//! arrivals ([`side_by_side`]), and a scenario switched to the model that runs a production tab's
//! exported configuration ([`run_config`], the panel's "Run this config").

use super::algorithm::Algorithm;
use super::products::{self, Policy};
use super::query::ParamError;
use super::rate::Rate;
use super::report;
use super::scenario::Scenario;
use super::time::Nanos;
use crate::sim::support::decimal;

/// The product model that runs what the production tab `export` (a CLI `--export` name)
/// exports for `sc`'s policy: the Upstash tab's limiter and the Lua tab's script follow the
/// policy's shape.
pub fn model_of_export(sc: &Scenario, export: &str) -> Option<Algorithm> {
    products::of_export(export, Policy::of(sc).shape)
}

/// "Run this config": `sc` switched to the model of the production tab `export`, with the
/// policy keys set so the model runs exactly the configuration that tab exports for `sc` (the
/// export of the result equals the export of `sc`). `None` for an unknown tab.
pub fn run_config(sc: &Scenario, export: &str) -> Option<Scenario> {
    let product = model_of_export(sc, export)?;
    let p = Policy::of(sc);
    let mut out = sc.clone();
    out.algo = product;
    out.algo.choose_textbook(&mut out.product, p.shape.algorithm());
    if !out.algo.is_window(&out.product) {
        out.capacity = p.burst;
        out.refill = Rate::from_milli(p.rate_milli);
    } else {
        out.limit = Some(p.limit);
        out.window = Some(Nanos(p.window_ns));
    }
    Some(out)
}

/// A product model and its textbook algorithm on the same arrivals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideBySide {
    /// The product model, e.g. nginx.
    pub product: Algorithm,
    /// Its textbook algorithm, e.g. the token bucket.
    pub textbook: Algorithm,
    /// Admitted by the product's model over the run.
    pub product_admitted: u64,
    /// Admitted by the textbook algorithm.
    pub textbook_admitted: u64,
    /// Admitted requests the product held before serving (nginx without `nodelay`).
    pub delayed: u64,
    /// The difference in one sentence, with the reason where the configuration gives one.
    pub statement: String,
}

/// Runs `sc` (a product model) and its textbook algorithm with the same policy on the same
/// arrivals for the scenario's duration, and states the difference in numbers.
pub fn side_by_side(sc: &Scenario) -> Result<SideBySide, ParamError> {
    let textbook = sc.algo.textbook(&sc.product);
    let theirs = report::run(sc)?;
    let ours = report::run(&Scenario { algo: textbook, ..sc.clone() })?;
    let (a, b) = (theirs.admitted, ours.admitted);
    let name = products::product_name(sc.algo);
    let span = decimal::format_fixed(sc.duration.as_nanos(), 9);
    let diff = match a.cmp(&b) {
        std::cmp::Ordering::Equal => {
            format!("{name} admits the same {a} as the textbook {} in these {span} s", label(textbook))
        }
        std::cmp::Ordering::Less => format!("{name} admits {} fewer in these {span} s: {a} against {b}", b - a),
        std::cmp::Ordering::Greater => format!("{name} admits {} more in these {span} s: {a} against {b}", a - b),
    };
    let why = products::reason(sc.algo, &Policy::of(sc), &sc.product);
    let delayed = theirs.delayed;
    let mut statement = if a != b && !why.is_empty() { format!("{diff}: {why}.") } else { format!("{diff}.") };
    if delayed > 0 {
        let p99 = products::duration_text(theirs.latency_ns.p99);
        statement.push_str(&format!(" It delays {delayed} of them instead of refusing (p99 added latency {p99})."));
    }
    Ok(SideBySide { product: sc.algo, textbook, product_admitted: a, textbook_admitted: b, delayed, statement })
}

fn label(algo: Algorithm) -> &'static str {
    match algo {
        Algorithm::TokenBucket => "token bucket",
        Algorithm::Gcra => "GCRA",
        Algorithm::FixedWindow => "fixed window",
        Algorithm::SlidingWindow => "sliding window counter",
        Algorithm::SlidingLog => "sliding log",
        _ => "algorithm",
    }
}
