//! [`ClockedRedis`]: a [`RedisServer`] whose wall clock the test sets. `redis_cell/fake_clock.c`,
//! preloaded, answers Redis's clocks (`gettimeofday`, `CLOCK_REALTIME`, `time`: what its
//! millisecond clock, key expiry and modules read) with the ns written in a file, which the test,
//! or a driver it runs (`python/replay.py`, `node/rlflex.mjs`), rewrites before every command.

use super::redis_server::RedisServer;
use ratelimit_playground::sim::time::EPOCH_S;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// Simulated time 0 in ns since the Unix epoch: a UTC midnight.
pub const EPOCH_NS: u64 = EPOCH_S * 1_000_000_000;

/// A running server on a set clock.
pub struct ClockedRedis {
    /// The server (dropped, so stopped, before the clock's folder is removed).
    pub server: RedisServer,
    path: PathBuf,
    file: File,
    dir: PathBuf,
}

impl ClockedRedis {
    /// Starts one at simulated 0, with more arguments for redis-server (`--loadmodule …`).
    pub fn start(args: &[&str]) -> ClockedRedis {
        static STARTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = STARTED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("rlp-clock-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let shim = super::preload_library("redis_cell/fake_clock.c", &dir);
        let path = dir.join("clock");
        std::fs::write(&path, format!("{EPOCH_NS:020}")).unwrap();
        let file = File::options().write(true).open(&path).unwrap();
        let server =
            RedisServer::start_with(args, &[("LD_PRELOAD", shim.as_os_str()), ("RLP_FAKE_CLOCK", path.as_os_str())]);
        ClockedRedis { server, path, file, dir }
    }

    /// Sets Redis's clock to simulated `sim_ns`: every write replaces the file's 20 digits in
    /// place (the preloaded clock keeps it open and reads it on every call).
    pub fn set(&self, sim_ns: u64) {
        self.file.write_all_at(format!("{:020}", EPOCH_NS + sim_ns).as_bytes(), 0).unwrap();
    }

    /// The clock's file, for a driver that sets it itself (20 digits of ns since the Unix epoch,
    /// written at offset 0).
    pub fn clock_file(&self) -> &Path {
        &self.path
    }
}

impl Drop for ClockedRedis {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
