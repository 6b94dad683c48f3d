//! [`Scenario`]: everything that defines a run, typed and validated.
//!
//! The URL query format (parsing and printing) lives in [`super::query`]; the key table with
//! units, ranges and defaults is in the README.

pub use super::algorithm::Algorithm;
use super::products::options::ProductOptions;
use super::products::policy::{Policy, Shape};
use super::rate::{Rate, TOKEN};
use super::time::{Nanos, SimTime};
use super::trace::Trace;
use std::sync::Arc;

/// How arrivals are generated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TrafficShape {
    /// Evenly spaced, `rate` per second, the first at t = 0.
    #[default]
    Constant,
    /// A Poisson process of mean `rate` per second (seeded).
    Poisson,
    /// `burst_on` seconds at `rate`, then `burst_off` seconds of silence, repeated.
    Bursts,
    /// The fixed-window seam attack: `limit` requests just before each boundary, `limit` just after.
    Seam,
    /// `clients` independent clients, each sending `rate / clients` per second from a random phase.
    Clients,
    /// Replay of a user's trace of arrival times.
    Trace,
}

/// Where the limiter state lives when there are several nodes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum StoreMode {
    /// Each node has its own limiter: nothing is shared.
    #[default]
    Local,
    /// GET the state, decide on the node, SET it back: separate operations that interleave.
    Race,
    /// One scripted read-modify-write executed at the store (a Redis Lua script).
    Atomic,
    /// The edge design: decide from a local view at once, send the increment, adopt the reply.
    Async,
    /// Kong's `policy: redis`: `INCR` per request, or with `sync_rate` each node decides on its
    /// own count and sends it every `sync_rate` seconds (`algo=kong` only).
    Sync,
    /// Read the state from the store's replica (`replica_lag` behind), decide on the node, send
    /// the increment to the primary.
    ReplicaRead,
}

/// How the load balancer picks a node.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Balancer {
    /// Node 0, 1, 2, … in turn.
    #[default]
    RoundRobin,
    /// A seeded uniform choice per request.
    Random,
}

/// What a client does after a 429.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum RetryPolicy {
    /// Gives up: the request is lost.
    #[default]
    GiveUp,
    /// Retries exactly when `Retry-After` says (punctual clients: synchronized waves).
    Exact,
    /// Retries after `Retry-After` + `headroom` + uniform random `[0, jitter)`.
    Jitter,
    /// Exponential backoff with full jitter: uniform in `[0, min(cap, base · 2^attempt))`.
    Backoff,
}

/// What a node does when the store does not answer in time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum FailMode {
    /// Admit the request.
    #[default]
    Open,
    /// Reject the request.
    Closed,
}

/// A store outage: no operation reaching the store in `[start, end)` is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outage {
    /// When the store goes down.
    pub start: SimTime,
    /// When it is back.
    pub end: SimTime,
}

