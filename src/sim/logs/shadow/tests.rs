//! Shadow mode's tests: one limiter per key, idle keys dropped without changing a decision, and
//! each key's limiter told its client and the log's own days.

use super::*;
use crate::sim::time::EPOCH_S;

fn log(lines: &[(u64, &str)]) -> String {
    lines
        .iter()
        .map(|(ms, ip)| format!("{{\"msec\": {}.{:03}, \"ip\": \"{ip}\"}}\n", 1_700_000_000 + ms / 1000, ms % 1000))
        .collect()
}

#[test]
fn each_key_has_its_own_limiter() {
    let sc = Scenario::from_query("capacity=2&refill=1").unwrap();
    // a sends 4 at once (2 pass), b sends 2 (both pass).
    let text = log(&[(0, "a"), (1, "a"), (2, "b"), (3, "a"), (4, "a"), (5, "b")]);
    let r = shadow(text.as_bytes(), None, &KeyBy::Ip, &sc).unwrap();
    assert_eq!((r.requests, r.admitted, r.rejected, r.read.keys.len(), r.keys_throttled()), (6, 4, 2, 2, 1));
    let top = r.ranked()[0];
    assert_eq!((r.read.keys.name(top), r.per_key[top as usize].peak_1s), ("a", 4));
    assert_eq!(r.rejections, [2]);
    let (a, b) = (r.ranked()[0] as usize, r.ranked()[1] as usize);
    let at = |ms: u64| Some(SimTime(r.first.as_nanos() + ms * 1_000_000));
    assert_eq!((r.first_rejected[a], r.first_rejected[b]), (at(3), None), "a's third request is its first 429");
    let global = shadow(text.as_bytes(), None, &KeyBy::Global, &sc).unwrap();
    assert_eq!((global.admitted, global.read.keys.len()), (2, 1), "one key: one bucket for everyone");
}

#[test]
fn rejections_over_time_keep_at_most_600_buckets_doubling_their_width() {
    let (mut counts, mut bucket) = (Vec::new(), 1_000_000_000);
    count_rejection(&mut counts, &mut bucket, 0);
    count_rejection(&mut counts, &mut bucket, 599_500_000_000);
    assert_eq!((counts.len(), bucket), (600, 1_000_000_000));
    count_rejection(&mut counts, &mut bucket, 1_300_000_000_000);
    assert_eq!((counts.len(), bucket, counts[0], counts[149], counts[325]), (326, 4_000_000_000, 1, 1, 1));
    assert_eq!(counts.iter().sum::<u64>(), 3);
}

#[test]
fn a_key_per_request_is_swept_now_and_then_not_every_request() {
    // 200 000 requests, each its own key (a request id): the idle scan runs once per as
    // many requests as there are keys, so this is linear, and the idle ones are dropped.
    let text: String = (0..200_000u64)
        .map(|i| format!("{{\"msec\": {}.{:03}, \"ip\": \"r{i}\"}}\n", 1_700_000_000 + i / 1000, i % 1000))
        .collect();
    let sc = Scenario::from_query("capacity=5&refill=1").unwrap();
    let r = shadow(text.as_bytes(), None, &KeyBy::Ip, &sc).unwrap();
    assert_eq!((r.read.keys.len(), r.admitted), (200_000, 200_000));
    assert!(r.dropped > 100_000 && r.live_peak < 200_000, "dropped {}, at most {} live", r.dropped, r.live_peak);
}

#[test]
fn dropping_idle_keys_changes_no_decision() {
    // Fifty keys in five groups that take turns for 30 s each, so each key idles 120 s
    // between its turns (the sweep runs every 2^16 requests, several times here): every
    // algorithm decides as one limiter per key kept forever does.
    let mut rng = crate::sim::SimRng::new(7);
    let (mut t, mut lines) = (0u64, Vec::new());
    for _ in 0..150_000 {
        t += rng.below(12);
        lines.push((t, format!("k{}", (t / 30_000) % 5 * 10 + rng.below(10))));
    }
    let text = log(&lines.iter().map(|(t, k)| (*t, k.as_str())).collect::<Vec<_>>());
    for algo in [
        "token_bucket",
        "fixed_window",
        "sliding_window",
        "sliding_log",
        "gcra",
        "nginx",
        "express",
        "upstash_sliding",
        "django_ratelimit",
    ] {
        let sc = Scenario::from_query(&format!("algo={algo}&capacity=5&refill=2&limit=5&window=2")).unwrap();
        let r = shadow(text.as_bytes(), None, &KeyBy::Ip, &sc).unwrap();
        assert!(r.dropped >= 40, "{algo}: idle keys were dropped ({} of them)", r.dropped);
        let mut kept: std::collections::HashMap<&str, AnyLimiter> = std::collections::HashMap::new();
        let origin = 80_000 * 1_000_000_000; // the log starts at 22:13:20 UTC
        let admitted = lines
            .iter()
            .filter(|(t, k)| {
                kept.entry(k.as_str())
                    .or_insert_with(|| {
                        let mut l = sc.limiter();
                        l.for_sender(k, EPOCH_S); // a log of 1970-01-01: no clock of its own
                        l
                    })
                    .check(SimTime(origin + t * 1_000_000))
                    .allowed
            })
            .count() as u64;
        assert_eq!(r.admitted, admitted, "{algo}");
    }
}

