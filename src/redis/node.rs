//! One node: a thread with its own connection to Redis (through the delay proxy), deciding each
//! request the way the scenario's `store` says, exactly as the engine's nodes do
//! (`src/sim/engine/requests.rs`), but against the real server.
//!
//! Replies on a connection come back in order, so the node keeps a queue of what each awaited
//! reply is for ([`Link`]). Commands are pipelined: a node does not wait for one request's reply
//! before sending the next request's command, as an application server with many requests in
//! flight. With a replica (`--replica`) a node has a second link, to it: it reads there (store =
//! replica_read) and, after the failover, writes there too.

use super::layout::Layout;
use super::link::{Link, Pending, Waiting};
pub use super::msg::{Attempt, Msg, Report};
use super::resp::Reply;
pub use super::shared::{Key, Shared};
use crate::sim::cluster::Node;
use crate::sim::{AnyLimiter, Limiter, StoreMode, Verdict};
use std::sync::atomic::Ordering;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The link to the primary, and to the replica when there is one.
pub const PRIMARY: usize = 0;
/// See [`PRIMARY`].
pub const REPLICA: usize = 1;

/// No reply for this long beyond the timeout and the round trip (wall time), with requests
/// waiting, ends the run with an error.
pub const STALL: Duration = Duration::from_secs(5);

struct NodeLoop {
    index: usize,
    shared: Arc<Shared>,
    /// To the primary, then (with a replica) to the replica; in a cluster, to each primary.
    links: Vec<Link>,
    /// Each key's link, as this node knows it (a cluster's `MOVED` updates it).
    routes: Vec<usize>,
    /// The link writes go to: the primary's until the failover.
    writes_to: usize,
    /// This node has set the ledger to expire (with its first push), as every key the run writes.
    ledger_expires: bool,
    /// store = async: the node's view and its unacknowledged increments.
    edge: Node,
    reports: Sender<Report>,
}

/// Runs node `index` over `links` until its inbox closes or a connection fails.
pub fn run(index: usize, shared: Arc<Shared>, links: Vec<Link>, inbox: Receiver<Msg>, reports: Sender<Report>) {
    let edge = Node::new(shared.keys[0].layout.fresh());
    let routes = shared.keys.iter().map(|k| k.link).collect();
    let mut node = NodeLoop { index, shared, links, routes, writes_to: PRIMARY, ledger_expires: false, edge, reports };
    if let Err(e) = node.serve(&inbox) {
        let _ = node.reports.send(Report::Failed(e));
    }
    // Ends the reader threads too: their reads see the connections close.
    for l in &node.links {
        let _ = l.writer.shutdown(std::net::Shutdown::Both);
    }
}

impl NodeLoop {
    fn serve(&mut self, inbox: &Receiver<Msg>) -> Result<(), String> {
        loop {
            let msg = match self.next_deadline() {
                Some(due) => match inbox.recv_timeout(due.saturating_duration_since(Instant::now())) {
                    Ok(m) => Some(m),
                    Err(RecvTimeoutError::Timeout) => None,
                    Err(RecvTimeoutError::Disconnected) => return Ok(()),
                },
                None => match inbox.recv() {
                    Ok(m) => Some(m),
                    Err(_) => return Ok(()),
                },
            };
            self.expire()?;
            match msg {
                None => {}
                Some(Msg::Arrive(a)) => self.arrive(a)?,
                Some(Msg::Reply(link, r)) => self.reply(link, r)?,
                Some(Msg::Failover) => self.writes_to = REPLICA,
                Some(Msg::Closed(e)) => return Err(e),
                Some(Msg::Stop) => return Ok(()),
            }
        }
    }

    fn pending(&self) -> impl Iterator<Item = &Pending> {
        self.links.iter().flat_map(|l| l.pending.iter())
    }

