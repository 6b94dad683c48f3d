//! [`RedisServer`]: a `redis-server` of our own on a free loopback port in a temporary directory,
//! stopped when dropped (also when a test fails).

use ratelimit_playground::redis::conn::Conn;
use ratelimit_playground::redis::resp::Reply;
use ratelimit_playground::redis::url::RedisUrl;
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running server.
pub struct RedisServer {
    child: Child,
    port: u16,
    dir: std::path::PathBuf,
    /// Declared last, so dropped last: the lock is released once the server is gone (a replica
    /// runs under its primary's).
    _exclusive: Option<std::sync::MutexGuard<'static, ()>>,
}

impl RedisServer {
    /// Starts one and waits until it answers `PING`.
    pub fn start() -> RedisServer {
        RedisServer::start_with(&[], &[])
    }

    /// Starts one with more arguments (`--loadmodule …`) and environment variables, and waits
    /// until it answers `PING`.
    pub fn start_with(args: &[&str], env: &[(&str, &std::ffi::OsStr)]) -> RedisServer {
        RedisServer::spawn(args, env, Some(super::exclusive()))
    }

    /// Starts a replica of `self` and waits until it has synced.
    pub fn replica(&self) -> RedisServer {
        let port = self.port.to_string();
        let replica = RedisServer::spawn(&["--replicaof", "127.0.0.1", &port], &[], None);
        let start = Instant::now();
        while !replica.info("replication").contains("master_link_status:up") {
            assert!(start.elapsed() < Duration::from_secs(10), "the replica did not sync");
            std::thread::sleep(Duration::from_millis(20));
        }
        replica
    }

    /// Starts `n` nodes with `--cluster-enabled yes`, joins them into one cluster of `n`
    /// primaries (`redis-cli --cluster create`), and waits until every node serves every slot.
    pub fn cluster(n: usize) -> Vec<RedisServer> {
        let cluster = ["--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"];
        let mut nodes = vec![RedisServer::spawn(&cluster, &[], Some(super::exclusive()))];
        nodes.extend((1..n).map(|_| RedisServer::spawn(&cluster, &[], None)));
        let addrs: Vec<String> = nodes.iter().map(|s| format!("127.0.0.1:{}", s.port)).collect();
        let out = Command::new("redis-cli")
            .args(["--cluster", "create"])
            .args(&addrs)
            .arg("--cluster-yes")
            .output()
            .expect("redis-cli is installed with redis-server (Debian package redis-tools)");
        assert!(out.status.success(), "redis-cli --cluster create: {}", String::from_utf8_lossy(&out.stdout));
        let start = Instant::now();
        while !nodes
            .iter()
            .all(|s| s.call(&["CLUSTER", "INFO"]).text().unwrap_or_default().contains("cluster_state:ok"))
        {
            assert!(start.elapsed() < Duration::from_secs(20), "the cluster did not come up");
            std::thread::sleep(Duration::from_millis(50));
        }
        nodes
    }

    /// The node's cluster id (`CLUSTER MYID`).
    pub fn node_id(&self) -> String {
        self.call(&["CLUSTER", "MYID"]).text().unwrap()
    }

    /// The TCP port.
    pub fn port(&self) -> u16 {
        self.port
    }

    fn spawn(
        args: &[&str],
        env: &[(&str, &std::ffi::OsStr)],
        exclusive: Option<std::sync::MutexGuard<'static, ()>>,
    ) -> RedisServer {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let dir = std::env::temp_dir().join(format!("rlp-redis-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .arg("--dir")
            .arg(&dir)
            .args(args)
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server is installed by scripts/bootstrap.sh --test (Debian package redis-server)");
        let server = RedisServer { _exclusive: exclusive, child, port, dir };
        let start = Instant::now();
        while Conn::open(&server.url(), None, Duration::from_secs(1)).is_err() {
            assert!(start.elapsed() < Duration::from_secs(10), "redis-server did not start on port {port}");
            std::thread::sleep(Duration::from_millis(20));
        }
        server
    }

    /// `redis://127.0.0.1:PORT`.
    pub fn url(&self) -> RedisUrl {
        RedisUrl::parse(&format!("redis://127.0.0.1:{}", self.port)).unwrap()
    }

    /// Sends one command as the default user.
    pub fn call(&self, args: &[&str]) -> Reply {
        let mut c = Conn::open(&self.url(), None, Duration::from_secs(2)).unwrap();
        c.call(args).unwrap()
    }

    /// `INFO <section>`.
    pub fn info(&self, section: &str) -> String {
        self.call(&["INFO", section]).text().unwrap_or_default()
    }

    /// Every key in the database.
    pub fn keys(&self) -> Vec<String> {
        self.call(&["KEYS", "*"]).items().iter().filter_map(Reply::text).collect()
    }

    /// Freezes it (SIGSTOP): connections stay open and nothing is answered.
    pub fn pause(&self) {
        // SAFETY: signalling our own child process.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGSTOP) };
    }

    /// Stops it now (SIGKILL), as a crash or an operator would.
    pub fn kill(&mut self) {
        // SAFETY: signalling our own child process; a stopped process needs SIGCONT to die cleanly.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGCONT) };
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for RedisServer {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