/// Everything that defines a run. Same scenario (and trace) ⇒ same run, byte for byte.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// The algorithm.
    pub algo: Algorithm,
    /// Token bucket / GCRA burst capacity, in tokens.
    pub capacity: u64,
    /// Token bucket / GCRA refill rate.
    pub refill: Rate,
    /// Window algorithms' limit per window; `None` derives it from `capacity`.
    pub limit: Option<u64>,
    /// Window algorithms' window; `None` derives `capacity / refill` seconds.
    pub window: Option<Nanos>,
    /// Whether rejected requests consume quota too.
    pub count_rejected: bool,
    /// Mean arrival rate of new requests (not counting retries).
    pub rate: Rate,
    /// The arrival process.
    pub traffic: TrafficShape,
    /// Length of each burst (traffic = bursts).
    pub burst_on: Nanos,
    /// Silence between bursts (traffic = bursts).
    pub burst_off: Nanos,
    /// Number of independent clients (traffic = clients).
    pub clients: u32,
    /// How long a batch run lasts.
    pub duration: Nanos,
    /// The seed of the run's one RNG.
    pub seed: u64,
    /// Nodes behind the load balancer.
    pub nodes: u32,
    /// Load-balancer policy.
    pub lb: Balancer,
    /// Store mode.
    pub store: StoreMode,
    /// Round-trip time from a node to the store.
    pub rtt: Nanos,
    /// Client behaviour after a 429.
    pub retry: RetryPolicy,
    /// Retries per request at most.
    pub max_retries: u32,
    /// Extra wait after `Retry-After` (retry = jitter).
    pub headroom: Nanos,
    /// Random extra wait up to this (retry = jitter).
    pub jitter: Nanos,
    /// First backoff ceiling (retry = backoff).
    pub backoff_base: Nanos,
    /// Largest backoff ceiling (retry = backoff).
    pub backoff_cap: Nanos,
    /// A store outage, if any.
    pub outage: Option<Outage>,
    /// How long a node waits for the store before failing open or closed.
    pub timeout: Nanos,
    /// Fail open or closed when the store times out.
    pub fail: FailMode,
    /// Width of one metrics bucket.
    pub bucket: Nanos,
    /// Arrival times to replay (traffic = trace); not part of the query string.
    pub trace: Option<Arc<Trace>>,
    /// The values of the products' own query keys (`nodelay`, `envoy_bucket`, `lua`, …).
    pub product: ProductOptions,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            algo: Algorithm::TokenBucket,
            capacity: 10,
            refill: Rate::per_sec(5),
            limit: None,
            window: None,
            count_rejected: false,
            rate: Rate::per_sec(8),
            traffic: TrafficShape::Constant,
            burst_on: Nanos::from_secs(1),
            burst_off: Nanos::from_secs(4),
            clients: 10,
            duration: Nanos::from_secs(60),
            seed: 1,
            nodes: 1,
            lb: Balancer::RoundRobin,
            store: StoreMode::Local,
            rtt: Nanos::from_millis(1),
            retry: RetryPolicy::GiveUp,
            max_retries: 3,
            headroom: Nanos::from_millis(100),
            jitter: Nanos::from_millis(1000),
            backoff_base: Nanos::from_millis(100),
            backoff_cap: Nanos::from_secs(10),
            outage: None,
            timeout: Nanos::from_millis(100),
            fail: FailMode::Open,
            bucket: Nanos::from_secs(1),
            trace: None,
            product: ProductOptions::default(),
        }
    }
}

impl Scenario {
    /// The window algorithms' limit: explicit, or the bucket's capacity (the same burst).
    pub fn effective_limit(&self) -> u64 {
        self.limit.unwrap_or(self.capacity)
    }

    /// The window algorithms' window: explicit, or `capacity / refill` (the same long-run rate),
    /// rounded to the nanosecond.
    pub fn effective_window(&self) -> Nanos {
        self.window.unwrap_or_else(|| {
            let milli = u128::from(self.refill.milli().max(1));
            let ns = (u128::from(self.capacity) * TOKEN + milli / 2) / milli;
            Nanos(u64::try_from(ns).unwrap_or(u64::MAX).max(1))
        })
    }

    /// Keeps the store mode one the algorithm has: `store=sync` is Kong's `policy: redis`, so
    /// with any other algorithm it becomes the edge design (`async`), the nearest. Returns
    /// whether it changed.
    pub fn fit_store(&mut self) -> bool {
        let misfit = self.store_misfit();
        if misfit {
            self.store = StoreMode::Async;
        }
        misfit
    }

    /// Whether the store mode is one the algorithm does not have (`store=sync` without Kong).
    pub fn store_misfit(&self) -> bool {
        self.store == StoreMode::Sync && self.algo != super::products::KONG
    }

    /// The HTTP status of a rejection: 429, or the product's own (503 for nginx without
    /// `limit_req_status`): see [`crate::sim::Limiter::reject_status`].
    pub fn reject_status(&self) -> u16 {
        use super::limiter::Limiter;
        self.limiter().reject_status()
    }

    /// The long-run rate the algorithm allows, per second: the refill rate for a token bucket
    /// or GCRA, `limit ÷ window` for the window algorithms.
    pub fn allowed_rate(&self) -> f64 {
        if self.algo.is_window(&self.product) {
            self.effective_limit() as f64 / self.effective_window().as_secs_f64()
        } else {
            self.refill.as_per_sec()
        }
    }

