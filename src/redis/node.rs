//! One node: a thread with its own connection to Redis (through the delay proxy), deciding each
//! request the way the scenario's `store` says, exactly as the engine's nodes do
//! (`src/sim/engine/requests.rs`), but against the real server.
//!
//! Replies on a connection come back in order, so the node keeps a queue of what each awaited
//! reply is for. Commands are pipelined: a node does not wait for one request's reply before
//! sending the next request's command, as an application server with many requests in flight.

use super::clock::Clock;
use super::layout::Layout;
use super::resp::{self, Reply};
use crate::sim::cluster::Node;
use crate::sim::{AnyLimiter, Limiter, StoreMode, Verdict};
use std::collections::VecDeque;
use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// No reply for this long beyond the timeout and the round trip (wall time), with requests
/// waiting, ends the run with an error.
pub const STALL: Duration = Duration::from_secs(5);

/// One attempt of a request, as the dispatcher hands it to a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Attempt {
    /// Unique per attempt.
    pub id: u64,
    /// Arrival at the node, scenario ns (the node's clock as the request came in).
    pub at: u64,
    /// 0 for a new request, k for its k-th retry.
    pub retry: u32,
    /// The node the load balancer picked.
    pub node: u32,
}

/// What a node thread is told.
pub enum Msg {
    /// A request arrives.
    Arrive(Attempt),
    /// The next reply on the node's connection.
    Reply(Reply),
    /// The connection ended.
    Closed(String),
    /// The run is over: close the connection and return.
    Stop,
}

/// What a node reports to the dispatcher.
pub enum Report {
    /// A request was answered.
    Decided {
        /// The attempt.
        a: Attempt,
        /// When, scenario ns.
        at: u64,
        /// The answer.
        verdict: Verdict,
        /// Decided by the fail mode because the store did not answer within `timeout`.
        timed_out: bool,
    },
    /// A SET overwrote a write its GET had not seen.
    LostUpdate,
    /// The run cannot go on.
    Failed(String),
}

/// What every node shares.
pub struct Shared {
    /// The scenario's store mode.
    pub mode: StoreMode,
    /// Keys and commands.
    pub layout: Layout,
    /// SHA1 of the script the mode runs (atomic: the exported script; async: the increment).
    pub sha: String,
    /// The run's clock.
    pub clock: Clock,
    /// How long a node waits for a reply before deciding by the fail mode (wall time).
    pub timeout: Duration,
    /// Fail open (admit) on a timeout.
    pub fail_open: bool,
    /// Rejected requests consume quota too.
    pub count_rejected: bool,
    /// No reply for this long with requests waiting is a dead server (wall time): [`STALL`]
    /// beyond `timeout` and the round trip. Writes that block this long fail too.
    pub stall: Duration,
    /// For messages.
    pub url: String,
}

enum Waiting {
    /// `+OK`/`+QUEUED` inside a `MULTI`.
    Queued,
    Get(Attempt),
    Exec(Attempt, Verdict, i64),
    Script(Attempt),
    Increment(u64),
}

struct Pending {
    what: Waiting,
    sent: Instant,
    /// Already decided by the fail mode; the reply is read and dropped.
    timed_out: bool,
}

impl Pending {
    fn decides(&self) -> Option<Attempt> {
        match self.what {
            Waiting::Get(a) | Waiting::Exec(a, ..) | Waiting::Script(a) => Some(a),
            _ => None,
        }
    }
}

struct NodeLoop {
    index: usize,
    shared: Arc<Shared>,
    writer: TcpStream,
    pending: VecDeque<Pending>,
    /// store = async: the node's view and its unacknowledged increments.
    edge: Node,
    reports: Sender<Report>,
}

/// Reads replies from `reader` and passes them to the node's inbox until the connection ends.
pub fn read_replies(mut reader: BufReader<TcpStream>, inbox: Sender<Msg>, url: String) {
    loop {
        match resp::read(&mut reader) {
            Ok(r) => {
                if inbox.send(Msg::Reply(r)).is_err() {
                    return;
                }
            }
            Err(e) => {
                let _ = inbox.send(Msg::Closed(format!("lost the connection to Redis at {url}: {e}")));
                return;
            }
        }
    }
}

