//! The cluster's choices with their labels — load-balancer policy, store mode, fail mode — and
//! what each store mode does, in words, for the hint under its `<select>`.

use crate::present::options::Labelled;
use crate::sim::{Balancer, FailMode, StoreMode};

/// Load-balancer policies.
pub const BALANCERS: [Labelled<Balancer>; 2] = [
    Labelled { value: Balancer::RoundRobin, key: "rr", label: "Round robin" },
    Labelled { value: Balancer::Random, key: "random", label: "Random" },
];

/// Where the limiter state lives.
pub const STORES: [Labelled<StoreMode>; 5] = [
    Labelled { value: StoreMode::Local, key: "local", label: "Per node: nothing shared" },
    Labelled { value: StoreMode::Race, key: "race", label: "Shared: GET, then SET" },
    Labelled { value: StoreMode::Atomic, key: "atomic", label: "Shared: one atomic script" },
    Labelled { value: StoreMode::Async, key: "async", label: "Edge: decide now, sync later" },
    Labelled { value: StoreMode::ReplicaRead, key: "replica_read", label: "Shared: read a replica" },
];

/// [`STORES`] and Kong's own (`policy: redis`), for `algo=kong`: the one algorithm it runs.
pub const KONG_STORES: [Labelled<StoreMode>; 6] = [
    STORES[0],
    STORES[1],
    STORES[2],
    STORES[3],
    STORES[4],
    Labelled { value: StoreMode::Sync, key: "sync", label: "Kong's policy: redis (sync_rate)" },
];

/// What a node does when the store does not answer in time.
pub const FAILS: [Labelled<FailMode>; 2] = [
    Labelled { value: FailMode::Open, key: "open", label: "Fail open (admit)" },
    Labelled { value: FailMode::Closed, key: "closed", label: "Fail closed (reject)" },
];

/// The short name of a store mode, for tables and captions.
pub fn short_name(mode: StoreMode) -> &'static str {
    match mode {
        StoreMode::Local => "Per node",
        StoreMode::Race => "GET, then SET",
        StoreMode::Atomic => "Atomic script",
        StoreMode::Async => "Edge (async)",
        StoreMode::Sync => "Kong, redis",
        StoreMode::ReplicaRead => "Replica reads",
    }
}

/// What `mode` does, in a sentence or two.
pub fn describe(mode: StoreMode) -> &'static str {
    match mode {
        StoreMode::Local => "Each node counts on its own: under enough traffic, N nodes admit N times the limit.",
        StoreMode::Race => {
            "Each node GETs the count, decides, then SETs it back. Requests that overlap the round trip read the same value, and the later SET overwrites the earlier one: a lost update, an extra admission."
        }
        StoreMode::Atomic => {
            "Each node sends one Lua script that reads, decides and writes inside the store, one at a time: never more than one exact limiter admits, for one round trip per request."
        }
        StoreMode::Async => {
            "Each node decides at once from its own view and sends the increment without waiting; it adopts the store's count from the reply. Fast, and it overshoots by the traffic of one sync delay."
        }
        StoreMode::Sync => {
            "Kong's policy: redis, as read from its source (Kong is not run here). With sync_rate −1 every request INCRs Redis and waits. With sync_rate, a node reads Redis once, decides alone on its own count, and sends its count every sync_rate seconds, then forgets it: each node may admit up to the limit between syncs, and what it admits while a sync is on the wire is lost."
        }
        StoreMode::ReplicaRead => {
            "Each node reads the count from a replica, which Redis keeps up to date asynchronously (replica_lag behind), decides, and sends the increment to the primary without waiting. The replica has not seen the last round trip's and the lag's increments: stale reads, and extra admissions that grow with the lag."
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_the_query_formats_values() {
        for s in KONG_STORES {
            let sc = crate::sim::Scenario::from_query(&format!("algo=kong&store={}", s.key)).unwrap();
            assert_eq!(sc.store, s.value);
        }
        for b in BALANCERS {
            assert_eq!(crate::sim::Scenario::from_query(&format!("lb={}", b.key)).unwrap().lb, b.value);
        }
        for f in FAILS {
            assert_eq!(crate::sim::Scenario::from_query(&format!("fail={}", f.key)).unwrap().fail, f.value);
        }
    }
}
