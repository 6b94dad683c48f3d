//! The golden scenarios and their fingerprint (FNV-1a of the JSON report), shared by the native
//! and the WebAssembly determinism tests.

use ratelimit_playground::sim::{report, Scenario};

/// One scenario per feature whose output could differ between platforms.
pub const GOLDEN: &[&str] = &[
    "capacity=10&refill=5&rate=20&duration=30",
    "algo=sliding_window&traffic=poisson&rate=50&seed=7&duration=30",
    "algo=sliding_log&traffic=bursts&rate=200&duration=30",
    "algo=fixed_window&traffic=seam&limit=50&window=10&duration=30",
    "algo=gcra&traffic=clients&clients=50&rate=40&retry=jitter&seed=3&duration=30",
    "traffic=poisson&rate=500&nodes=8&store=race&lb=random&rtt=3&retry=backoff&seed=11&duration=20",
    "traffic=poisson&rate=500&nodes=8&store=async&rtt=30&seed=12&duration=20",
    "rate=300&nodes=4&store=atomic&rtt=2&outage=5-8&fail=closed&retry=exact&duration=20",
    // The product models: Envoy's and the Lua script's floating point, nginx's delays, Upstash's
    // milliseconds; in wasm they are built through `sim::products::models` once installed.
    "algo=envoy&traffic=poisson&rate=30&seed=5&duration=30",
    "algo=redis_lua&lua=sliding_window&traffic=poisson&rate=40&seed=6&duration=30",
    "algo=nginx&nodelay=0&traffic=bursts&rate=60&duration=30",
    "algo=upstash_sliding&traffic=clients&clients=20&rate=25&seed=9&duration=30",
    "algo=governor&rate=300&nodes=4&store=race&rtt=2&seed=4&duration=10",
    // Kong's policy: redis, its nodes' counts synced by timers, with an outage.
    "algo=kong&limit=50&window=10&traffic=poisson&rate=80&nodes=4&store=sync&sync_rate=0.5&rtt=20&outage=12-14&seed=8&duration=30",
    // Python limits' sliding-window counter: epoch-aligned 7 s windows on a float clock.
    "algo=python_limits&limits_strategy=sliding_window_counter&limit=30&window=7&traffic=poisson&rate=9&seed=13&duration=30",
    // Rack::Attack: 11 s periods aligned to the Unix epoch, not to simulated 0, refusals counted.
    "algo=rack_attack&limit=20&window=11&traffic=bursts&rate=60&burst_on=1&burst_off=3&seed=5&duration=30",
    // Laravel: windows from the first admitted request lasting decay + 1 whole seconds.
    "algo=laravel&limit=12&window=4&traffic=poisson&rate=6&seed=21&duration=30",
    // rate-limiter-flexible: a block from the first refusal, and execEvenly's holds.
    "algo=rlflex&limit=10&window=2&block=5&exec_evenly=1&traffic=bursts&rate=40&burst_on=1&burst_off=3&seed=3&duration=30",
    // django-ratelimit: 11 s windows shifted by crc32("127.0.0.1") % 11 = 8 s.
    "algo=django_ratelimit&limit=20&window=11&traffic=poisson&rate=4&seed=17&duration=30",
    // NestJS: a sliding log of 3 s, a 1.5 s block that clears the count.
    "algo=nestjs&limit=6&window=3&block=1.5&traffic=poisson&rate=5&seed=19&duration=30",
    // Python limits and rate-limiter-flexible counting in Redis: windows from the first hit on
    // Redis's clock, floored to whole seconds, a block under 1 s without an expiry.
    "algo=python_limits&storage=redis&limits_strategy=sliding_window_counter&limit=30&window=7&traffic=poisson&rate=9&seed=13&duration=30",
    "algo=rlflex&storage=redis&limit=10&window=2.5&block=0.5&traffic=bursts&rate=40&burst_on=1&burst_off=3&seed=3&duration=30",
    // The server behind the limiter: exponential and lognormal service draws (the engine's own
    // ln and exp), newest-first, a bounded room, clients that give up.
    "capacity=50&refill=40&traffic=poisson&rate=60&seed=9&duration=30&workers=3&service=70&server_queue=40&client_timeout=300",
    "capacity=100&refill=60&traffic=bursts&rate=90&seed=4&duration=30&workers=1&service=15&service_dist=lognormal&service_cv=2.5&discipline=lifo&client_timeout=150",
    // A spike on the traffic and the clients' retry budget (a server), and a breaker (none).
    "capacity=100&refill=700&traffic=poisson&rate=600&seed=2&duration=20&retry=backoff&retries=10&workers=8&service=10&client_timeout=200&spike=5-10&spike_rate=600&retry_budget=0.1",
    "capacity=10&refill=10&rate=100&seed=6&duration=30&retry=jitter&retries=10&retry_breaker=5&breaker_pause=2000&spike=3-4.5&spike_rate=200",
    // The leaky bucket's queue, holding what it admits, in front of a server, with retries.
    "algo=leaky_bucket&capacity=20&refill=7.5&traffic=poisson&rate=12&seed=9&duration=60&retry=jitter&workers=1&service=100&client_timeout=2000",
    "algo=sliding_window&limit=60&window=5&traffic=poisson&rate=30&nodes=4&store=race&rtt=3&failover=7.5&replica_lag=800&seed=14&duration=20",
    "traffic=poisson&rate=80&nodes=6&lb=random&store=replica_read&replica_lag=120&rtt=2&failover=12&retry=exact&seed=15&duration=20",
    "algo=upstash_sliding&limit=50&window=5&traffic=poisson&rate=40&nodes=5&store=async&rtt=4&skew=250&seed=16&duration=20",
    "algo=sliding_window&limit=60&window=5&traffic=poisson&rate=14&nodes=4&lb=random&store=race&rtt=3&shards=5&retry=exact&seed=17&duration=30",
];

/// `query<TAB>fnv1a-hex` per golden scenario, one line each.
pub fn fingerprints() -> String {
    GOLDEN
        .iter()
        .map(|q| {
            let json = report::run(&Scenario::from_query(q).expect("golden query parses")).expect("runs").to_json();
            format!("{q}\t{:016x}\n", fnv1a(json.as_bytes()))
        })
        .collect()
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
