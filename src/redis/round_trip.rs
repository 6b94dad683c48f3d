//! The round trip between the nodes and a server: [`proxied`] starts the [`DelayProxy`] that adds
//! the scenario's `rtt`, and calibrates it so the median `PING` through it takes exactly that.

use super::conn::Conn;
use super::error::RunError;
use super::proxy::DelayProxy;
use super::report::Percentiles;
use super::url::RedisUrl;
use crate::sim::metrics::Latencies;
use crate::sim::{Nanos, Scenario};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long connecting and each setup command may take.
pub const SETUP_TIMEOUT: Duration = Duration::from_secs(5);

/// `PING`s through `via` (the proxy) for about two seconds, 5 to 50 of them: the round trip nodes
/// really get, in wall ms.
fn measure_rtt(url: &RedisUrl, via: Option<std::net::SocketAddr>, rtt: Duration) -> Result<Percentiles, String> {
    let mut conn = Conn::open(url, via, SETUP_TIMEOUT + 3 * rtt)?;
    let mut l = Latencies::default();
    let pings = (2.0 / rtt.as_secs_f64().max(1e-3)).clamp(5.0, 50.0) as usize;
    for _ in 0..pings {
        let t = Instant::now();
        conn.call(&["PING"])?;
        l.record(Nanos(t.elapsed().as_nanos() as u64));
    }
    Ok(Percentiles::of(&l))
}

/// The scenario's round trip in wall time at `speed`.
pub fn wall_rtt(sc: &Scenario, speed: f64) -> Duration {
    Duration::from_nanos((sc.rtt.as_nanos() as f64 / speed) as u64)
}

/// The proxy nodes reach `url` through (none for a round trip of 0), calibrated, and the round
/// trip measured through it in scenario ms.
pub fn proxied(
    url: &RedisUrl,
    sc: &Scenario,
    speed: f64,
    interrupted: &AtomicBool,
) -> Result<(Option<DelayProxy>, Percentiles), RunError> {
    let server = RunError::Server;
    let wall = wall_rtt(sc, speed);
    let proxy = if sc.rtt.as_nanos() > 0 {
        let upstream = super::conn::resolve(url, SETUP_TIMEOUT).map_err(server)?;
        Some(
            DelayProxy::start(upstream, wall / 2)
                .map_err(|e| RunError::Server(format!("cannot start the delay proxy: {e}")))?,
        )
    } else {
        None
    };
    let via = proxy.as_ref().map(DelayProxy::addr);
    let mut rtt = measure_rtt(url, via, wall).map_err(server)?;
    if let Some(p) = &proxy {
        // The loopback, the server and the sleeps' overshoot come on top of the proxy's delay:
        // take them off, so that the median round trip is the configured one.
        let target = super::report::ms(wall.as_nanos() as u64);
        for _ in 0..3 {
            let excess = rtt.p50 - target;
            if excess.abs() < 0.02 {
                break;
            }
            let one_way = p.delay().as_secs_f64() - excess / 2_000.0;
            p.set_delay(Duration::from_secs_f64(one_way.max(0.0)));
            rtt = measure_rtt(url, via, wall).map_err(server)?;
            if interrupted.load(Ordering::SeqCst) {
                return Err(RunError::Interrupted("interrupted while calibrating the round trip".into()));
            }
        }
    }
    Ok((proxy, scaled(rtt, speed)))
}

/// Wall ms as scenario ms (× `speed`), to the µs.
pub fn scaled(p: Percentiles, speed: f64) -> Percentiles {
    let s = |ms: f64| (ms * speed * 1000.0).round() / 1000.0;
    Percentiles { p50: s(p.p50), p99: s(p.p99) }
}