/// Runs node `index` until its inbox closes or the connection fails.
pub fn run(index: usize, shared: Arc<Shared>, writer: TcpStream, inbox: Receiver<Msg>, reports: Sender<Report>) {
    let edge = Node::new(shared.layout.fresh());
    let mut node = NodeLoop { index, shared, writer, pending: VecDeque::new(), edge, reports };
    if let Err(e) = node.serve(&inbox) {
        let _ = node.reports.send(Report::Failed(e));
    }
    // Ends the reader thread too: its read sees the connection close.
    let _ = node.writer.shutdown(std::net::Shutdown::Both);
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
                Some(Msg::Reply(r)) => self.reply(r)?,
                Some(Msg::Closed(e)) => return Err(e),
                Some(Msg::Stop) => return Ok(()),
            }
        }
    }

    /// The next instant something is due: a timeout, or the stall check.
    fn next_deadline(&self) -> Option<Instant> {
        let timeout =
            self.pending.iter().filter(|p| !p.timed_out && p.decides().is_some()).map(|p| p.sent + self.shared.timeout);
        let stall = self.pending.front().map(|p| p.sent + self.shared.stall);
        timeout.chain(stall).min()
    }

    /// Decides by the fail mode what has waited `timeout`; fails the run after `stall`.
    fn expire(&mut self) -> Result<(), String> {
        let now = Instant::now();
        if self.pending.front().is_some_and(|p| now >= p.sent + self.shared.stall) {
            let secs = self.shared.stall.as_secs_f64();
            return Err(format!("Redis at {} has not answered node {} for {secs:.1} s", self.shared.url, self.index));
        }
        let (timeout, fail_open) = (self.shared.timeout, self.shared.fail_open);
        let mut expired = Vec::new();
        for p in self.pending.iter_mut().filter(|p| !p.timed_out && now >= p.sent + timeout) {
            if let Some(a) = p.decides() {
                p.timed_out = true;
                expired.push(a);
            }
        }
        for a in expired {
            self.decided(a, Verdict::new(fail_open, None), true);
        }
        Ok(())
    }

    fn send(&mut self, cmd: &[String], what: Waiting) -> Result<(), String> {
        self.writer
            .write_all(&resp::encode(cmd))
            .map_err(|e| format!("lost the connection to Redis at {}: {e}", self.shared.url))?;
        self.pending.push_back(Pending { what, sent: Instant::now(), timed_out: false });
        Ok(())
    }

    fn evalsha(&mut self, args: Vec<String>, what: Waiting) -> Result<(), String> {
        let mut cmd = vec!["EVALSHA".to_string(), self.shared.sha.clone()];
        cmd.extend(args);
        self.send(&cmd, what)
    }

    fn decided(&mut self, a: Attempt, verdict: Verdict, timed_out: bool) {
        let at = self.shared.clock.now().max(a.at);
        let _ = self.reports.send(Report::Decided { a, at, verdict, timed_out });
    }

    fn arrive(&mut self, a: Attempt) -> Result<(), String> {
        let layout = &self.shared.layout;
        match self.shared.mode {
            StoreMode::Race => self.send(&layout.get(), Waiting::Get(a)),
            StoreMode::Atomic => {
                let args = layout.script_args(a.at, a.id);
                self.evalsha(args, Waiting::Script(a))
            }
            StoreMode::Async => {
                let v = self.edge.limiter.check(crate::sim::SimTime(a.at));
                if v.allowed || self.shared.count_rejected {
                    let seq = self.edge.sent_increment(crate::sim::SimTime(a.at));
                    let args = layout.increment_args(a.at, self.index, seq);
                    self.evalsha(args, Waiting::Increment(seq))?;
                }
                self.decided(a, v, false);
                Ok(())
            }
            StoreMode::Local | StoreMode::Sync | StoreMode::ReplicaRead => {
                unreachable!("the runner refuses store=local, product models and replica reads")
            }
        }
    }

    fn reply(&mut self, r: Reply) -> Result<(), String> {
        let p = self.pending.pop_front().ok_or("Redis sent a reply nobody asked for")?;
        if let Reply::Error(e) = &r {
            let script = matches!(p.what, Waiting::Script(_) | Waiting::Increment(_));
            if script && e.starts_with("NOSCRIPT") {
                return self.reload(p);
            }
            let command = match p.what {
                Waiting::Get(_) => "HMGET",
                Waiting::Queued | Waiting::Exec(..) => "MULTI/HSET/HINCRBY/PEXPIRE/EXEC",
                _ => "EVALSHA",
            };
            return Err(super::conn::refusal(&self.shared.url, command, e));
        }
        match p.what {
            Waiting::Queued => Ok(()),
            Waiting::Get(a) => {
                if p.timed_out {
                    return Ok(());
                }
                let (mut state, version) = self.shared.layout.read(&r)?;
                // The racy code: decide on the node from what was read, with the request's time.
                let v = state.check(crate::sim::SimTime(a.at));
                if !(v.allowed || self.shared.count_rejected) {
                    self.decided(a, v, false);
                    return Ok(());
                }
                self.write(&state, a, v, version)
            }
            Waiting::Exec(a, v, read) => {
                let written = self.shared.layout.written_version(&r)?;
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
                    let v = self.shared.layout.verdict(&r)?;
                    self.decided(a, v, false);
                }
                Ok(())
            }
            Waiting::Increment(seq) => {
                let state = self.shared.layout.incremented(&r)?;
                self.edge.synced(seq, state);
                Ok(())
            }
        }
    }

    /// store = race: `SET` the state decided on, as one `MULTI`/`EXEC` that also bumps the version.
    fn write(&mut self, state: &AnyLimiter, a: Attempt, v: Verdict, read: i64) -> Result<(), String> {
        let cmds = self.shared.layout.set(state);
        let last = cmds.len() - 1;
        for (i, cmd) in cmds.iter().enumerate() {
            let what = if i == last { Waiting::Exec(a, v, read) } else { Waiting::Queued };
            self.send(cmd, what)?;
        }
        Ok(())
    }

    /// The server does not have the script (restarted, `SCRIPT FLUSH`): send it whole with
    /// `EVAL`, which also caches it for the next `EVALSHA`.
    fn reload(&mut self, p: Pending) -> Result<(), String> {
        let layout = &self.shared.layout;
        let (script, args) = match p.what {
            Waiting::Script(a) => (layout.script(), layout.script_args(a.at, a.id)),
            Waiting::Increment(seq) => {
                let at = self.edge.pending_at(seq).map_or(0, |t| t.as_nanos());
                (layout.increment_script(), layout.increment_args(at, self.index, seq))
            }
            _ => unreachable!("only scripts are reloaded"),
        };
        let mut cmd = vec!["EVAL".to_string(), script.to_string()];
        cmd.extend(args);
        self.writer
            .write_all(&resp::encode(&cmd))
            .map_err(|e| format!("lost the connection to Redis at {}: {e}", self.shared.url))?;
        // Still the same request: its timeout runs from when it was first sent.
        self.pending.push_back(p);
        Ok(())
    }
}
