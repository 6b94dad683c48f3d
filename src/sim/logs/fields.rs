//! Lines read as named fields — a JSON object's, a CSV row's — into an [`Entry`] ([`named`]): the
//! time from the field named for it or the first of [`TIME_FIELDS`] that reads as one, the client
//! address and the path from the names logs usually give them.

use std::borrow::Cow;

use super::entry::{request_path, Entry};
use super::stamp::{clf, epoch, iso8601, Stamp};

/// Field names tried, in order, for the time of a JSON or CSV line.
pub const TIME_FIELDS: [&str; 7] = ["time", "timestamp", "@timestamp", "ts", "msec", "time_local", "time_iso8601"];
/// Field names tried for the client address.
const IP_FIELDS: [&str; 6] = ["remote_addr", "ip", "client_ip", "remote_ip", "client", "c-ip"];
/// Field names tried for the path.
const PATH_FIELDS: [&str; 6] = ["path", "uri", "request_uri", "url", "cs-uri-stem", "request"];

/// A time field's value: ISO 8601, epoch seconds or ms, or the common log format's.
fn any_stamp(v: &str) -> Option<Stamp> {
    iso8601(v).or_else(|| epoch(v)).or_else(|| clf(v))
}

/// The entry of a line read as named fields (JSON, CSV): the time from `time_field` or the first
/// of [`TIME_FIELDS`] that reads as one, the address and the path from the usual field names (a
/// whole request line gives its path).
pub(super) fn named<'a>(fields: Vec<(Cow<'a, str>, Cow<'a, str>)>, time_field: Option<&str>) -> Option<Entry<'a>> {
    let find =
        |names: &[&str]| names.iter().find_map(|n| fields.iter().find(|(k, _)| k == n).map(|(_, v)| v.to_string()));
    let stamp = match time_field {
        Some(f) => any_stamp(&find(&[f])?)?,
        None => TIME_FIELDS.iter().find_map(|f| find(&[f]).and_then(|v| any_stamp(&v)))?,
    };
    let ip = find(&IP_FIELDS).unwrap_or_default();
    let path = find(&PATH_FIELDS).map(|p| {
        if p.contains(' ') {
            request_path(&p).to_string()
        } else {
            p.split('?').next().unwrap_or("").to_string()
        }
    });
    Some(Entry {
        stamp,
        exact_ms: None,
        ip: ip.into(),
        path: path.unwrap_or_default().into(),
        request: "",
        fields,
        combined: None,
    })
}
