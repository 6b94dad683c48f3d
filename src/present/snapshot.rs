//! [`Snapshot`]: the engine's numbers as the view shows them, copied out once per frame so the
//! components read plain data. Every value here was computed by the engine; nothing is decided.

use crate::sim::peak::Seam;
use crate::sim::{Algorithm, Disagreement, SimTime, Simulation, Totals};

/// One algorithm's numbers: the single view has one column, compare mode five (six with a
/// product).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Column {
    /// The algorithm.
    pub algo: Algorithm,
    /// Counts since t = 0.
    pub totals: Totals,
    /// The long-run pass ratio the engine predicts for this algorithm, where its formula holds.
    pub predicted: Option<f64>,
    /// When C ÷ (λ − r) predicts the first rejection, where that formula applies.
    pub predicted_first: Option<f64>,
    /// When the bucket runs short of a whole token, (C − 1) ÷ (λ − r), where that applies: the
    /// first 429 is the next arrival.
    pub short_of_a_token: Option<f64>,
    /// Most admitted in any interval of one window's length, and when that interval ended.
    pub peak: (u64, SimTime),
    /// For the textbook fixed window, whose windows start at whole multiples of its length:
    /// that interval cut at the boundary inside it, the two windows' shares of the peak.
    pub seam: Option<Seam>,
    /// The window algorithms' limit (for "peak = 2 × limit").
    pub limit: u64,
    /// Whether it counts in windows (a product: its textbook algorithm does).
    pub windowed: bool,
}

impl Column {
    /// The numbers of `sim` now.
    pub fn of(sim: &Simulation) -> Self {
        let sc = sim.scenario();
        Column {
            algo: sc.algo,
            totals: sim.metrics().totals,
            predicted: sc.predicted_pass_ratio(),
            predicted_first: sc.predicted_first_rejection(),
            short_of_a_token: sc.short_of_a_token(),
            peak: sim.peak_in_window(),
            seam: (sc.algo == Algorithm::FixedWindow).then(|| sim.peak_seam()),
            limit: sc.effective_limit(),
            windowed: sc.algo.is_window(&sc.product),
        }
    }

    /// Whether the peak went over the limit in some window-length interval (window algorithms
    /// only: a bucket may legitimately admit its burst and its refill within one such interval).
    pub fn over_limit(&self) -> bool {
        self.windowed && self.peak.0 > self.limit
    }
}

/// The most recent response: its status and headers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LastResponse {
    /// 200 (true) or refused (false).
    pub allowed: bool,
    /// The HTTP status: 200, 429, or 503 (nginx without `limit_req_status`).
    pub status: u16,
    /// The headers the limiter sets: `RateLimit-Policy`, `RateLimit` and, on a 429,
    /// `Retry-After` ([`crate::sim::Limiter::headers`] says which a product sets).
    pub headers: Vec<(&'static str, String)>,
}

/// The status line of a response with `status` (none yet: says so).
pub fn status_line(status: Option<u16>) -> &'static str {
    match status {
        Some(200) => "HTTP/1.1 200 OK",
        Some(503) => "HTTP/1.1 503 Service Temporarily Unavailable",
        Some(_) => "HTTP/1.1 429 Too Many Requests",
        None => "no request yet",
    }
}

/// What the view shows of the engine, refreshed after every change of simulated time.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// Bumped on every restart, so views keyed on it redraw.
    pub generation: u64,
    /// Simulated time reached.
    pub now: SimTime,
    /// One column per algorithm running.
    pub columns: Vec<Column>,
    /// Compare mode: the sliding counter's disagreement with the exact log.
    pub disagreement: Option<Disagreement>,
    /// Single view: the last decision's response.
    pub last: Option<LastResponse>,
    /// Metrics buckets completed (the throughput charts redraw when this changes).
    pub completed_buckets: u64,
    /// Instant of the newest inner-state sample, in ns (the state chart redraws when it moves).
    pub sampled_to: u64,
    /// Events processed by the first simulation (the request strip redraws when it changes).
    pub events: u64,
    /// Seconds the request strip covers (less than asked when events are dense).
    pub strip_secs: f64,
}

impl Snapshot {
    /// The first (in the single view: the only) column.
    pub fn main(&self) -> Option<&Column> {
        self.columns.first()
    }
}
