//! [`Link`]: one node's connection to one Redis server — the socket it writes and the queue of
//! what each awaited reply is for (replies on a connection come back in order) — and
//! [`read_replies`], the thread that reads the connection's replies into the node's inbox.

use super::msg::{Attempt, Msg};
use super::resp::{self, Reply};
use crate::sim::Verdict;
use std::collections::VecDeque;
use std::io::{BufReader, Write};
use std::net::TcpStream;
use std::sync::mpsc::Sender;
use std::time::Instant;

/// What an awaited reply is for.
pub enum Waiting {
    /// `+OK`/`+QUEUED` inside a `MULTI`.
    Queued,
    /// store = race: the read.
    Get(Attempt),
    /// store = race: the write's `EXEC`, with the verdict and the version read.
    Exec(Attempt, Verdict, i64),
    /// store = atomic: the exported script.
    Script(Attempt),
    /// store = async: node's increment `seq`.
    Increment(u64),
    /// store = replica_read: the read's `EXEC` (state, ledger length), with the writes the
    /// primary had acknowledged when it was sent (`None` after the failover: no replica then).
    ReplicaRead(Attempt, Option<u64>),
    /// A reply nothing waits for: store = replica_read's increment.
    Ignored,
    /// The ledger's `RPUSH` after a write at the primary, counted when acknowledged.
    Ledger,
}

/// One awaited reply.
pub struct Pending {
    /// What it is for.
    pub what: Waiting,
    /// When its command was sent.
    pub sent: Instant,
    /// Already decided by the fail mode; the reply is read and dropped.
    pub timed_out: bool,
    /// The command as sent, to send again where a Redis Cluster redirects it.
    pub bytes: Vec<u8>,
}

impl Pending {
    /// The request this reply decides, if it decides one.
    pub fn decides(&self) -> Option<Attempt> {
        match self.what {
            Waiting::Get(a) | Waiting::Exec(a, ..) | Waiting::Script(a) | Waiting::ReplicaRead(a, _) => Some(a),
            _ => None,
        }
    }
}

/// A node's connection to one server.
pub struct Link {
    /// Commands go here.
    pub writer: TcpStream,
    /// What each reply still to come is for, oldest first.
    pub pending: VecDeque<Pending>,
    /// For messages.
    pub url: String,
    /// `host:port`, as a cluster's redirects name it.
    pub addr: String,
}

impl Link {
    /// A link writing to `writer`, a connection to `url`.
    pub fn new(writer: TcpStream, url: &super::url::RedisUrl) -> Link {
        let addr = format!("{}:{}", url.host, url.port);
        Link { writer, pending: VecDeque::new(), url: url.to_string(), addr }
    }

    /// Sends `cmd`, whose reply is for `what`.
    pub fn send(&mut self, cmd: &[String], what: Waiting) -> Result<(), String> {
        let bytes = resp::encode(cmd);
        self.write(&bytes)?;
        self.pending.push_back(Pending { what, sent: Instant::now(), timed_out: false, bytes });
        Ok(())
    }

    /// Sends `p`'s command again here (a cluster's redirect): still the same request, its
    /// timeout running from when it was first sent.
    pub fn resend(&mut self, p: Pending) -> Result<(), String> {
        self.write(&p.bytes)?;
        self.pending.push_back(p);
        Ok(())
    }

    /// Writes encoded bytes.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.writer.write_all(bytes).map_err(|e| format!("lost the connection to Redis at {}: {e}", self.url))
    }
}

/// Reads replies from `reader` and passes them to the node's inbox, marked with the link's index
/// `link`, until the connection ends.
pub fn read_replies(mut reader: BufReader<TcpStream>, link: usize, inbox: Sender<Msg>, url: String) {
    loop {
        match resp::read(&mut reader) {
            Ok(r) => {
                if inbox.send(Msg::Reply(link, r)).is_err() {
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

/// The `EXEC` reply of a replica read: the read's reply and the ledger's length.
pub fn replica_read_reply(r: &Reply) -> Option<(&Reply, u64)> {
    match r.items() {
        [state, len] => Some((state, len.int()? as u64)),
        _ => None,
    }
}

/// A Redis Cluster redirect in an error reply: `MOVED <slot> <host:port>` (`false`) or `ASK …`
/// (`true`), and where to.
///
/// ```
/// use ratelimit_playground::redis::link::redirect;
/// assert_eq!(redirect("MOVED 3999 127.0.0.1:6381"), Some((false, "127.0.0.1:6381")));
/// assert_eq!(redirect("ASK 3999 127.0.0.1:6381"), Some((true, "127.0.0.1:6381")));
/// assert_eq!(redirect("ERR unknown command"), None);
/// ```
pub fn redirect(err: &str) -> Option<(bool, &str)> {
    let mut words = err.split_whitespace();
    let ask = match words.next()? {
        "MOVED" => false,
        "ASK" => true,
        _ => return None,
    };
    words.nth(1).map(|to| (ask, to))
}
