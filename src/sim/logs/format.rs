//! The access-log formats the shadow report reads, one line at a time, into an [`Entry`]: its
//! time, client address, path and the other fields a key may name.
//!
//! - `combined` / `common`: nginx's and Apache's default `$remote_addr - $remote_user
//!   [$time_local] "$request" $status $body_bytes_sent ["$http_referer" "$http_user_agent"]`;
//! - `msec`: nginx with `$msec` first (`1700000000.123 10.0.0.1 "GET / HTTP/1.1" 200 …`);
//! - `json`: one object per line, the time in `time`, `timestamp`, `@timestamp`, `ts`, `msec` or
//!   `time_local` (or the field named by `json:FIELD`), ISO 8601 or epoch seconds/milliseconds;
//! - `csv`: a header line, then rows (the time column found as for JSON, or `csv:FIELD`);
//! - `alb`: AWS Application Load Balancer access logs;
//! - `cloudfront`: Amazon CloudFront standard logs (tab-separated, `#` header lines);
//! - `times`: the playground's trace format, one time in milliseconds per line.

use std::borrow::Cow;

use super::csv::csv;
use super::entry::quoted;
pub use super::entry::Entry;
use super::fields::{named, TIME_FIELDS};
use super::stamp::{clf, epoch, iso8601, Stamp};

/// A log format, with the field holding the time for `json` and `csv`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// Combined or common log format (one parser: the referer and agent are optional).
    Combined,
    /// nginx with `$msec` as the first field.
    Msec,
    /// JSON lines; the time field (`None`: the first of [`TIME_FIELDS`] present).
    Json(Option<String>),
    /// CSV with a header; the time column (`None`: the first of [`TIME_FIELDS`] present).
    Csv(Option<String>),
    /// AWS ALB.
    Alb,
    /// Amazon CloudFront.
    CloudFront,
    /// One time in milliseconds per line.
    Times,
}

/// The names `log_format=` takes.
pub const FORMAT_NAMES: &str = "combined | common | msec | json[:FIELD] | csv[:FIELD] | alb | cloudfront | times";

impl LogFormat {
    /// Reads `log_format=`'s value.
    ///
    /// ```
    /// use ratelimit_playground::sim::logs::format::LogFormat;
    /// assert_eq!(LogFormat::named("json:ts"), Ok(LogFormat::Json(Some("ts".into()))));
    /// assert!(LogFormat::named("apache2").unwrap_err().contains("combined | common"));
    /// ```
    pub fn named(s: &str) -> Result<LogFormat, String> {
        let (name, field) = match s.split_once(':') {
            Some((n, f)) if !f.is_empty() => (n, Some(f.to_string())),
            _ => (s, None),
        };
        match (name, field) {
            ("combined" | "common", None) => Ok(LogFormat::Combined),
            ("msec", None) => Ok(LogFormat::Msec),
            ("json", f) => Ok(LogFormat::Json(f)),
            ("csv", f) => Ok(LogFormat::Csv(f)),
            ("alb", None) => Ok(LogFormat::Alb),
            ("cloudfront", None) => Ok(LogFormat::CloudFront),
            ("times", None) => Ok(LogFormat::Times),
            _ => Err(format!("'{s}' is not a log format; known: {FORMAT_NAMES}")),
        }
    }

    /// Its name, as `log_format=` spells it.
    pub fn name(&self) -> String {
        match self {
            LogFormat::Combined => "combined".into(),
            LogFormat::Msec => "msec".into(),
            LogFormat::Json(f) => f.as_ref().map_or("json".into(), |f| format!("json:{f}")),
            LogFormat::Csv(f) => f.as_ref().map_or("csv".into(), |f| format!("csv:{f}")),
            LogFormat::Alb => "alb".into(),
            LogFormat::CloudFront => "cloudfront".into(),
            LogFormat::Times => "times".into(),
        }
    }

    /// The format of a log whose first line (not blank, not a `#` comment but CloudFront's
    /// `#Version`/`#Fields`) is `line`, if one fits.
    pub fn detect(line: &str) -> Option<LogFormat> {
        let line = line.trim_end_matches(['\r', '\n']);
        if line.starts_with("#Version:") || line.starts_with("#Fields: date") {
            return Some(LogFormat::CloudFront);
        }
        if line.trim_start().starts_with('{') {
            return Some(LogFormat::Json(None));
        }
        let candidates =
            [LogFormat::Combined, LogFormat::Msec, LogFormat::Alb, LogFormat::CloudFront, LogFormat::Times];
        if let Some(f) = candidates.into_iter().find(|f| f.parse(line, &[]).is_some()) {
            return Some(f);
        }
        let header: Vec<&str> = line.split(',').map(str::trim).collect();
        (header.len() > 1 && header.iter().any(|h| TIME_FIELDS.contains(h))).then_some(LogFormat::Csv(None))
    }

