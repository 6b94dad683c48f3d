//! Sharded counters (`shards=K`): how a limiter is spread over a Redis Cluster. One limiter key
//! lives on one shard, so however many shards the cluster has, every request of a global limit
//! goes to the same one (a hot key). Splitting it into K keys on different hash slots, each
//! allowed a K-th of the limit, spreads the load; but a request counts only on its own key, so
//! when the keys' shares of the traffic are uneven one key refuses while another still has room,
//! and the K keys together admit less than one exact limiter.
//!
//! Each request goes to key `mix(id) mod K` — a hash of the request, as a client picking a key at
//! random does — so the shares are as uneven as chance makes them. Key i of a limit L is allowed
//! `L ÷ K`, the first `L mod K` keys one more (the keys together allow exactly L); a bucket's
//! capacity and refill are split the same way (the refill to the milli-token per second).
//!
//! Kept beside the store by the engine's shared-store code ([`crate::sim::engine`]), for the
//! atomic script and GET-then-SET on the textbook algorithms; the CLI refuses other
//! combinations ([`check`]).

use super::limiter::AnyLimiter;
use super::query::ParamError;
use super::rate::Rate;
use super::scenario::{Scenario, StoreMode};
use super::store::Store;
use super::store_keys::SHARDS;
use super::Algorithm;

/// The keys of a sharded limiter beyond the first (which is the engine's own store), and what
/// each key served.
#[derive(Clone, Debug)]
pub struct Shards {
    /// Keys 1 to K − 1 (key 0 is the simulation's store).
    pub stores: Vec<Store>,
    /// Store operations (reads, writes, scripts) each key served.
    pub ops: Vec<u64>,
    /// Requests each key's decision admitted.
    pub admitted: Vec<u64>,
    /// What each key allows: its share of the limit (of the capacity, for a bucket).
    pub limits: Vec<u64>,
}

/// `total ÷ k`, plus one for the first `total mod k` keys: key `i`'s share of `total`.
fn share(total: u64, i: u64, k: u64) -> u64 {
    total / k + u64::from(i < total % k)
}

/// How many keys `sc` spreads its limiter over (1: one key, not sharded).
pub fn count(sc: &Scenario) -> usize {
    sc.product.get(&SHARDS).max(1) as usize
}

/// The key request `id` counts on, of `k`: a hash of the id (splitmix64's finalizer), as random
/// as a client's pick and the same every run.
///
/// ```
/// use ratelimit_playground::sim::shards::key_of;
/// assert!((0..1000).all(|id| key_of(id, 3) < 3));
/// let third = (0..3000).filter(|&id| key_of(id, 3) == 0).count();
/// assert!((900..1100).contains(&third), "{third}");
/// ```
pub fn key_of(id: u64, k: usize) -> usize {
    let mut z = id.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ((z ^ (z >> 31)) % k as u64) as usize
}

/// How many keys `sc`'s limiter really has: [`count`] where sharding [`applies`], else 1.
pub fn keys(sc: &Scenario) -> usize {
    if applies(sc) {
        count(sc)
    } else {
        1
    }
}

/// Whether `sc`'s limiter is sharded: more than one key, a textbook meter in a store that runs
/// one (the atomic script, GET then SET), no replica. Otherwise the key is ignored (the CLI
/// refuses it: [`check`]).
pub fn applies(sc: &Scenario) -> bool {
    count(sc) > 1
        && matches!(sc.store, StoreMode::Atomic | StoreMode::Race)
        && sc.algo.in_first_modules()
        && sc.algo != Algorithm::LeakyBucket
        && crate::sim::store_keys::failover(&sc.product).is_none()
}

/// Refuses a `shards` that [`applies`] would ignore, or more keys than the limit has requests
/// (each key must allow one), naming what to change.
pub fn check(sc: &Scenario) -> Result<(), ParamError> {
    let k = count(sc) as u64;
    let most = match sc.algo {
        Algorithm::TokenBucket | Algorithm::Gcra => sc.capacity.min(sc.refill.milli()),
        _ => sc.effective_limit(),
    };
    if applies(sc) && k > most {
        return Err(ParamError {
            param: "shards".into(),
            message: format!(
                "{k} keys cannot split a limit of {most}: each key must allow at least one; allowed: 1 to {most}"
            ),
        });
    }
    if k == 1 || applies(sc) {
        return Ok(());
    }
    Err(ParamError {
        param: "shards".into(),
        message: "splits one limiter over keys of a shared store: it needs store=atomic or store=race, a textbook \
                  meter (token_bucket, gcra, fixed_window, sliding_window, sliding_log) and no failover"
            .into(),
    })
}

/// Key `i` of `k`'s policy: `sc` with its share of the limit, capacity and refill.
pub fn scenario(sc: &Scenario, i: usize, k: usize) -> Scenario {
    let (i, k) = (i as u64, k as u64);
    Scenario {
        capacity: share(sc.capacity, i, k).max(1),
        refill: Rate::from_milli(share(sc.refill.milli(), i, k).max(1)),
        limit: Some(share(sc.effective_limit(), i, k).max(1)),
        window: Some(sc.effective_window()),
        ..sc.clone()
    }
}

/// Key `i` of `k`'s limiter ([`scenario`]'s).
pub fn limiter(sc: &Scenario, i: usize, k: usize) -> AnyLimiter {
    scenario(sc, i, k).limiter()
}

impl Shards {
    /// The keys of `sc`'s sharded limiter beyond the first, and the first key's limiter; `None`
    /// if it is not sharded.
    pub fn of(sc: &Scenario) -> Option<(Shards, AnyLimiter)> {
        let k = count(sc);
        applies(sc).then(|| {
            let stores = (1..k).map(|i| Store::new(limiter(sc, i, k))).collect();
            let limits = (0..k as u64)
                .map(|i| match sc.algo {
                    Algorithm::TokenBucket | Algorithm::Gcra => share(sc.capacity, i, k as u64),
                    _ => share(sc.effective_limit(), i, k as u64),
                })
                .collect();
            (Shards { stores, ops: vec![0; k], admitted: vec![0; k], limits }, limiter(sc, 0, k))
        })
    }
}
