//! Two generated (not real) access logs in the combined format, from a seed, for trying shadow
//! mode without a log of one's own and for tests that need logs of any size:
//!
//! - `api`: an API with 300 well-behaved clients (a request every ~20 s each), three aggressive
//!   scrapers (~15 requests/s each) and a cron job that fires a burst of 60 requests in the first
//!   second of every minute;
//! - `login`: a login endpoint where 200 users sign in now and then, under credential stuffing
//!   from 40 addresses (~3 attempts/s each) and a botnet of 2 000 addresses trying once or twice.
//!
//! and, for tests that need a crowd of a chosen shape, [`crowd_log`]: clients at a request every
//! ~20 s and scrapers bursting at given rates.
//!
//! Addresses are from the documentation ranges (192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24)
//! and private ones; the log starts at 2026-11-02 09:00:00 UTC.

use crate::sim::SimRng;

/// The sample names.
pub const SAMPLES: [&str; 2] = ["api", "login"];

/// 2026-11-02T09:00:00Z, s since the epoch.
const START: i64 = 1_793_610_000;

/// One request: ms from the start, address, method, path, status.
type Request = (u64, String, &'static str, &'static str, u16);

/// The referer and user agent each group sends, so lines are as long as real combined ones
/// (~200 bytes).
fn agent(ip: &str) -> (&'static str, &'static str) {
    const BROWSER: &str =
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    match ip.as_bytes()[..4] {
        [b'2', b'0', b'3', _] => ("-", "python-requests/2.32.3"),
        [b'1', b'9', b'8', _] | [b'1', b'9', b'2', _] => ("-", "curl/8.5.0"),
        _ => ("https://app.example.com/dashboard", BROWSER),
    }
}

/// Poisson arrivals at `per_sec` within one minute, ms from its start.
fn poisson_minute(rng: &mut SimRng, per_sec: f64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut t = rng.exponential(1e9 / per_sec) / 1_000_000;
    while t < 60_000 {
        out.push(t);
        t += (rng.exponential(1e9 / per_sec) / 1_000_000).max(1);
    }
    out
}

/// The addresses of each group of clients.
fn address(group: &str, i: u64) -> String {
    match group {
        "client" => format!("10.{}.{}.{}", 1 + i / 250, (i * 7) % 250, 10 + i % 200),
        "scraper" => format!("203.0.113.{}", 50 + i),
        "user" => format!("10.20.{}.{}", i / 100, 10 + i % 100),
        "stuffer" => format!("192.0.2.{}", 10 + i),
        _ => format!("198.51.{}.{}", 100 + i / 250, i % 250),
    }
}

/// The requests of minute `m` of the `name` sample (`bots`: the botnet's attempts, drawn up
/// front, consumed as their minute comes).
fn minute(
    name: &str,
    m: u64,
    rng: &mut SimRng,
    bots: &mut std::iter::Peekable<std::vec::IntoIter<(u64, u64)>>,
) -> Vec<Request> {
    const PATHS: [&str; 4] = ["/api/v1/items", "/api/v1/items/42", "/api/v1/search", "/api/v1/me"];
    let base = m * 60_000;
    let mut requests: Vec<Request> = Vec::new();
    let mut each = |rng: &mut SimRng,
                    group: &str,
                    count: u64,
                    per_sec: f64,
                    what: &mut dyn FnMut(&mut SimRng) -> (&'static str, &'static str, u16)| {
        for i in 0..count {
            let ip = address(group, i);
            for t in poisson_minute(rng, per_sec) {
                let (method, path, status) = what(rng);
                requests.push((base + t, ip.clone(), method, path, status));
            }
        }
    };
    if name == "api" {
        each(rng, "client", 300, 0.05, &mut |rng| ("GET", PATHS[rng.below(4) as usize], 200));
        each(rng, "scraper", 3, 15.0, &mut |_| ("GET", "/api/v1/search", 200));
        for k in 0..60 {
            requests.push((base + k * 15, "198.51.100.7".into(), "POST", "/api/v1/reports", 202));
        }
    } else {
        each(rng, "user", 200, 1.0 / 120.0, &mut |rng| ("POST", "/login", if rng.below(10) == 0 { 401 } else { 200 }));
        each(rng, "stuffer", 40, 3.0, &mut |_| ("POST", "/login", 401));
        while let Some((t, b)) = bots.next_if(|&(t, _)| t < base + 60_000) {
            requests.push((t, address("bot", b), "POST", "/login", 401));
        }
    }
    requests.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    requests
}

/// Writes the `name` sample (`api` or `login`) over `minutes`, from `seed`, to `out`, a minute
/// at a time (so a log of any length takes a minute's memory); `Ok(false)` for another name.
pub fn write_sample(name: &str, seed: u64, minutes: u64, out: &mut impl std::io::Write) -> std::io::Result<bool> {
    if !SAMPLES.contains(&name) {
        return Ok(false);
    }
    let mut rng = SimRng::new(seed);
    let mut bots: Vec<(u64, u64)> = Vec::new();
    if name == "login" {
        for b in 0..2000u64 {
            for _ in 0..1 + rng.below(2) {
                bots.push((rng.below(minutes * 60_000), b));
            }
        }
        bots.sort_unstable();
    }
    let mut bots = bots.into_iter().peekable();
    let mut line = String::with_capacity(128);
    for m in 0..minutes {
        let mut second = (u64::MAX, String::new());
        for (t, ip, method, path, status) in minute(name, m, &mut rng, &mut bots) {
            if second.0 != t / 1000 {
                second = (t / 1000, clf_time(START + (t / 1000) as i64));
            }
            line.clear();
            let bytes = if status == 200 { 512 } else { 0 };
            use std::fmt::Write as _;
            let (referer, agent) = agent(&ip);
            let _ = writeln!(
                line,
                "{ip} - - [{}] \"{method} {path} HTTP/1.1\" {status} {bytes} \"{referer}\" \"{agent}\"",
                second.1
            );
            out.write_all(line.as_bytes())?;
        }
    }
    Ok(true)
}

