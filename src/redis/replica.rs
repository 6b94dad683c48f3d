//! [`ReplicaLink`]: the run's real replica (`--replica URL`), for `failover=…` and
//! `store=replica_read`. Before the run it is fed through a [`DelayProxy`] so that it lags the
//! scenario's `replica_lag` behind its primary (measured with probe writes, and calibrated as the
//! nodes' round trip is); at the failover it is promoted (`REPLICAOF NO ONE`, as Sentinel does);
//! after the run it replicates its primary again, directly, as it did before.
//!
//! What the failover lost is counted with a ledger: before the failover every write a node makes
//! at the primary is followed, on the same connection, by `RPUSH <ledger> <request id>`. The
//! primary applies and replicates commands in order, so the promoted replica holds a prefix of
//! the primary's ledger: the ids after it are the writes it never got.

use super::conn::{resolve, Conn};
use super::proxy::DelayProxy;
use super::report::Percentiles;
use super::resp::Reply;
use super::url::RedisUrl;
use crate::sim::metrics::Latencies;
use crate::sim::Nanos;
use std::time::{Duration, Instant};

/// How long the replica may take to sync through the proxy, beyond 20 times its lag.
const SYNC_TIMEOUT: Duration = Duration::from_secs(10);
/// How long one call may take.
const CALL: Duration = Duration::from_secs(5);

/// The run's replica and how it is attached.
pub struct ReplicaLink {
    /// The replica.
    pub url: RedisUrl,
    /// Where it replicated from before the run (`master_host`, `master_port`).
    origin: (String, u16),
    /// Feeds it the primary's replication stream `replica_lag` late (none for a lag of 0).
    proxy: Option<DelayProxy>,
    /// Promoted: it is a primary of its own until [`ReplicaLink::restore`].
    pub promoted: bool,
}

/// Whether `a` and `b` name the same server: an address in common, or the same port on loopback
/// (`localhost` may resolve to `::1` while a replica names `127.0.0.1`).
fn same_server(a: &RedisUrl, b: &RedisUrl) -> bool {
    use std::net::ToSocketAddrs;
    let addrs = |u: &RedisUrl| (u.host.as_str(), u.port).to_socket_addrs().map(Vec::from_iter).unwrap_or_default();
    let (x, y) = (addrs(a), addrs(b));
    x.iter().any(|p| {
        y.contains(p) || (p.ip().is_loopback() && y.iter().any(|q| q.ip().is_loopback() && q.port() == p.port()))
    })
}

/// `INFO replication`'s `field:value` lines.
fn replication(conn: &mut Conn) -> Result<Vec<(String, String)>, String> {
    let info = conn.call(&["INFO", "replication"])?.text().unwrap_or_default();
    Ok(info.lines().filter_map(|l| l.trim().split_once(':')).map(|(k, v)| (k.to_string(), v.to_string())).collect())
}

fn info_field<'a>(info: &'a [(String, String)], key: &str) -> Option<&'a str> {
    info.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

impl ReplicaLink {
    /// Checks that `replica` replicates `primary`, puts the delay proxy between them (`lag`, wall
    /// time) and waits until the replica is in sync through it.
    pub fn attach(primary: &RedisUrl, replica: &RedisUrl, lag: Duration) -> Result<ReplicaLink, String> {
        let mut conn = Conn::open(replica, None, CALL)?;
        let info = replication(&mut conn)?;
        let not_replica = || {
            format!(
                "--replica: Redis at {replica} is not a replica of {primary} (INFO replication: role {}, master {}:{}); \
                 start it with --replicaof {} {}",
                info_field(&info, "role").unwrap_or("?"),
                info_field(&info, "master_host").unwrap_or("-"),
                info_field(&info, "master_port").unwrap_or("-"),
                primary.host,
                primary.port
            )
        };
        if info_field(&info, "role") != Some("slave") {
            return Err(not_replica());
        }
        let host = info_field(&info, "master_host").unwrap_or_default().to_string();
        let port: u16 = info_field(&info, "master_port").and_then(|p| p.parse().ok()).unwrap_or(0);
        let theirs = RedisUrl { host: host.clone(), port, ..primary.clone() };
        if !same_server(&theirs, primary) {
            return Err(not_replica());
        }
        let mut link = ReplicaLink { url: replica.clone(), origin: (host, port), proxy: None, promoted: false };
        if !lag.is_zero() {
            let proxy = DelayProxy::start(resolve(primary, CALL)?, lag)
                .map_err(|e| format!("cannot start the replica's delay proxy: {e}"))?;
            let at = proxy.addr();
            link.proxy = Some(proxy);
            conn.call(&["REPLICAOF", &at.ip().to_string(), &at.port().to_string()])?;
        }
        if let Err(e) = link.wait_in_sync(&mut conn, primary, SYNC_TIMEOUT + 20 * lag) {
            // Leave it as it was: replicating its primary directly.
            let (host, port) = (link.origin.0.clone(), link.origin.1.to_string());
            let back = conn.call(&["REPLICAOF", &host, &port]).err().map_or(String::new(), |b| format!("; {b}"));
            return Err(format!("{e}{back}"));
        }
        Ok(link)
    }

