//! [`Placement`]: where a run's limiter keys live — one key on the server (or, when the server is
//! a Redis Cluster node, on the primary its slot belongs to: a `MOVED` is followed), `shards=K`
//! keys on one server, or with `--cluster` K keys spread over the cluster's primaries
//! ([`super::cluster::place`]) — with each key's policy (its share of the limit), and the checks
//! before and cleanup after a run on every server.

use super::cluster::{self, SlotMap};
use super::conn::Conn;
use super::layout::Layout;
use super::report::{KeyRow, KeysRun, Load, ServerRow};
use super::resp::Reply;
use super::round_trip::SETUP_TIMEOUT;
use super::url::RedisUrl;
use crate::sim::{shards, Report, Scenario, StoreMode};

/// The servers a run's nodes connect to and the keys on them.
pub struct Placement {
    /// The servers: the one given, or the cluster's primaries.
    pub servers: Vec<RedisUrl>,
    /// Each key's layout and the server (index into `servers`) it lives on.
    pub keys: Vec<(Layout, usize)>,
}

/// Key `i` of `k`'s policy: the scenario's, or its share of it.
fn policy(sc: &Scenario, i: usize, k: usize) -> Scenario {
    if k == 1 {
        sc.clone()
    } else {
        shards::scenario(sc, i, k)
    }
}

impl Placement {
    /// Places the keys of run `run`: with `cluster`, over the primaries of the cluster `url`
    /// belongs to; otherwise on `url` (on the primary serving the slot, if `url` is a cluster
    /// node that redirects it).
    pub fn new(run: &str, sc: &Scenario, ttl_ms: u64, url: &RedisUrl, cluster: bool) -> Result<Placement, String> {
        let k = shards::keys(sc);
        if cluster {
            let map = SlotMap::read(url, &mut Conn::open(url, None, SETUP_TIMEOUT)?)?;
            let keys = cluster::place(run, k, &map)
                .into_iter()
                .enumerate()
                .map(|(i, (tag, server))| (Layout::new(&tag, &policy(sc, i, k), ttl_ms), server))
                .collect();
            return Ok(Placement { servers: map.primaries, keys });
        }
        let keys: Vec<(Layout, usize)> = (0..k)
            .map(|i| {
                let tag = if k == 1 { run.to_string() } else { format!("{run}-s{i}") };
                (Layout::new(&tag, &policy(sc, i, k), ttl_ms), 0)
            })
            .collect();
        let server = moved_to(url, keys[0].0.key())?;
        Ok(Placement { servers: vec![server], keys })
    }

    /// Every key's name on server `s`.
    pub fn names_on(&self, s: usize) -> Vec<String> {
        self.keys.iter().filter(|(_, on)| *on == s).map(|(l, _)| l.key().to_string()).collect()
    }

    /// Checks, before anything is written, that no key exists yet and that the run may delete
    /// them (a `DEL` of absent keys deletes nothing); `extra` are more names per key (`ledger`,
    /// `probe`: with the key's hash tag).
    pub fn check_absent(&self, extra: &[&str]) -> Result<(), String> {
        for (s, server) in self.servers.iter().enumerate() {
            let mut conn = Conn::open(server, None, SETUP_TIMEOUT)?;
            for name in self.names_on(s).iter().flat_map(|k| with_extra(k, extra)) {
                match conn.call(&["EXISTS", &name]) {
                    Ok(Reply::Int(0)) => conn.call(&["DEL", &name]).map(drop)?,
                    Ok(_) => return Err(format!("the key {name} already exists on {server}; not touching it")),
                    Err(e) if e.contains("MOVED") => {
                        return Err(format!(
                            "{server} is a Redis Cluster node and the run's keys hash to other nodes' slots: \
                             give the cluster with --cluster instead of --url"
                        ))
                    }
                    Err(e) => return Err(e),
                }
            }
        }
        Ok(())
    }

    /// Deletes every key (and its `extra` names) on every server, checking each is gone; a key
    /// a cluster moved during the run is deleted where it went.
    pub fn cleanup(&self, extra: &[&str], ttl_s: u64) -> Result<(), String> {
        for (s, server) in self.servers.iter().enumerate() {
            for key in self.names_on(s) {
                let names = with_extra(&key, extra);
                let gone = on_owner(server, &[&["DEL".to_string()], names.as_slice()].concat())
                    .and_then(|_| on_owner(server, &[&["EXISTS".to_string()], names.as_slice()].concat()));
                match gone {
                    Ok(Reply::Int(0)) => {}
                    Ok(r) => return Err(format!("the key {key} is still there on {server} after DEL ({r:?})")),
                    Err(e) => {
                        return Err(format!(
                            "could not delete the key {key} on {server} ({e}); it expires by itself within {ttl_s} s"
                        ))
                    }
                }
            }
        }
        Ok(())
    }
}