/// The `name` sample (`api` or `login`) over `minutes`, from `seed`, as one text; `None` for
/// another name.
///
/// ```
/// use ratelimit_playground::sim::logs::samples::sample_log;
/// let log = sample_log("api", 1, 1).unwrap();
/// assert!(log.starts_with("10.") || log.starts_with("203.") || log.starts_with("198."));
/// assert_eq!(log, sample_log("api", 1, 1).unwrap(), "the same seed, the same bytes");
/// ```
pub fn sample_log(name: &str, seed: u64, minutes: u64) -> Option<String> {
    let mut out = Vec::with_capacity(minutes as usize * 400_000);
    write_sample(name, seed, minutes, &mut out)
        .expect("writing to memory")
        .then(|| String::from_utf8(out).expect("ASCII"))
}

/// A combined-format log over `minutes`, from `seed`: `clients` well-behaved clients (a request
/// every ~20 s each, at `10.…`) and one scraper per rate of `scrapers` (at `203.0.113.50`, `.51`,
/// …) that bursts for 10 s of every minute, from a second drawn each minute, at that many
/// requests/s.
///
/// ```
/// use ratelimit_playground::sim::logs::samples::crowd_log;
/// let log = crowd_log(1, 2, 10, &[30.0]);
/// assert!((500..700).contains(&log.lines().filter(|l| l.starts_with("203.0.113.50 ")).count()));
/// ```
pub fn crowd_log(seed: u64, minutes: u64, clients: u64, scrapers: &[f64]) -> String {
    let mut rng = SimRng::new(seed);
    let mut out = String::new();
    for m in 0..minutes {
        let base = m * 60_000;
        let mut requests: Vec<(u64, String)> = Vec::new();
        for i in 0..clients {
            let ip = address("client", i);
            requests.extend(poisson_minute(&mut rng, 0.05).into_iter().map(|t| (base + t, ip.clone())));
        }
        for (i, &rate) in scrapers.iter().enumerate() {
            let (ip, from) = (address("scraper", i as u64), rng.below(50) * 1000);
            let burst = poisson_minute(&mut rng, rate).into_iter().filter(|&t| t < 10_000);
            requests.extend(burst.map(|t| (base + from + t, ip.clone())));
        }
        requests.sort();
        for (t, ip) in requests {
            let (referer, agent) = agent(&ip);
            out.push_str(&format!(
                "{ip} - - [{}] \"GET /api/v1/items HTTP/1.1\" 200 512 \"{referer}\" \"{agent}\"\n",
                clf_time(START + (t / 1000) as i64)
            ));
        }
    }
    out
}

/// `secs` since the epoch as the common log format writes it, in UTC.
fn clf_time(secs: i64) -> String {
    const MONTHS: [&str; 12] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{d:02}/{}/{y}:{:02}:{:02}:{:02} +0000", MONTHS[m as usize - 1], rem / 3600, rem % 3600 / 60, rem % 60)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::logs::{shadow, KeyBy};
    use crate::sim::Scenario;

    #[test]
    fn the_dates_read_back() {
        assert_eq!(clf_time(START), "02/Nov/2026:09:00:00 +0000");
        assert_eq!(
            crate::sim::logs::stamp::clf(&clf_time(START + 86_400 * 60 + 59)).unwrap().ms,
            (START + 86_400 * 60 + 59) * 1000
        );
    }

    #[test]
    fn a_modest_policy_throttles_the_scrapers_and_the_cron_job_not_the_clients() {
        let sc = Scenario::from_query("capacity=20&refill=2").unwrap();
        let r = shadow(sample_log("api", 3, 5).unwrap().as_bytes(), None, &KeyBy::Ip, &sc).unwrap();
        let throttled: Vec<&str> = r
            .ranked()
            .into_iter()
            .take_while(|&i| r.per_key[i as usize].rejected > 0)
            .map(|i| r.read.keys.name(i))
            .collect();
        assert_eq!(throttled.len(), 4, "{throttled:?}");
        assert!(
            throttled.contains(&"198.51.100.7")
                && throttled.iter().filter(|k| k.starts_with("203.0.113.")).count() == 3
        );
        assert_eq!(r.read.keys.len(), 304);
        let login = shadow(
            sample_log("login", 3, 5).unwrap().as_bytes(),
            None,
            &KeyBy::Ip,
            &Scenario::from_query("capacity=5&refill=0.1").unwrap(),
        )
        .unwrap();
        assert_eq!(login.keys_throttled(), 40, "the 40 stuffing addresses, not the users or the botnet's");
    }
}
