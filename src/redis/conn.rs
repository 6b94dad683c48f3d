//! [`Conn`]: one blocking connection to Redis: connect, log in, select the database, and call.

use super::resp::{self, Reply};
use super::url::RedisUrl;
use std::io::{BufReader, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

/// The commands the runner sends, for the message when an ACL refuses one.
pub const COMMANDS_USED: &str = "PING, INFO, SELECT, EXISTS, DEL, HMGET, HSET, HINCRBY, PEXPIRE, MULTI, EXEC, \
     SCRIPT LOAD, EVALSHA, EVAL, and inside the scripts ZADD, ZCARD, ZRANGE, ZREMRANGEBYSCORE, ZREMRANGEBYRANK; \
     with --replica also ZRANGE, RPUSH, LLEN, LRANGE, SET, GET and (at the replica) REPLICAOF";

/// A connection, logged in and on the URL's database.
pub struct Conn {
    writer: TcpStream,
    reader: BufReader<TcpStream>,
    url: RedisUrl,
}

/// The first address of `url` that accepts a connection (`localhost` may name `::1` first while
/// Redis listens on 127.0.0.1 only).
pub fn resolve(url: &RedisUrl, timeout: Duration) -> Result<SocketAddr, String> {
    let addrs: Vec<SocketAddr> =
        (url.host.as_str(), url.port).to_socket_addrs().map_err(|e| format!("cannot resolve {url}: {e}"))?.collect();
    let mut last = format!("cannot resolve {url}: no address");
    for a in addrs {
        match TcpStream::connect_timeout(&a, timeout) {
            Ok(_) => return Ok(a),
            Err(e) => last = format!("cannot reach Redis at {url}: {e}"),
        }
    }
    Err(last)
}

/// What a refusal from the server means for the user.
pub fn refusal(url: impl std::fmt::Display, command: &str, err: &str) -> String {
    let code = err.split_whitespace().next().unwrap_or("");
    match code {
        "NOAUTH" => format!("Redis at {url} needs a password: put it in --url (redis://[user]:PASSWORD@host:port)"),
        "WRONGPASS" => format!("Redis at {url} refused the user name or password in --url ({err})"),
        "NOPERM" => format!(
            "Redis at {url} refused {command} for this user ({err}); the runner needs: {COMMANDS_USED}, on keys \
             matching rlp:*"
        ),
        _ => format!("Redis at {url} refused {command}: {err}"),
    }
}

impl Conn {
    /// Connects to `url` (or to `via`, a proxy in front of it), logs in and selects the database.
    /// `timeout` bounds the connect and every reply of the handshake.
    pub fn open(url: &RedisUrl, via: Option<SocketAddr>, timeout: Duration) -> Result<Conn, String> {
        let addr = match via {
            Some(a) => a,
            None => resolve(url, timeout)?,
        };
        let unreachable = |e: std::io::Error| format!("cannot reach Redis at {url}: {e}");
        let writer = TcpStream::connect_timeout(&addr, timeout).map_err(unreachable)?;
        writer.set_nodelay(true).map_err(unreachable)?;
        writer.set_read_timeout(Some(timeout)).map_err(unreachable)?;
        let reader = BufReader::new(writer.try_clone().map_err(unreachable)?);
        let mut conn = Conn { writer, reader, url: url.clone() };
        match (&url.user, &url.password) {
            (Some(u), Some(p)) => conn.call(&["AUTH", u, p]).map(drop)?,
            (None, Some(p)) => conn.call(&["AUTH", p]).map(drop)?,
            _ => {}
        }
        if url.db != 0 {
            conn.call(&["SELECT", &url.db.to_string()])?;
        }
        conn.call(&["PING"])?;
        Ok(conn)
    }

    /// Sends one command and waits for its reply; an error reply is an `Err` naming the command.
    pub fn call<S: AsRef<[u8]>>(&mut self, args: &[S]) -> Result<Reply, String> {
        self.send(&resp::encode(args))?;
        let name = args.first().map(|a| String::from_utf8_lossy(a.as_ref()).into_owned()).unwrap_or_default();
        match self.recv()? {
            Reply::Error(e) => Err(refusal(&self.url, &name, &e)),
            r => Ok(r),
        }
    }

    /// Writes encoded bytes.
    pub fn send(&mut self, bytes: &[u8]) -> Result<(), String> {
        self.writer.write_all(bytes).map_err(|e| format!("lost the connection to Redis at {}: {e}", self.url))
    }

    /// Reads one reply.
    pub fn recv(&mut self) -> Result<Reply, String> {
        resp::read(&mut self.reader).map_err(|e| match e.kind() {
            std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut => {
                format!("Redis at {} did not answer in time", self.url)
            }
            _ => format!("lost the connection to Redis at {}: {e}", self.url),
        })
    }

    /// Changes how long a read may wait (`None`: forever).
    pub fn set_read_timeout(&self, t: Option<Duration>) -> Result<(), String> {
        self.writer.set_read_timeout(t).map_err(|e| e.to_string())
    }

    /// The two halves, for a writer thread and a reader thread.
    pub fn split(self) -> (TcpStream, BufReader<TcpStream>) {
        (self.writer, self.reader)
    }
}