/// Sends `args` (about one slot's keys) to `url`, following a cluster's `MOVED` or `ASK` once.
fn on_owner(url: &RedisUrl, args: &[String]) -> Result<Reply, String> {
    let mut conn = Conn::open(url, None, SETUP_TIMEOUT)?;
    conn.send(&super::resp::encode(args))?;
    match conn.recv()? {
        Reply::Error(e) => {
            let Some((ask, to)) = super::link::redirect(&e) else {
                return Err(super::conn::refusal(url, &args[0], &e));
            };
            let to = RedisUrl::parse(&format!("redis://{to}")).map_err(|_| format!("Redis at {url} answered {e}"))?;
            let mut conn = Conn::open(&RedisUrl { host: to.host, port: to.port, ..url.clone() }, None, SETUP_TIMEOUT)?;
            if ask {
                conn.call(&["ASKING"])?;
            }
            conn.call(args)
        }
        r => Ok(r),
    }
}

/// `key` and its `extra` names (`rlp:{run}:limiter` → `rlp:{run}:ledger`, …).
pub fn with_extra(key: &str, extra: &[&str]) -> Vec<String> {
    let stem = key.strip_suffix("limiter").unwrap_or(key);
    std::iter::once(key.to_string()).chain(extra.iter().map(|e| format!("{stem}{e}"))).collect()
}

/// The server that serves `key`: `url`, or the cluster node its `MOVED` names.
fn moved_to(url: &RedisUrl, key: &str) -> Result<RedisUrl, String> {
    let mut conn = Conn::open(url, None, SETUP_TIMEOUT)?;
    conn.send(&super::resp::encode(&["EXISTS", key]))?;
    match conn.recv()? {
        Reply::Error(e) if e.starts_with("MOVED") => {
            let to = e.split_whitespace().nth(2).ok_or_else(|| format!("Redis at {url} answered {e}"))?;
            let moved =
                RedisUrl::parse(&format!("redis://{to}")).map_err(|_| format!("Redis at {url} answered {e}"))?;
            Ok(RedisUrl { host: moved.host, port: moved.port, ..url.clone() })
        }
        Reply::Error(e) => Err(super::conn::refusal(url, "EXISTS", &e)),
        _ => Ok(url.clone()),
    }
}

impl Placement {
    /// The keys' and servers' load: the measured `loads` (operations, admitted) of the keys,
    /// each server's operations, and the engine's `simulated` report.
    pub fn load(&self, sc: &Scenario, loads: &[(u64, u64)], server_ops: &[u64], simulated: &Report) -> KeysRun {
        let placement = self;
        let secs = sc.duration.as_nanos() as f64 / 1e9;
        let decided = simulated.requests - simulated.timeouts;
        // One key: the engine's store served every operation: a script per request; a GET per
        // request and a SET per counted one; an edge node's increment per counted request.
        let counted = if sc.count_rejected { decided } else { simulated.admitted };
        let one = || {
            let ops = match sc.store {
                StoreMode::Race => decided + counted,
                StoreMode::Async => counted,
                _ => decided,
            };
            let limit = match sc.algo {
                crate::sim::Algorithm::TokenBucket | crate::sim::Algorithm::Gcra => sc.capacity,
                _ => sc.effective_limit(),
            };
            (limit, ops, simulated.admitted)
        };
        let keys: Vec<KeyRow> = placement
            .keys
            .iter()
            .zip(loads)
            .enumerate()
            .map(|(i, ((layout, on), &(ops, admitted)))| {
                let (limit, s_ops, s_admitted) = match &simulated.shards {
                    Some(s) => (s[i].limit, s[i].ops, s[i].admitted),
                    None => one(),
                };
                KeyRow {
                    key: layout.key().to_string(),
                    server: placement.servers[*on].to_string(),
                    limit,
                    measured: Load::new(ops, admitted, secs),
                    simulated: Load::new(s_ops, s_admitted, secs),
                }
            })
            .collect();
        let servers = placement
            .servers
            .iter()
            .zip(server_ops)
            .map(|(url, &ops)| ServerRow { url: url.to_string(), ops, ops_per_s: Load::per_second(ops, secs) })
            .collect();
        KeysRun { keys, servers }
    }
}