    /// The next instant something is due: a timeout, or the stall check.
    fn next_deadline(&self) -> Option<Instant> {
        let timeout =
            self.pending().filter(|p| !p.timed_out && p.decides().is_some()).map(|p| p.sent + self.shared.timeout);
        let stall = self.links.iter().filter_map(|l| l.pending.front()).map(|p| p.sent + self.shared.stall);
        timeout.chain(stall).min()
    }

    /// Decides by the fail mode what has waited `timeout`; fails the run after `stall`.
    fn expire(&mut self) -> Result<(), String> {
        let now = Instant::now();
        for l in &self.links {
            if l.pending.front().is_some_and(|p| now >= p.sent + self.shared.stall) {
                let secs = self.shared.stall.as_secs_f64();
                return Err(format!("Redis at {} has not answered node {} for {secs:.1} s", l.url, self.index));
            }
        }
        let (timeout, fail_open) = (self.shared.timeout, self.shared.fail_open);
        let mut expired = Vec::new();
        for p in self.links.iter_mut().flat_map(|l| l.pending.iter_mut()) {
            if !p.timed_out && now >= p.sent + timeout {
                if let Some(a) = p.decides() {
                    p.timed_out = true;
                    expired.push(a);
                }
            }
        }
        for a in expired {
            self.decided(a, Verdict::new(fail_open, None), true);
        }
        Ok(())
    }

