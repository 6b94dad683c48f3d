//! The reader's tests: whole seconds spread per key, lines out of order, bad files, keys.

use super::*;

fn read(text: &str, key: KeyBy) -> Result<(Vec<(u64, String)>, ReadSummary), LogError> {
    let mut got = Vec::new();
    let summary = read_log(text.as_bytes(), None, &key, |a| got.push(a))?;
    Ok((
        got.into_iter().map(|a| (a.at.as_nanos() / 1_000_000, summary.keys.name(a.key).to_string())).collect(),
        summary,
    ))
}

fn clf_line(ip: &str, second: u32) -> String {
    format!("{ip} - - [14/Nov/2023:22:13:{second:02} +0000] \"GET /a HTTP/1.1\" 200 5\n")
}

#[test]
fn a_keys_n_requests_of_one_second_are_spread_by_its_own_requests_and_name() {
    let log: String =
        ["a", "b", "a", "a", "c", "c"].iter().map(|ip| clf_line(ip, 20)).chain([clf_line("b", 21)]).collect();
    let (got, summary) = read(&log, KeyBy::Ip).unwrap();
    let origin_ms = 1_699_920_000_000; // the midnight before 22:13:20 UTC
    let second = 1_700_000_000; // 22:13:20 UTC
                                // The k-th of a key's n in a second, ms after the origin.
    let at = |key: &str, k: u64, n: u64, second: i64| {
        let ns = super::super::order::spread(second, k, n, super::super::keys::phase_ns(key));
        ((ns / 1_000_000 - origin_ms) as u64, key.to_string())
    };
    let mut want = vec![
        at("a", 0, 3, second),
        at("a", 1, 3, second),
        at("a", 2, 3, second),
        at("b", 0, 1, second),
        at("c", 0, 2, second),
        at("c", 1, 2, second),
        at("b", 0, 1, second + 1),
    ];
    want.sort();
    assert_eq!(got, want, "in time order");
    let a: Vec<u64> = got.iter().filter(|g| g.1 == "a").map(|g| g.0).collect();
    assert!((333..=334).contains(&(a[1] - a[0])) && a[2] < 80_001_000, "1/n apart within the second: {a:?}");
    assert_eq!((summary.keys.len(), summary.requests, summary.origin_ms), (3, 7, origin_ms));
}

#[test]
fn a_little_out_of_order_is_sorted_and_counted_and_a_jump_back_is_named() {
    let log = "1000\n3000\n2000\n9000\n";
    let (got, summary) = read(log, KeyBy::Global).unwrap();
    assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), [1000, 2000, 3000, 9000], "a times log starts at 0");
    assert_eq!(summary.reordered, 1);
    let e = read("1000\n20000\n2000\n", KeyBy::Global).unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    assert!(e.to_string().contains("at most 5 s out of order"), "{e}");
}

#[test]
fn whole_seconds_and_fractions_mixed_still_come_out_in_time_order() {
    // Date.now()/1000 prints a whole second now and then: that second's requests are spread
    // over it from the key's phase, so a 0.5 s before it may have to wait for them.
    for key in ["a", "b", "c", "d"] {
        let stamps = ["1700000000.5", "1700000000", "1700000005.6", "1700000006.1", "1700000012.25"];
        let log: String = stamps.iter().map(|t| format!("{{\"ts\": {t}, \"ip\": \"{key}\"}}\n")).collect();
        let (got, _) = read(&log, KeyBy::Ip).unwrap();
        let times: Vec<u64> = got.iter().map(|g| g.0 - 80_000_000).collect();
        let mut want = vec![super::super::keys::phase_ns(key) / 1_000_000, 500, 5600, 6100, 12250];
        want.sort();
        assert_eq!(times, want, "{key}");
    }
}

#[test]
fn stamps_out_of_any_calendar_are_skipped_not_overflowed() {
    let far = "1 - - [14/Nov/9999:22:13:20 +0000] \"GET / HTTP/1.1\" 200 5\n";
    let log = format!("{}{far}{}", clf_line("a", 20), clf_line("a", 21));
    let (got, summary) = read(&log, KeyBy::Ip).unwrap();
    assert_eq!((got.len(), summary.skipped), (2, (1, Some(2))));
}

#[test]
fn bad_files_are_named_by_their_line() {
    assert_eq!(read("", KeyBy::Ip).unwrap_err().to_string(), "log: is empty: no request to replay");
    assert_eq!(read("hello\n", KeyBy::Ip).unwrap_err().line, 1);
    let e = read_log(&b"1000\n\xff\xfe\n"[..], None, &KeyBy::Ip, |_| {}).unwrap_err();
    assert_eq!((e.line, e.message.as_str()), (2, "is not UTF-8 text (at byte 0)"));
    let e = read_log(&b"10\n\x00\x01\x02"[..], None, &KeyBy::Ip, |_| {}).unwrap_err();
    assert!(e.message.contains("binary"), "{e}");
    let long = format!("1000\n{}\n", "9".repeat(MAX_LINE + 10));
    assert!(read(&long, KeyBy::Ip).unwrap_err().message.contains("longer than 65536 bytes"));
    let mostly_bad: String = (0..30).map(|i| if i % 2 == 0 { clf_line("a", 1) } else { "garbage\n".into() }).collect();
    let e = read(&mostly_bad, KeyBy::Ip).unwrap_err();
    assert_eq!(e.line, 2, "{e}");
}

#[test]
fn keys_come_from_the_address_a_field_the_path_or_nothing() {
    let log = "{\"time\": 1700000000.1, \"ip\": \"x\", \"user\": \"u1\", \"path\": \"/p?q=1\"}\n{\"time\": 1700000000.2, \"ip\": \"y\", \"path\": \"/p\"}\n";
    let names = |k: KeyBy| read(log, k).unwrap().0.into_iter().map(|g| g.1).collect::<Vec<_>>();
    assert_eq!(names(KeyBy::Ip), ["x", "y"]);
    assert_eq!(names(KeyBy::Field("user".into())), ["u1", "-"]);
    assert_eq!(names(KeyBy::Path), ["/p", "/p"]);
    assert_eq!(names(KeyBy::Global), ["*", "*"]);
}
