//! Two generated (not real) access logs in the combined format, from a seed, for trying shadow
//! mode without a log of one's own and for tests that need logs of any size:
//!
//! - `api`: an API with 300 well-behaved clients (a request every ~20 s each), three aggressive
//!   scrapers (~15 requests/s each) and a cron job that fires a burst of 60 requests in the first
//!   second of every minute;
//! - `login`: a login endpoint where 200 users sign in now and then, under credential stuffing
//!   from 40 addresses (~3 attempts/s each) and a botnet of 2 000 addresses trying once or twice.
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

/// Poisson arrivals at `per_sec` over `secs` seconds, ms from the start.
fn poisson(rng: &mut SimRng, per_sec: f64, secs: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut t = rng.exponential(1e9 / per_sec) / 1_000_000;
    while t < secs * 1000 {
        out.push(t);
        t += (rng.exponential(1e9 / per_sec) / 1_000_000).max(1);
    }
    out
}

/// The `name` sample (`api` or `login`) over `minutes`, from `seed`; `None` for another name.
///
/// ```
/// use ratelimit_playground::sim::logs::samples::sample_log;
/// let log = sample_log("api", 1, 1).unwrap();
/// assert!(log.starts_with("10.") || log.starts_with("203.") || log.starts_with("198."));
/// assert_eq!(log, sample_log("api", 1, 1).unwrap(), "the same seed, the same bytes");
/// ```
pub fn sample_log(name: &str, seed: u64, minutes: u64) -> Option<String> {
    let mut rng = SimRng::new(seed);
    let secs = minutes * 60;
    let mut requests: Vec<Request> = Vec::new();
    match name {
        "api" => {
            const PATHS: [&str; 4] = ["/api/v1/items", "/api/v1/items/42", "/api/v1/search", "/api/v1/me"];
            for c in 0..300u64 {
                let ip = format!("10.{}.{}.{}", 1 + c / 250, (c * 7) % 250, 10 + c % 200);
                for t in poisson(&mut rng, 0.05, secs) {
                    requests.push((t, ip.clone(), "GET", PATHS[rng.below(4) as usize], 200));
                }
            }
            for s in 0..3u64 {
                let ip = format!("203.0.113.{}", 50 + s);
                for t in poisson(&mut rng, 15.0, secs) {
                    requests.push((t, ip.clone(), "GET", "/api/v1/search", 200));
                }
            }
            for m in 0..minutes {
                for k in 0..60 {
                    requests.push((m * 60_000 + k * 15, "198.51.100.7".into(), "POST", "/api/v1/reports", 202));
                }
            }
        }
        "login" => {
            for u in 0..200u64 {
                let ip = format!("10.20.{}.{}", u / 100, 10 + u % 100);
                for t in poisson(&mut rng, 1.0 / 120.0, secs) {
                    requests.push((t, ip.clone(), "POST", "/login", if rng.below(10) == 0 { 401 } else { 200 }));
                }
            }
            for a in 0..40u64 {
                let ip = format!("192.0.2.{}", 10 + a);
                for t in poisson(&mut rng, 3.0, secs) {
                    requests.push((t, ip.clone(), "POST", "/login", 401));
                }
            }
            for b in 0..2000u64 {
                let ip = format!("198.51.{}.{}", 100 + b / 250, b % 250);
                for _ in 0..1 + rng.below(2) {
                    requests.push((rng.below(secs * 1000), ip.clone(), "POST", "/login", 401));
                }
            }
        }
        _ => return None,
    }
    requests.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    let mut out = String::with_capacity(requests.len() * 110);
    for (t, ip, method, path, status) in requests {
        out.push_str(&format!(
            "{ip} - - [{}] \"{method} {path} HTTP/1.1\" {status} {} \"-\" \"sample/1.0\"\n",
            clf_time(START + (t / 1000) as i64),
            if status == 200 { 512 } else { 0 }
        ));
    }
    Some(out)
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