    /// Sends `cmd` to the link writes go to; before the failover, with a ledger, `RPUSH`es
    /// request `id` right after it.
    fn write_cmd(&mut self, cmd: &[String], what: Waiting, id: u64) -> Result<(), String> {
        let to = self.route(id);
        self.links[to].send(cmd, what)?;
        match &self.shared.ledger {
            Some(ledger) if to == PRIMARY => {
                let push = ["RPUSH".to_string(), ledger.clone(), id.to_string()];
                self.links[to].send(&push, Waiting::Ledger)?;
                if !self.ledger_expires {
                    self.ledger_expires = true;
                    let ttl = self.shared.keys[0].layout.ttl_ms().to_string();
                    self.links[to].send(&["PEXPIRE".to_string(), ledger.clone(), ttl], Waiting::Ignored)?;
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn evalsha(&mut self, args: Vec<String>, what: Waiting, id: u64) -> Result<(), String> {
        let mut cmd = vec!["EVALSHA".to_string(), self.shared.sha.clone()];
        cmd.extend(args);
        self.write_cmd(&cmd, what, id)
    }

    /// The key request `id` counts on.
    fn key(&self, id: u64) -> usize {
        crate::sim::shards::key_of(id, self.shared.keys.len())
    }

    /// The layout of request `id`'s key.
    fn layout(&self, id: u64) -> &Layout {
        &self.shared.keys[self.key(id)].layout
    }

    /// The link request `id`'s store operations go to: its key's, or the promoted replica.
    fn route(&self, id: u64) -> usize {
        if self.writes_to == REPLICA {
            REPLICA
        } else {
            self.routes[self.key(id)]
        }
    }

    /// Counts one store operation on request `id`'s key and the server it goes to.
    fn count_op(&self, id: u64) {
        self.shared.keys[self.key(id)].ops.fetch_add(1, Ordering::Relaxed);
        self.count_server(self.route(id));
    }

    /// Counts one store operation on the server of `link`.
    fn count_server(&self, link: usize) {
        if let Some(ops) = self.shared.server_ops.get(link) {
            ops.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// What this node's clock read when `a` arrived: the time it stamps the request with.
    fn stamp(&self, a: &Attempt) -> u64 {
        a.at.saturating_add_signed(self.shared.offsets.get(self.index).copied().unwrap_or(0))
    }

    fn decided(&mut self, a: Attempt, verdict: Verdict, timed_out: bool) {
        if verdict.allowed && !timed_out {
            self.shared.keys[self.key(a.id)].admitted.fetch_add(1, Ordering::Relaxed);
        }
        let at = self.shared.clock.now().max(a.at);
        let _ = self.reports.send(Report::Decided { a, at, verdict, timed_out });
    }

    fn arrive(&mut self, a: Attempt) -> Result<(), String> {
        let layout = self.layout(a.id);
        match self.shared.mode {
            StoreMode::Race => {
                let get = layout.get();
                let to = self.route(a.id);
                self.count_op(a.id);
                self.links[to].send(&get, Waiting::Get(a))
            }
            StoreMode::Atomic => {
                let args = layout.script_args(self.stamp(&a), a.id);
                self.count_op(a.id);
                self.evalsha(args, Waiting::Script(a), a.id)
            }
            StoreMode::Async => {
                let t = self.stamp(&a);
                let v = self.edge.limiter.check(crate::sim::SimTime(t));
                if v.allowed || self.shared.count_rejected {
                    let seq = self.edge.sent_increment(crate::sim::SimTime(t));
                    let args = self.shared.keys[0].layout.increment_args(t, self.index, seq);
                    self.count_op(a.id);
                    self.evalsha(args, Waiting::Increment(seq), a.id)?;
                }
                self.decided(a, v, false);
                Ok(())
            }
            StoreMode::ReplicaRead => {
                // What the primary had acknowledged as the read leaves: a read that shows fewer
                // ledger entries missed a write (none to miss once the replica is the primary).
                let acked = (self.writes_to == PRIMARY).then(|| self.shared.acked.load(Ordering::SeqCst));
                let ledger = self.shared.ledger.as_deref().expect("replica reads keep a ledger");
                let cmds = layout.replica_read(ledger);
                let last = cmds.len() - 1;
                for (i, cmd) in cmds.iter().enumerate() {
                    let what = if i == last { Waiting::ReplicaRead(a, acked) } else { Waiting::Queued };
                    self.links[REPLICA].send(cmd, what)?;
                }
                Ok(())
            }
            StoreMode::Local | StoreMode::Sync => {
                unreachable!("the runner refuses store=local and product models")
            }
        }
    }

    fn reply(&mut self, link: usize, r: Reply) -> Result<(), String> {
        let url = self.links[link].url.clone();
        let p = self.links[link].pending.pop_front().ok_or("Redis sent a reply nobody asked for")?;
        if let Some((ask, to)) = if let Reply::Error(e) = &r { super::link::redirect(e) } else { None } {
            return self.redirected(p, ask, to);
        }
        if let Reply::Error(e) = &r {
            let script = matches!(p.what, Waiting::Script(_) | Waiting::Increment(_));
            if script && e.starts_with("NOSCRIPT") {
                return self.reload(link, p);
            }
            let command = match p.what {
                Waiting::Get(_) => "HMGET",
                Waiting::Queued | Waiting::Exec(..) => "MULTI/HSET/HINCRBY/PEXPIRE/EXEC",
                Waiting::ReplicaRead(..) => "MULTI/HMGET/LLEN/EXEC",
                Waiting::Ledger => "RPUSH",
                _ => "EVALSHA",
            };
            return Err(super::conn::refusal(&url, command, e));
        }
        match p.what {
            Waiting::Queued | Waiting::Ignored => Ok(()),
            Waiting::Ledger => {
                self.shared.acked.fetch_add(1, Ordering::SeqCst);
                Ok(())
            }
            Waiting::Get(a) => {
                if p.timed_out {
                    return Ok(());
                }
                let (mut state, version) = self.layout(a.id).read(&r)?;
                // The racy code: decide on the node from what was read, with the request's time.
                let v = state.check(crate::sim::SimTime(self.stamp(&a)));
                if !(v.allowed || self.shared.count_rejected) {
                    self.decided(a, v, false);
                    return Ok(());
                }
                self.write(&state, a, v, version)
            }
            Waiting::Exec(a, v, read) => {
                let written = self.layout(a.id).written_version(&r)?;
                if written != read + 1 {
                    let _ = self.reports.send(Report::LostUpdate);
                }
                if !p.timed_out {
                    self.decided(a, v, false);
                }
                Ok(())
            }
            Waiting::Script(a) => {
                if !p.timed_out {
                    let v = self.layout(a.id).verdict(&r)?;
                    self.decided(a, v, false);
                }
                Ok(())
            }
            Waiting::Increment(seq) => {
                let state = self.shared.keys[0].layout.incremented(&r)?;
                self.edge.synced(seq, state);
                Ok(())
            }
            Waiting::ReplicaRead(a, acked) => {
                if p.timed_out {
                    return Ok(());
                }
                let (read, len) = super::link::replica_read_reply(&r).ok_or_else(|| format!("unexpected {r:?}"))?;
                if acked.is_some_and(|k| len < k) {
                    let _ = self.reports.send(Report::StaleRead);
                }
                let mut state = self.shared.keys[0].layout.replica_state(read)?;
                // Decide on the node from the replica's state; the increment goes to the
                // primary, and nothing waits for it.
                let t = self.stamp(&a);
                let v = state.check(crate::sim::SimTime(t));
                if v.allowed || self.shared.count_rejected {
                    let args = self.shared.keys[0].layout.increment_args(t, self.index, a.id);
                    self.evalsha(args, Waiting::Ignored, a.id)?;
                }
                self.decided(a, v, false);
                Ok(())
            }
        }
    }

    /// store = race: `SET` the state decided on, as one `MULTI`/`EXEC` that also bumps the version.
    fn write(&mut self, state: &AnyLimiter, a: Attempt, v: Verdict, read: i64) -> Result<(), String> {
        let cmds = self.layout(a.id).set(state);
        let (last, to) = (cmds.len() - 1, self.route(a.id));
        self.count_op(a.id);
        for (i, cmd) in cmds.iter().enumerate() {
            if i == last {
                return self.write_cmd(cmd, Waiting::Exec(a, v, read), a.id);
            }
            self.links[to].send(cmd, Waiting::Queued)?;
        }
        Ok(())
    }

    /// A Redis Cluster answered `MOVED` (the key's slot is served elsewhere now: this node routes
    /// the key there from now on) or `ASK` (for this command only, after `ASKING`): `p`'s command
    /// goes again to the primary at `to`.
    fn redirected(&mut self, p: Pending, ask: bool, to: &str) -> Result<(), String> {
        let a = match p.what {
            Waiting::Get(a) | Waiting::Script(a) => a,
            _ => {
                return Err(format!(
                    "Redis Cluster moved the run's key to {to}; the runner follows a move for a read or a script, \
                     not for a SET's transaction or an edge node's increment: run again once the cluster is stable"
                ))
            }
        };
        let Some(link) = self.links.iter().position(|l| l.addr == to) else {
            return Err(format!("Redis Cluster redirected the run's key to {to}, a node CLUSTER SLOTS did not name"));
        };
        self.count_server(link);
        if ask {
            self.links[link].send(&["ASKING".to_string()], Waiting::Queued)?;
        } else {
            let k = self.key(a.id);
            self.routes[k] = link;
        }
        self.links[link].resend(p)
    }

    /// The server does not have the script (restarted, `SCRIPT FLUSH`): send it whole with
    /// `EVAL`, which also caches it for the next `EVALSHA`.
    fn reload(&mut self, link: usize, p: Pending) -> Result<(), String> {
        let layout = match p.what {
            Waiting::Script(a) => self.layout(a.id),
            _ => &self.shared.keys[0].layout,
        };
        let (script, args) = match p.what {
            Waiting::Script(a) => (layout.script(), layout.script_args(self.stamp(&a), a.id)),
            Waiting::Increment(seq) => {
                let at = self.edge.pending_at(seq).map_or(0, |t| t.as_nanos());
                (layout.increment_script(), layout.increment_args(at, self.index, seq))
            }
            _ => unreachable!("only scripts are reloaded"),
        };
        let mut cmd = vec!["EVAL".to_string(), script.to_string()];
        cmd.extend(args);
        self.links[link].write(&super::resp::encode(&cmd))?;
        // Still the same request: its timeout runs from when it was first sent.
        self.links[link].pending.push_back(p);
        Ok(())
    }
}