    /// Parses one line (`header`: a CSV log's column names). `None` if it does not fit.
    pub fn parse<'a>(&self, line: &'a str, header: &[String]) -> Option<Entry<'a>> {
        match self {
            LogFormat::Combined => combined(line),
            LogFormat::Msec => msec(line),
            LogFormat::Json(field) => json(line, field.as_deref()),
            LogFormat::Csv(field) => csv(line, header, field.as_deref()),
            LogFormat::Alb => alb(line),
            LogFormat::CloudFront => cloudfront(line),
            LogFormat::Times => {
                let t: f64 = line.trim().parse().ok()?;
                (t.is_finite() && t >= 0.0).then(|| Entry::at(Stamp { ms: t as i64, whole_second: false }, t))
            }
        }
    }
}

/// Where the byte `b` first is in `s`: a plain scan, quicker than `str::find` over the few bytes
/// between a combined line's fields.
fn byte(s: &str, b: u8) -> Option<usize> {
    s.as_bytes().iter().position(|&c| c == b)
}

fn combined(line: &str) -> Option<Entry<'_>> {
    let space = byte(line, b' ')?;
    let (ip, rest) = (&line[..space], &line[space + 1..]);
    let open = byte(rest, b'[')?;
    // The time is nearly always `dd/Mon/yyyy:hh:mm:ss +zzzz`, 26 bytes: look there first.
    let close = match rest.as_bytes().get(open + 27) {
        Some(b']') => open + 27,
        _ => open + rest[open..].find(']')?,
    };
    let stamp = clf(&rest[open + 1..close])?;
    let after = &rest[close + 1..];
    // The request is the first quoted string, nearly always right after a space.
    let start = if after.as_bytes().get(1) == Some(&b'"') { 2 } else { byte(after, b'"')? + 1 };
    let request = &after[start..start + byte(&after[start..], b'"')?];
    (!ip.is_empty()).then(|| Entry {
        stamp,
        exact_ms: None,
        ip: ip.into(),
        path: Cow::Borrowed(""),
        request,
        fields: Vec::new(),
        combined: Some((&rest[..open], after)),
    })
}

fn msec(line: &str) -> Option<Entry<'_>> {
    let mut parts = line.splitn(3, ' ');
    let stamp = epoch(parts.next()?)?;
    let ip = parts.next()?;
    let request = *quoted(parts.next().unwrap_or("")).first()?;
    (!stamp.whole_second).then(|| Entry {
        stamp,
        exact_ms: None,
        ip: ip.into(),
        path: Cow::Borrowed(""),
        request,
        fields: Vec::new(),
        combined: None,
    })
}

fn json<'a>(line: &'a str, field: Option<&str>) -> Option<Entry<'a>> {
    let value: serde_json::Value = serde_json::from_str(line).ok()?;
    let object = value.as_object()?;
    let text = |v: &serde_json::Value| match v {
        serde_json::Value::String(s) => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    };
    let fields: Vec<(Cow<str>, Cow<str>)> =
        object.iter().filter_map(|(k, v)| text(v).map(|t| (k.clone().into(), t.into()))).collect();
    named(fields, field)
}

fn alb(line: &str) -> Option<Entry<'_>> {
    // type time elb client:port target:port rpt tpt rspt elb_status target_status rb sb "request" …
    let mut parts = line.splitn(5, ' ');
    let kind = parts.next()?;
    if !matches!(kind, "http" | "https" | "h2" | "grpcs" | "ws" | "wss") {
        return None;
    }
    let stamp = iso8601(parts.next()?)?;
    let _elb = parts.next()?;
    let client = parts.next()?;
    let ip = client.rsplit_once(':').map_or(client, |(ip, _)| ip);
    let request = *quoted(parts.next().unwrap_or("")).first()?;
    Some(Entry {
        stamp,
        exact_ms: None,
        ip: ip.into(),
        path: Cow::Borrowed(""),
        request,
        fields: Vec::new(),
        combined: None,
    })
}

