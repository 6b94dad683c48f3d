//! A product next to what it stands for: its model beside its textbook algorithm on the same
//! arrivals ([`side_by_side`]), a scenario switched to the model that runs a production tab's
//! exported configuration ([`run_config`], the panel's "Run this config"), and one policy run
//! through every product's exported configuration on the same arrivals ([`every_product`]:
//! "I said 100 per minute — what does each of these actually do?").

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
    products::of_export(export, Policy::exported(sc).shape)
}

impl Policy {
    /// The policy a production tab exports for `sc`: [`Policy::of`], and for the leaky bucket's
    /// queue the bucket one larger, which admits the same requests (only at once). Here rather
    /// than in [`Policy::of`], which the first modules carry and which never sees the queue there.
    pub fn exported(sc: &Scenario) -> Policy {
        let mut p = Policy::of(sc);
        if sc.algo == Algorithm::LeakyBucket {
            let (burst, milli) = (sc.capacity.saturating_add(1), u128::from(sc.refill.milli().max(1)));
            let window_ns = (u128::from(burst) * crate::sim::rate::TOKEN + milli / 2) / milli;
            (p.burst, p.limit, p.window_ns) = (burst, burst, u64::try_from(window_ns).unwrap_or(u64::MAX));
        }
        p
    }
}

/// The product options every production tab exports and runs under for `sc`: its own, and for
/// the leaky bucket's queue nginx's `nodelay` off — nginx without `nodelay` *is* that queue (with
/// `burst` = the queue's size), the one export that holds requests as it does; the others admit
/// the same requests (a bucket one larger, [`Policy::exported`]) and answer them at once.
pub fn export_options(sc: &Scenario) -> products::ProductOptions {
    let mut o = sc.product;
    if sc.algo == Algorithm::LeakyBucket {
        o.set(&products::nginx::NODELAY, 0);
    }
    o
}

/// "Run this config": `sc` switched to the model of the production tab `export`, with the
/// policy keys set so the model runs exactly the configuration that tab exports for `sc` (the
/// export of the result equals the export of `sc`). `None` for an unknown tab.
pub fn run_config(sc: &Scenario, export: &str) -> Option<Scenario> {
    let product = model_of_export(sc, export)?;
    let p = Policy::exported(sc);
    let mut out = sc.clone();
    out.algo = product;
    out.product = export_options(sc);
    out.algo.choose_textbook(&mut out.product, p.shape.algorithm());
    if !out.algo.is_window(&out.product) {
        out.capacity = p.burst;
        out.refill = Rate::from_milli(p.rate_milli);
    } else {
        out.limit = Some(p.limit);
        out.window = Some(Nanos(p.window_ns));
    }
    // Kong's own store mode (store=sync) is not another product's.
    out.fit_store();
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

/// One row of [`every_product`]: a limiter run on the scenario's arrivals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProductRow {
    /// The model run: the policy's textbook algorithm (the first row), then each tab's product.
    pub algo: Algorithm,
    /// Its name, e.g. "nginx", "token bucket".
    pub name: &'static str,
    /// The production tab it runs (`--export` name); `None` for the textbook row.
    pub export: Option<&'static str>,
    /// Admitted over the run.
    pub admitted: u64,
    /// Refused over the run.
    pub refused: u64,
    /// When the first request was refused.
    pub first_refusal: Option<Nanos>,
    /// The longest an admitted request was held before being served (nginx without `nodelay`,
    /// Traefik); zero for a limiter that never holds one.
    pub longest_delay: Nanos,
    /// How it differs from the textbook, in one line: the product's roundings and clocks.
    pub difference: String,
}

/// Most requests [`every_product`] simulates, over all its runs: the page computes it on every
/// change of the policy or the traffic.
pub const EVERY_PRODUCT_MAX: u128 = 2_000_000;

/// The policy of `sc` run through its textbook algorithm and then every production tab's exported
/// configuration ([`run_config`]), each on the same arrivals for the scenario's duration, one
/// server: what each product makes of the same policy.
pub fn every_product(sc: &Scenario) -> Result<Vec<ProductRow>, ParamError> {
    let textbook = if sc.algo.is_product() { sc.algo.textbook(&sc.product) } else { sc.algo };
    let mut base = Scenario { algo: textbook, nodes: 1, ..sc.clone() };
    base.fit_store();
    let runs = products::EXPORT_NAMES.len() as u128 + 1;
    if report::run_requests(&base).saturating_mul(runs) > EVERY_PRODUCT_MAX {
        return Err(ParamError {
            param: "duration".into(),
            message: format!(
                "every product: {runs} runs of this scenario would simulate more than {EVERY_PRODUCT_MAX} requests: \
                 lower rate or duration"
            ),
        });
    }
    let row = |sc: &Scenario, export: Option<&'static str>| -> Result<ProductRow, ParamError> {
        let sim = report::simulate(sc, |_| ())?;
        let t = &sim.metrics().totals;
        let (name, difference) = match export {
            None => (label(sc.algo), String::new()),
            Some(_) => (products::product_name(sc.algo), products::reason(sc.algo, &Policy::of(sc), &sc.product)),
        };
        Ok(ProductRow {
            algo: sc.algo,
            name,
            export,
            admitted: t.admitted,
            refused: t.rejected,
            first_refusal: t.first_rejection.map(|at| Nanos(at.as_nanos())),
            longest_delay: if t.delayed > 0 { sim.metrics().latency.percentile(100.0) } else { Nanos::ZERO },
            difference,
        })
    };
    let mut rows = vec![row(&base, None)?];
    for &export in &products::EXPORT_NAMES {
        if let Some(product) = run_config(&base, export) {
            rows.push(row(&product, Some(export))?);
        }
    }
    Ok(rows)
}

fn label(algo: Algorithm) -> &'static str {
    match algo {
        Algorithm::TokenBucket => "token bucket",
        Algorithm::Gcra => "GCRA",
        Algorithm::FixedWindow => "fixed window",
        Algorithm::SlidingWindow => "sliding window counter",
        Algorithm::SlidingLog => "sliding log",
        Algorithm::LeakyBucket => "leaky bucket (queue)",
        _ => "algorithm",
    }
}
