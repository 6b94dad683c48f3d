//! Checks against real software the tests start themselves: one file per product under `real/`.
//! Each needs what it runs installed by `scripts/bootstrap.sh --test` (Debian's redis-server,
//! nginx-light, haproxy, golang-go and golang-golang-x-time-dev, Ruby's and PHP's libraries, the npm
//! and PyPI libraries at pinned versions, redis-cell built from crates.io); a
//! missing one is a failure, never a skip.
#![cfg(not(target_arch = "wasm32"))]

#[path = "real/clocked_redis.rs"]
mod clocked_redis;
#[path = "real/django.rs"]
mod django;
#[path = "real/go.rs"]
mod go;
#[path = "real/governor.rs"]
mod governor;
#[path = "real/haproxy.rs"]
mod haproxy;
#[path = "real/http.rs"]
mod http;
#[path = "real/laravel.rs"]
mod laravel;
#[path = "real/lua.rs"]
mod lua;
#[path = "real/model.rs"]
mod model;
#[path = "real/nestjs.rs"]
mod nestjs;
#[path = "real/nginx.rs"]
mod nginx;
#[path = "real/node.rs"]
mod node;
#[path = "real/python_limits.rs"]
mod python_limits;
#[path = "real/rack_attack.rs"]
mod rack_attack;
#[path = "real/redis.rs"]
mod redis;
#[path = "real/redis_cell.rs"]
mod redis_cell;
#[path = "real/redis_cluster.rs"]
mod redis_cluster;
#[path = "real/redis_replica.rs"]
mod redis_replica;
#[path = "real/redis_server.rs"]
mod redis_server;
#[path = "real/rlflex.rs"]
mod rlflex;
#[path = "real/versions.rs"]
mod versions;

/// Held by every test here (through `RedisServer` or by hand): the real-time replays (nginx,
/// HAProxy) compare on the servers' own clocks, but a trace replayed on two cores shared with
/// another test's server, Node or CLI runs loses the shape it was written to have. A test added
/// here takes it too.
pub fn exclusive() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Compiles the C library `src` (a path under tests/real/, e.g. `nginx/one_clock.c`) into `dir`
/// for a server the test starts with it in `LD_PRELOAD`, and returns the library's path.
pub fn preload_library(src: &str, dir: &std::path::Path) -> std::path::PathBuf {
    let name = std::path::Path::new(src).file_stem().expect("a file name");
    let so = dir.join(name).with_extension("so");
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/real").join(src);
    let mut cc = std::process::Command::new("cc");
    let out = cc
        .args(["-shared", "-fPIC", "-O2", "-o"])
        .arg(&so)
        .arg(&src)
        .arg("-ldl")
        .output()
        .expect("cc is on this machine kind");
    assert!(out.status.success(), "cc {}: {}", src.display(), String::from_utf8_lossy(&out.stderr));
    so
}
