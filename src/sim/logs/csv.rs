//! CSV logs: a header line naming the columns, then one row per request (double-quoted fields,
//! `""` for a quote), read into named fields like a JSON line's.

use std::borrow::Cow;

use super::entry::Entry;
use super::fields::named;

/// Splits one CSV row (double-quoted fields, `""` for a quote).
fn csv_row(line: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.trim_end_matches(['\r', '\n']).chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                out.last_mut().expect("a field").push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => out.push(String::new()),
            (c, _) => out.last_mut().expect("a field").push(c),
        }
    }
    out
}

/// A CSV log's header row: its column names.
pub fn csv_header(line: &str) -> Vec<String> {
    csv_row(line).into_iter().map(|h| h.trim().to_string()).collect()
}

pub(super) fn csv<'a>(line: &'a str, header: &[String], field: Option<&str>) -> Option<Entry<'a>> {
    let row = csv_row(line);
    if header.is_empty() || row.len() != header.len() {
        return None;
    }
    let fields: Vec<(Cow<str>, Cow<str>)> =
        header.iter().map(|h| Cow::Owned(h.clone())).zip(row.into_iter().map(Cow::Owned)).collect();
    named(fields, field)
}