fn cloudfront(line: &str) -> Option<Entry<'_>> {
    // date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status …
    let f: Vec<&str> = line.split('\t').collect();
    if f.len() < 9 {
        return None;
    }
    let stamp = iso8601(&format!("{}T{}Z", f[0], f[1]))?;
    let fields: Vec<(Cow<str>, Cow<str>)> =
        vec![("method".into(), f[5].into()), ("host".into(), f[6].into()), ("status".into(), f[8].into())];
    Some(Entry { stamp, exact_ms: None, ip: f[4].into(), path: f[7].into(), request: "", fields, combined: None })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::logs::csv::csv_header;

    const COMBINED: &str = r#"203.0.113.7 - alice [14/Nov/2023:22:13:20 +0000] "GET /api/v1/items?page=2 HTTP/1.1" 200 512 "https://example.org/" "curl/8.4.0""#;

    #[test]
    fn each_format_is_detected_from_its_first_line_and_read() {
        let cases = [
            (COMBINED, LogFormat::Combined, "203.0.113.7", "/api/v1/items"),
            (
                r#"203.0.113.7 - - [14/Nov/2023:22:13:20 +0000] "POST /login HTTP/1.1" 401 0"#,
                LogFormat::Combined,
                "203.0.113.7",
                "/login",
            ),
            (r#"1700000000.250 198.51.100.2 "GET /x HTTP/2.0" 200 10"#, LogFormat::Msec, "198.51.100.2", "/x"),
            (
                r#"http 2023-11-14T22:13:20.250123Z app/my-lb/50dc6c495c0c9188 192.0.2.9:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 "GET http://example.org:80/health?x=1 HTTP/1.1" "curl/8" - -"#,
                LogFormat::Alb,
                "192.0.2.9",
                "/health",
            ),
            (
                "2023-11-14\t22:13:20\tIAD89-P1\t1045\t192.0.2.10\tGET\td111.cloudfront.net\t/index.html\t200\t-",
                LogFormat::CloudFront,
                "192.0.2.10",
                "/index.html",
            ),
        ];
        for (line, format, ip, path) in cases {
            assert_eq!(LogFormat::detect(line), Some(format.clone()), "{line}");
            let e = format.parse(line, &[]).unwrap();
            assert_eq!((&*e.ip, e.path()), (ip, path), "{line}");
            assert_eq!(e.stamp.ms / 1000, 1_700_000_000, "{line}");
        }
        assert!(LogFormat::Combined.parse(COMBINED, &[]).unwrap().stamp.whole_second);
        let e = LogFormat::Combined.parse(COMBINED, &[]).unwrap();
        assert_eq!(
            (e.field("agent"), e.field("user"), e.field("status"), e.field("method")),
            (Some("curl/8.4.0"), Some("alice"), Some("200"), Some("GET"))
        );
    }

    #[test]
    fn json_and_csv_find_the_time_address_and_named_fields() {
        let line =
            r#"{"ts": "2023-11-14T22:13:20.5Z", "remote_addr": "192.0.2.1", "uri": "/a?b", "api_key": "k-1", "n": 3}"#;
        assert_eq!(LogFormat::detect(line), Some(LogFormat::Json(None)));
        let e = LogFormat::Json(None).parse(line, &[]).unwrap();
        assert_eq!(
            (e.stamp.ms, e.field("api_key"), &*e.ip, e.path()),
            (1_700_000_000_500, Some("k-1"), "192.0.2.1", "/a")
        );
        let header = csv_header("timestamp,client_ip,path,user");
        assert_eq!(LogFormat::detect("timestamp,client_ip,path,user"), Some(LogFormat::Csv(None)));
        let e = LogFormat::Csv(None).parse("1700000000123,192.0.2.4,\"/q,1\",bob", &header).unwrap();
        assert_eq!((e.stamp.ms, e.field("user"), e.path()), (1_700_000_000_123, Some("bob"), "/q,1"));
        assert!(LogFormat::Csv(None).parse("1,2", &header).is_none(), "a row of the wrong width");
    }

    #[test]
    fn what_no_format_fits_is_not_detected() {
        for line in ["hello world", "\u{0}\u{1}binary", "GET / HTTP/1.1"] {
            assert_eq!(LogFormat::detect(line), None, "{line}");
        }
        assert_eq!(LogFormat::detect("120.5"), Some(LogFormat::Times));
    }
}