    /// Waits until the replica's link is up and it has the primary's whole stream.
    fn wait_in_sync(&self, replica: &mut Conn, primary: &RedisUrl, limit: Duration) -> Result<(), String> {
        let offset = |i: &[(String, String)], k| info_field(i, k).and_then(|v| v.parse::<i64>().ok());
        // Where the primary's stream is now: a primary that keeps taking writes is always a
        // little ahead, so the replica need only reach this.
        let target = offset(&replication(&mut Conn::open(primary, None, CALL)?)?, "master_repl_offset");
        let start = Instant::now();
        loop {
            let ours = replication(replica)?;
            let up = info_field(&ours, "master_link_status") == Some("up");
            if up && offset(&ours, "slave_repl_offset") >= target {
                return Ok(());
            }
            if start.elapsed() > limit {
                return Err(format!(
                    "the replica at {} did not sync with its primary within {:.0} s (master_link_status {})",
                    self.url,
                    limit.as_secs_f64(),
                    info_field(&ours, "master_link_status").unwrap_or("?")
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// How long a write at the primary takes to be readable at the replica (wall time): `SET`
    /// `probe` there, then `GET` it here until it shows, five times. With `target`, the proxy is
    /// first calibrated so that the median is the target (as the nodes' round trip is: the
    /// loopback and both servers add to the proxy's delay).
    pub fn measure_lag(&self, primary: &RedisUrl, probe: &str, target: Duration) -> Result<Percentiles, String> {
        let mut lag = self.probe(primary, probe)?;
        if let Some(proxy) = &self.proxy {
            let want = target.as_secs_f64() * 1e3;
            for _ in 0..3 {
                let excess = lag.p50 - want;
                if excess.abs() < 0.05_f64.max(want * 1e-3) {
                    break;
                }
                proxy.set_delay(Duration::from_secs_f64((proxy.delay().as_secs_f64() - excess / 1e3).max(0.0)));
                lag = self.probe(primary, probe)?;
            }
        }
        Ok(lag)
    }

    fn probe(&self, primary: &RedisUrl, probe: &str) -> Result<Percentiles, String> {
        let (mut p, mut r) = (Conn::open(primary, None, CALL)?, Conn::open(&self.url, None, CALL)?);
        let mut l = Latencies::default();
        for i in 0..5 {
            let value = format!("p{i}");
            p.call(&["SET", probe, &value, "PX", "60000"])?;
            let sent = Instant::now();
            while r.call(&["GET", probe])?.text().as_deref() != Some(&value) {
                if sent.elapsed() > SYNC_TIMEOUT {
                    return Err(format!("a write at the primary did not reach the replica at {} in 10 s", self.url));
                }
            }
            l.record(Nanos(sent.elapsed().as_nanos() as u64));
        }
        p.call(&["DEL", probe])?;
        Ok(Percentiles::of(&l))
    }

    /// The failover: the replica stops replicating and takes writes (`REPLICAOF NO ONE`).
    pub fn promote(&mut self) -> Result<(), String> {
        Conn::open(&self.url, None, CALL)?.call(&["REPLICAOF", "NO", "ONE"])?;
        self.promoted = true;
        Ok(())
    }

    /// The ids the failover lost: the ledger's entries at `primary` after the prefix the promoted
    /// replica holds (which is checked to be one).
    pub fn lost(&self, primary: &RedisUrl, ledger: &str) -> Result<Vec<u64>, String> {
        let list = |url: &RedisUrl| -> Result<Vec<String>, String> {
            let r = Conn::open(url, None, CALL)?.call(&["LRANGE", ledger, "0", "-1"])?;
            Ok(r.items().iter().filter_map(Reply::text).collect())
        };
        let (theirs, ours) = (list(primary)?, list(&self.url)?);
        if !theirs.starts_with(&ours) {
            return Err(format!(
                "the promoted replica's ledger ({} writes) is not a prefix of the primary's ({}): did something else \
                 write to {ledger}?",
                ours.len(),
                theirs.len()
            ));
        }
        Ok(theirs[ours.len()..].iter().filter_map(|id| id.parse().ok()).collect())
    }

    /// Puts the replica back under the primary it had, directly, and waits until it is in sync
    /// (so that what the run deleted at the primary is gone from it too).
    pub fn restore(mut self, primary: &RedisUrl) -> Result<(), String> {
        let mut conn = Conn::open(&self.url, None, CALL)?;
        conn.call(&["REPLICAOF", &self.origin.0, &self.origin.1.to_string()])?;
        self.proxy = None;
        self.wait_in_sync(&mut conn, primary, SYNC_TIMEOUT)
    }
}
