//! The log's heaviest keys offered for a live replay, as markup the worker adds under the sizing
//! table: a choice of key (`#log-watch-key`, each option carrying its times in `data-times`, ms
//! from `data-base` (ns), comma-separated, as a trace reads them) and the button the page
//! replays it by (`#log-watch-go`, through [`crate::sim::logs::watch::replay`]).

use crate::markup::escape;
use crate::present::units::{format_secs, group_thousands};
use crate::sim::logs::keys::Keys;
use crate::sim::logs::watch::{Watched, MAX_WATCHED};

/// The watch block, or nothing when no key can be replayed.
///
/// ```
/// use ratelimit_playground::present::log_report::watch::watch_markup;
/// assert_eq!(watch_markup(&[], &Default::default()), "");
/// ```
pub fn watch_markup(watched: &[Watched], keys: &Keys) -> String {
    if watched.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "<div class=\"log-watch\" id=\"log-watch\"><label for=\"log-watch-key\">Watch one client's requests replayed live in the playground, under its policy:</label><div class=\"log-watch-row\"><select id=\"log-watch-key\">",
    );
    for (i, w) in watched.iter().enumerate() {
        let times = w.trace.to_text().trim_end().replace('\n', ",");
        let t = w.trace.times();
        let span = (t[t.len() - 1] - t[0]) as f64 / 1e9;
        let cut = if w.trace.len() as u64 == w.requests {
            String::new()
        } else {
            format!(", its first {}", group_thousands(w.trace.len() as u64))
        };
        out.push_str(&format!(
            "<option value=\"{i}\" data-key=\"{}\" data-base=\"{}\" data-times=\"{times}\">{} — {} requests over {}{cut}</option>",
            escape(keys.name(w.key)),
            w.base,
            escape(keys.name(w.key)),
            group_thousands(w.requests),
            format_secs(span),
        ));
    }
    out.push_str(&format!(
        "</select><button type=\"button\" id=\"log-watch-go\">Watch it live ↑</button></div><p class=\"hint\">The heaviest clients of the log, at most {} requests or a day each; the replay starts at the window its first request falls in.</p></div>",
        group_thousands(MAX_WATCHED as u64)
    ));
    out
}
