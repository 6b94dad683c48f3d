//! One request of a log as a format reads it ([`Entry`]): its time, address and path, and its
//! other fields, read only when a key asks for one.

use std::borrow::Cow;

use super::stamp::Stamp;

/// One request of a log.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry<'a> {
    /// When.
    pub stamp: Stamp,
    /// For `times`, the exact time in ms (decimals kept).
    pub exact_ms: Option<f64>,
    /// The client address.
    pub ip: Cow<'a, str>,
    /// The request path (without the query), where the format gives it apart; see [`Entry::path`].
    pub path: Cow<'a, str>,
    /// The request line (`GET /path?q HTTP/1.1`), where the format has one: its path is read
    /// from it only when a key asks for it.
    pub request: &'a str,
    /// The other named fields: (name, value). Empty for the combined format, whose fields are
    /// read from `combined` only when a key asks for one.
    pub fields: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    /// The combined format's text before its time (`- user`) and after it, for [`Entry::field`].
    pub combined: Option<(&'a str, &'a str)>,
}

impl<'a> Entry<'a> {
    pub(super) fn at(stamp: Stamp, exact: f64) -> Self {
        Entry {
            stamp,
            exact_ms: Some(exact),
            ip: Cow::Borrowed(""),
            path: Cow::Borrowed(""),
            request: "",
            fields: Vec::new(),
            combined: None,
        }
    }

    /// When, ns since the epoch: the exact time where the format keeps one finer than a ms.
    pub fn ns(&self) -> i64 {
        match self.exact_ms {
            Some(exact) => (exact * 1e6).round() as i64,
            None => self.stamp.ms * 1_000_000,
        }
    }

    /// The request path, without its query.
    pub fn path(&self) -> &str {
        if self.path.is_empty() && !self.request.is_empty() {
            request_path(self.request)
        } else {
            &self.path
        }
    }

    /// The value of field `name`: a JSON or CSV field, or the combined format's `user`, `method`,
    /// `status`, `referer` or `agent`.
    pub fn field(&self, name: &str) -> Option<&str> {
        if let Some((before, after)) = self.combined {
            let q = quoted(after);
            return match name {
                "user" => Some(before.trim().split(' ').nth(1).unwrap_or("-")),
                "method" => q.first().map(|r| r.split(' ').next().unwrap_or("")),
                "status" => after.split('"').nth(2).and_then(|s| s.split_whitespace().next()),
                "referer" => q.get(1).copied(),
                "agent" => q.get(2).copied(),
                _ => None,
            };
        }
        self.fields.iter().find(|(k, _)| k == name).map(|(_, v)| &**v)
    }
}

/// The path of a request line `METHOD PATH PROTO` (or a full URL), without its query.
pub(super) fn request_path(request: &str) -> &str {
    let b = request.as_bytes();
    let start = b.iter().position(|&c| c == b' ').map_or(b.len(), |i| i + 1);
    let end = start + b[start..].iter().position(|&c| c == b' ').unwrap_or(b.len() - start);
    let target = &request[start..end];
    // An absolute URL (`GET http://host/path`, proxies) names its path after the host.
    let scheme = if target.starts_with('/') { None } else { target.find("://") };
    let target = match scheme {
        Some(i) => target[i + 3..].find('/').map_or("/", |j| &target[i + 3 + j..]),
        None => target,
    };
    let cut = target.as_bytes().iter().position(|&c| c == b'?' || c == b'#').unwrap_or(target.len());
    &target[..cut]
}

/// The quoted strings of `s`, in order (`\"` inside kept as is).
pub(super) fn quoted(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'"' {
            let start = i + 1;
            let mut j = start;
            while j < b.len() && !(b[j] == b'"' && b[j - 1] != b'\\') {
                j += 1;
            }
            out.push(&s[start..j.min(b.len())]);
            i = j + 1;
        } else {
            i += 1;
        }
    }
    out
}
