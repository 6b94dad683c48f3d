//! [`DelayProxy`]: a TCP proxy on loopback that holds every byte for a fixed time in each
//! direction, so a round trip of `rtt` between a node and Redis really takes `rtt`.
//!
//! Each direction of each connection is a reader thread that timestamps what it reads and a
//! writer thread that forwards it when due; order is kept, and pipelined commands overlap as
//! they would on a slow network.

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// A running proxy; dropping it closes the listener and every connection.
pub struct DelayProxy {
    addr: SocketAddr,
    /// The delay each direction adds, ns (shared with every pipe, so it can be calibrated).
    delay: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    sockets: Arc<Mutex<Vec<TcpStream>>>,
}

impl DelayProxy {
    /// Listens on a free loopback port and forwards each connection to `upstream`, delaying
    /// each direction by `one_way`.
    pub fn start(upstream: SocketAddr, one_way: Duration) -> std::io::Result<DelayProxy> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let sockets = Arc::new(Mutex::new(Vec::new()));
        let delay = Arc::new(AtomicU64::new(one_way.as_nanos() as u64));
        let (stop2, sockets2, delay2) = (stop.clone(), sockets.clone(), delay.clone());
        thread::spawn(move || {
            for client in listener.incoming() {
                if stop2.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(client) = client else { continue };
                let Ok(server) = TcpStream::connect(upstream) else {
                    let _ = client.shutdown(Shutdown::Both);
                    continue;
                };
                let _ = (client.set_nodelay(true), server.set_nodelay(true));
                if let (Ok(c), Ok(s)) = (client.try_clone(), server.try_clone()) {
                    sockets2.lock().unwrap_or_else(|e| e.into_inner()).extend([c, s]);
                }
                pipe(&client, &server, delay2.clone());
                pipe(&server, &client, delay2.clone());
            }
        });
        Ok(DelayProxy { addr, delay, stop, sockets })
    }

    /// The delay each direction adds now.
    pub fn delay(&self) -> Duration {
        Duration::from_nanos(self.delay.load(Ordering::Relaxed))
    }

    /// Changes the delay of every connection, for calibration: the network stack, the server and
    /// the sleeps' overshoot add to it, so the run sets it to what makes the measured round
    /// trip equal the configured one.
    pub fn set_delay(&self, one_way: Duration) {
        self.delay.store(one_way.as_nanos() as u64, Ordering::Relaxed);
    }

    /// Where nodes connect instead of Redis.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for DelayProxy {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(self.addr); // wakes the accept loop
        for s in self.sockets.lock().unwrap_or_else(|e| e.into_inner()).drain(..) {
            let _ = s.shutdown(Shutdown::Both);
        }
    }
}

/// Forwards `from` → `to`, each chunk `delay` after it was read; closes `to`'s write side when
/// `from` ends.
fn pipe(from: &TcpStream, to: &TcpStream, delay: Arc<AtomicU64>) {
    let (Ok(mut from), Ok(mut to)) = (from.try_clone(), to.try_clone()) else { return };
    let (tx, rx) = mpsc::channel::<(Instant, Vec<u8>)>();
    thread::spawn(move || {
        let mut buf = vec![0; 64 << 10];
        while let Ok(n) = from.read(&mut buf) {
            let due = Instant::now() + Duration::from_nanos(delay.load(Ordering::Relaxed));
            if n == 0 || tx.send((due, buf[..n].to_vec())).is_err() {
                break;
            }
        }
    });
    thread::spawn(move || {
        for (due, bytes) in rx {
            let now = Instant::now();
            if due > now {
                thread::sleep(due - now);
            }
            if to.write_all(&bytes).is_err() {
                break;
            }
        }
        let _ = to.shutdown(Shutdown::Write);
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;

    #[test]
    fn a_round_trip_through_the_proxy_takes_twice_the_one_way_delay() {
        let echo = TcpListener::bind("127.0.0.1:0").unwrap();
        let upstream = echo.local_addr().unwrap();
        thread::spawn(move || {
            let (s, _) = echo.accept().unwrap();
            let mut w = s.try_clone().unwrap();
            for line in std::io::BufReader::new(s).lines() {
                let Ok(line) = line else { break };
                let _ = writeln!(w, "{line}");
            }
        });
        let proxy = DelayProxy::start(upstream, Duration::from_millis(10)).unwrap();
        let mut c = TcpStream::connect(proxy.addr()).unwrap();
        let mut r = std::io::BufReader::new(c.try_clone().unwrap());
        let start = Instant::now();
        writeln!(c, "ping").unwrap();
        let mut line = String::new();
        r.read_line(&mut line).unwrap();
        let took = start.elapsed();
        assert_eq!(line, "ping\n");
        assert!(took >= Duration::from_millis(20), "{took:?}");
        assert!(took < Duration::from_millis(200), "{took:?}");
    }
}