    /// The mean rate of new requests, where `rate` is that rate: constant, Poisson and many
    /// clients. `None` for bursts (the rate applies only while on), the seam and traces.
    pub fn offered_rate(&self) -> Option<f64> {
        matches!(self.traffic, TrafficShape::Constant | TrafficShape::Poisson | TrafficShape::Clients)
            .then(|| self.rate.as_per_sec())
    }

    /// The long-run fraction of requests a single exact limiter admits, `min(1, allowed ÷ offered)`,
    /// where that formula describes the run: a steady offered rate, every request new (clients
    /// give up after a 429) and only admitted requests consuming quota. `None` otherwise.
    ///
    /// ```
    /// use ratelimit_playground::sim::Scenario;
    /// let sc = |q| Scenario::from_query(q).unwrap();
    /// assert_eq!(sc("refill=5&rate=20").predicted_pass_ratio(), Some(0.25));
    /// assert_eq!(sc("refill=5&rate=4").predicted_pass_ratio(), Some(1.0));
    /// assert_eq!(sc("refill=5&rate=20&retry=exact").predicted_pass_ratio(), None);
    /// assert_eq!(sc("traffic=seam").predicted_pass_ratio(), None);
    /// ```
    pub fn predicted_pass_ratio(&self) -> Option<f64> {
        let offered = self.offered_rate()?;
        if self.retry != RetryPolicy::GiveUp || self.count_rejected {
            return None;
        }
        Some(if offered <= 0.0 { 1.0 } else { (self.allowed_rate() / offered).min(1.0) })
    }

    /// When a token bucket (or GCRA) meeting constant arrivals above its refill rate first
    /// rejects: `C / (λ − r)` seconds. `None` for other algorithms and traffic, or if it never does.
    pub fn predicted_first_rejection(&self) -> Option<f64> {
        self.run_short_after(self.capacity as f64)
    }

    /// When the bucket runs short of a whole token under constant overload: (C − 1) ÷ (λ − r)
    /// seconds. A request needs a whole token, so the first 429 is the first arrival after this,
    /// before the continuous model's empty bucket ([`Self::predicted_first_rejection`]).
    ///
    /// ```
    /// use ratelimit_playground::sim::Scenario;
    /// let sc = Scenario::from_query("capacity=10&refill=5&rate=8").unwrap();
    /// assert_eq!(sc.short_of_a_token(), Some(3.0));
    /// assert_eq!(Scenario::from_query("rate=4").unwrap().short_of_a_token(), None);
    /// ```
    pub fn short_of_a_token(&self) -> Option<f64> {
        self.run_short_after(self.capacity.saturating_sub(1) as f64)
    }

    /// `tokens ÷ (λ − r)` for a textbook bucket under constant arrivals above its refill rate.
    fn run_short_after(&self, tokens: f64) -> Option<f64> {
        let bucket = matches!(self.algo, Algorithm::TokenBucket | Algorithm::Gcra);
        // (A product's rounding and clock make the formula approximate: it is for the textbook.)
        let (lambda, r) = (self.rate.as_per_sec(), self.refill.as_per_sec());
        (bucket && self.traffic == TrafficShape::Constant && lambda > r).then(|| tokens / (lambda - r))
    }
}

impl Policy {
    /// The policy of the scenario's algorithm. (Defined here, beside [`Scenario`], so that the
    /// products, which take a [`Policy`], need not know the scenario.)
    pub fn of(sc: &Scenario) -> Self {
        let (limit, window_ns) = (sc.effective_limit(), sc.effective_window().as_nanos());
        let shape = Shape::of(sc.algo.textbook(&sc.product));
        match shape {
            Shape::Bucket => Policy {
                shape,
                burst: sc.capacity,
                rate_milli: sc.refill.milli(),
                limit: sc.capacity,
                window_ns: sc.effective_window().as_nanos(),
            },
            _ => Policy {
                shape,
                burst: limit,
                // limit per window, in milli-requests per second, rounded to the nearest.
                rate_milli: ((u128::from(limit) * 1_000_000_000_000 + u128::from(window_ns) / 2)
                    / u128::from(window_ns)) as u64,
                limit,
                window_ns,
            },
        }
    }
}