#[test]
fn windows_aligned_to_the_unix_clock_fall_on_the_log_s_own_days() {
    // 2026-03-15: 73 days after 2026-01-01, and 73 × 86 400 % 7 = 4, so 7 s periods on the
    // Unix clock fall 4 s differently that day than on the playground's 2026-01-01.
    let midnight = EPOCH_S + 73 * 86_400;
    let text: String = (0..120u64)
        .map(|i| format!("{{\"msec\": {}.{:03}, \"ip\": \"127.0.0.1\"}}\n", midnight + i / 2, i % 2 * 500))
        .collect();
    for algo in ["rack_attack", "django_ratelimit", "python_limits&limits_strategy=sliding_window_counter"] {
        let sc = Scenario::from_query(&format!("algo={algo}&limit=3&window=7")).unwrap();
        let r = shadow(text.as_bytes(), None, &KeyBy::Ip, &sc).unwrap();
        assert_eq!(r.read.origin_ms as u64, midnight * 1000);
        let on = |origin_s| {
            let mut l = sc.limiter();
            l.for_sender("127.0.0.1", origin_s);
            (0..120u64).filter(|&i| l.check(SimTime(i * 500_000_000)).allowed).count() as u64
        };
        assert_eq!(r.admitted, on(midnight), "{algo}");
        assert_ne!(on(midnight), on(EPOCH_S), "{algo}: the day changes where its windows fall");
    }
}

#[test]
fn a_product_whose_windows_depend_on_the_key_gets_each_client_s() {
    // django-ratelimit: two clients sending at the same instants, their 11 s windows
    // shifted by crc32 % 11 (8 for 127.0.0.1, 10 for 10.0.0.7): they are refused at
    // different requests, each as its own limiter decides.
    let mut text = String::new();
    for i in 0..60u64 {
        for ip in ["127.0.0.1", "10.0.0.7"] {
            text += &format!("{{\"msec\": {}.000, \"ip\": \"{ip}\"}}\n", 1_767_225_600 + i / 2);
        }
    }
    let sc = Scenario::from_query("algo=django_ratelimit&limit=10&window=11").unwrap();
    let r = shadow(text.as_bytes(), None, &KeyBy::Ip, &sc).unwrap();
    let per_key: Vec<(String, u64)> =
        (0..2).map(|k| (r.read.keys.name(k).to_string(), r.per_key[k as usize].admitted)).collect();
    let own = |ip: &str| {
        let mut l = sc.limiter();
        l.for_sender(ip, EPOCH_S); // the log's first midnight is 2026-01-01
                                   // Two requests a second at whole seconds, spread over the second as the reader does.
        (0..60u64).filter(|&i| l.check(SimTime(i / 2 * 1_000_000_000 + (i % 2) * 500_000_000)).allowed).count() as u64
    };
    assert_eq!(per_key, [("127.0.0.1".to_string(), own("127.0.0.1")), ("10.0.0.7".to_string(), own("10.0.0.7"))]);
    assert_ne!(per_key[0].1, per_key[1].1, "the shift changes what each client gets");
}

#[test]
fn a_held_request_reaches_the_server_when_its_key_s_queue_lets_it_go() {
    let sc = Scenario::from_query("algo=leaky_bucket&capacity=2&refill=1").unwrap();
    let text = log(&[(0, "a"), (0, "a"), (0, "a"), (0, "a"), (0, "b")]);
    let mut arrivals = Vec::new();
    let read = super::super::reader::read_log(text.as_bytes(), None, &KeyBy::Ip, |a| arrivals.push(a)).unwrap();
    let mut run = Shadow::without_peaks(&sc);
    let held: Vec<_> =
        arrivals.iter().map(|&a| run.push(a, read.sender(a)).then(|| run.held(a.key).as_nanos() / 1_000_000)).collect();
    // One leaves at once, two wait 1 s and 2 s, the fourth finds the queue full; b has its own.
    assert_eq!(held, [Some(0), Some(1_000), Some(2_000), None, Some(0)]);
}
