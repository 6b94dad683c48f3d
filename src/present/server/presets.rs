//! The server view's presets (issue #37): four one-click stories of what a limiter protects,
//! each a whole scenario and what to watch in it. `tests/server_stories.rs` holds each to what
//! it claims, on the engine's numbers.

use crate::present::story::Story;

/// One worker, 10 ms exponential services (100 requests/s at most), Poisson arrivals at 90 a
/// second: 90 % busy.
pub const LATENCY_AT_90: Story = Story {
    id: "server-preset-90",
    label: "Latency explodes at 90 % load",
    query: "capacity=1000000&refill=1000000&traffic=poisson&rate=90&workers=1&service=10",
    watch: "One worker that takes 10 ms a request, 90 requests a second: 90 % busy. A request waits 90 ms on \
            average and takes 100 ms in all (queueing theory's dotted line: 1 ÷ (μ − λ)), and the slowest 1 % near \
            half a second — five times what they take at 50 %. Slide the arrival rate from 50 to 95 and watch the \
            p99 line.",
};

/// Eight workers, 10 ms each (800 requests/s), 600 a second and 600 more from 10 s to 20 s;
/// clients time out at 200 ms and retry with backoff up to 10 times; no limiter.
pub const STORM: Story = Story {
    id: "server-preset-storm",
    label: "A retry storm outlives its spike",
    query: "capacity=1000000&refill=1000000&traffic=poisson&rate=600&duration=60&retry=backoff&retries=10\
            &workers=8&service=10&client_timeout=200&spike=10-20&spike_rate=600",
    watch: "A server that can answer 800 requests a second gets 600, then 1 200 from 10 s to 20 s. Clients give up \
            after 200 ms and retry with backoff; nothing limits them. Once the queue is longer than the timeout, \
            every answer comes too late: the retries keep the server full after the spike has gone, and goodput \
            stays at zero. (“+1 min” under Jump ahead shows the first minute at once.)",
};

/// The storm, with a token bucket below the server's capacity (700/s) and a retry budget of
/// 10 % of requests.
pub const STORM_LIMITED: Story = Story {
    id: "server-preset-recovers",
    label: "The same storm, with a limiter and a retry budget",
    query: "capacity=100&refill=700&traffic=poisson&rate=600&duration=60&retry=backoff&retries=10\
            &workers=8&service=10&client_timeout=200&spike=10-20&spike_rate=600&retry_budget=0.1",
    watch: "The same spike, with a token bucket refilling at 700 a second in front of the 800 a second server, and \
            clients that retry at most one request in ten (a retry budget). The limiter turns the excess into 429s \
            before it reaches the queue, the budget stops the retries from multiplying: goodput holds through the \
            spike and is back to the arrival rate as it ends.",
};

/// Eight workers (800 requests/s), 1 000 a second for good, a waiting room of 1 000; clients
/// time out at 200 ms; the freed worker takes the newest waiting request.
pub const LIFO: Story = Story {
    id: "server-preset-lifo",
    label: "LIFO keeps the fresh requests alive",
    query: "capacity=1000000&refill=1000000&traffic=poisson&rate=1000&duration=30&workers=8&service=10\
            &client_timeout=200&server_queue=1000&discipline=lifo",
    watch: "1 000 requests a second for a server that answers 800: the waiting room stays full. Served oldest \
            first, every request has waited over a second and its client has given up — all work wasted. Served \
            newest first (the preset), most are answered at once and goodput stays near 800. Switch “A free worker \
            takes” to the oldest request to see the difference.",
};

/// Every preset, in the order shown.
pub const PRESETS: [Story; 4] = [LATENCY_AT_90, STORM, STORM_LIMITED, LIFO];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Scenario;

    #[test]
    fn every_preset_is_a_valid_query_with_a_server() {
        for p in PRESETS {
            let sc = Scenario::from_query(p.query).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            assert!(crate::sim::server::ServerConfig::of(&sc.product).is_some(), "{}", p.id);
        }
    }

    /// The limiter set far above every arrival rate here: it admits everything, as if there
    /// were none.
    const NO_LIMITER: &str = "capacity=1000000&refill=1000000";

    #[test]
    fn the_presets_without_a_limiter_say_so_in_their_query() {
        for p in [LATENCY_AT_90, STORM, LIFO] {
            assert!(p.query.starts_with(NO_LIMITER), "{}", p.id);
        }
    }
}
