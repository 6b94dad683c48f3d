//! Checks against real software the tests start themselves: one file per product under `real/`.
//! Each needs its server installed by `scripts/bootstrap.sh --test` (Debian's redis-server); a
//! missing one is a failure, never a skip.
#![cfg(not(target_arch = "wasm32"))]

#[path = "real/redis.rs"]
mod redis;
#[path = "real/redis_server.rs"]
mod redis_server;
