//! The query keys of the server behind the limiter ([`super`]), of the clients' retry budget
//! and breaker ([`super::gate`]) and of a spike of traffic ([`super::spike`]). Declared as
//! [`ProductKey`]s, so they live where the products' own keys do: every module that runs the
//! engine natively or installs the product keys reads them, and the first modules (which run
//! one limiter with nothing behind it) carry none of their table and hand a link that sets one
//! over to the whole page.

use crate::sim::products::key::{KeyKind, ProductKey};
use crate::sim::products::options::ProductOptions;

/// `workers` (0–10 000; 0, the default: no server modelled): how many requests the server
/// works on at once.
pub const WORKERS: ProductKey =
    ProductKey { key: "workers", kind: KeyKind::Num { unit: "workers", digits: 0, min: 0, max: 10_000 }, default: 0 };

/// `service`, ms to the µs (0.001–600 000; 10 ms by default): the mean service time.
pub const SERVICE: ProductKey = ProductKey {
    key: "service",
    kind: KeyKind::Num { unit: "ms", digits: 3, min: 1, max: 600_000_000 },
    default: 10_000,
};

/// `service_dist=const|exp|lognormal` (exp): how service times spread around their mean.
pub const SERVICE_DIST: ProductKey =
    ProductKey { key: "service_dist", kind: KeyKind::Names(&[("const", 0), ("exp", 1), ("lognormal", 2)]), default: 1 };

/// `service_cv` (0.01–10; 1 by default): the lognormal's coefficient of variation, its standard
/// deviation ÷ its mean.
pub const SERVICE_CV: ProductKey =
    ProductKey { key: "service_cv", kind: KeyKind::Num { unit: "", digits: 2, min: 1, max: 1_000 }, default: 100 };

/// `server_queue` (0–1 000 000; 1 000 by default): requests that may wait for a worker; one
/// more is answered 503 at once (0: none wait).
pub const SERVER_QUEUE: ProductKey = ProductKey {
    key: "server_queue",
    kind: KeyKind::Num { unit: "requests", digits: 0, min: 0, max: 1_000_000 },
    default: 1_000,
};

/// `discipline=fifo|lifo` (fifo): which waiting request a freed worker takes, the oldest or the
/// newest.
pub const DISCIPLINE: ProductKey =
    ProductKey { key: "discipline", kind: KeyKind::Names(&[("fifo", 0), ("lifo", 1)]), default: 0 };

/// `client_timeout`, ms to the µs (0–3 600 000; 0, the default: clients wait for ever): when a
/// client gives up on its request. The server does not know: a request it finishes later is
/// wasted work.
pub const CLIENT_TIMEOUT: ProductKey = ProductKey {
    key: "client_timeout",
    kind: KeyKind::Num { unit: "ms", digits: 3, min: 0, max: 3_600_000_000 },
    default: 0,
};

/// `retry_budget` (0.01–1; 0, the default: none): the clients' retry budget, Brooker's token
/// bucket of retries. Each new request adds this many tokens (at most [`super::gate::BUDGET_CAP`]
/// are kept; it starts full), each retry spends one, and a client that finds less than one
/// token gives up instead of retrying: over a run, at most this share of requests are retried.
pub const RETRY_BUDGET: ProductKey =
    ProductKey { key: "retry_budget", kind: KeyKind::Num { unit: "", digits: 2, min: 0, max: 100 }, default: 0 };

/// `retry_breaker` (1–1 000 failures; 0, the default: none): the clients' retry breaker. After
/// this many failures in a row (a 429, a 503 or a timeout) it opens: no retries for
/// `breaker_pause`; then retries pass again, and the next failure opens it again, the next
/// success closes it.
pub const RETRY_BREAKER: ProductKey = ProductKey {
    key: "retry_breaker",
    kind: KeyKind::Num { unit: "failures", digits: 0, min: 0, max: 1_000 },
    default: 0,
};

/// `breaker_pause`, ms to the µs (0.001–600 000; 5 000 by default): how long an open breaker
/// stops retries.
pub const BREAKER_PAUSE: ProductKey = ProductKey {
    key: "breaker_pause",
    kind: KeyKind::Num { unit: "ms", digits: 3, min: 1, max: 600_000_000 },
    default: 5_000_000,
};

/// `spike=START-END` (seconds to the ms; none by default): a spike of extra requests on top of
/// the traffic, whatever its shape, from START until END.
pub const SPIKE: ProductKey = ProductKey { key: "spike", kind: KeyKind::Span, default: 0 };

/// `spike_rate` (requests/s to the thousandth, 0.001–100 000; 100 by default): the spike's
/// extra requests per second, arriving as a Poisson process.
pub const SPIKE_RATE: ProductKey = ProductKey {
    key: "spike_rate",
    kind: KeyKind::Num { unit: "requests/s", digits: 3, min: 1, max: 100_000_000 },
    default: 100_000,
};

/// Whether the options put a server behind the limiter (`workers` above 0): a comparison, not
/// [`super::ServerConfig::of`], so the modules that only ask (a frame's, the Embed panel's)
/// carry none of the server's configuration.
pub fn has_server(o: &ProductOptions) -> bool {
    o.get(&WORKERS) > 0
}

/// How many keys the server has.
pub const KEY_COUNT: usize = 12;

/// Every key of the server's, in the order the query format prints them, `workers` first: the
/// last [`KEY_COUNT`] of [`crate::sim::products::PRODUCT_KEYS`].
pub const KEYS: [ProductKey; KEY_COUNT] = [
    WORKERS,
    SERVICE,
    SERVICE_DIST,
    SERVICE_CV,
    SERVER_QUEUE,
    DISCIPLINE,
    CLIENT_TIMEOUT,
    RETRY_BUDGET,
    RETRY_BREAKER,
    BREAKER_PAUSE,
    SPIKE,
    SPIKE_RATE,
];
