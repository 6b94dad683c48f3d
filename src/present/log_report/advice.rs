//! The sizing assistant's advice as markup, the current policy first: what the policy in the
//! query does on the log (`#log-current`: the keys it throttles with their peaks against its
//! limit, and how many it spares), how the keys split into the bulk and the outliers
//! (`#log-split`), then the recommendation (`#log-recommendation`) with what it changes against
//! the current one — "keep it" when nothing should change — and, when it spares keys the current
//! policy throttles, a warning above the Apply button (`#log-spares`), whose first press only
//! arms it: the button carries the question in `data-confirm` and the page asks it there.

use super::html::table;
use super::words::policy_words;
use crate::markup::escape;
use crate::present::units::{format_number, group_thousands};
use crate::sim::logs::keys::Keys;
use crate::sim::logs::sizing::change::KeyPeaks;
use crate::sim::logs::sizing::{Objective, Reason, Sizing, SizingRow};

/// The most keys a list or a table names.
pub const NAMED: usize = 20;

/// `keys` named with their peaks: "<code>203.0.113.50</code> (48 in 1 s)", the first [`NAMED`],
/// then how many more.
pub fn named_with_peaks(list: &[KeyPeaks], keys: &Keys) -> String {
    let mut named: Vec<String> = list
        .iter()
        .take(NAMED)
        .map(|p| format!("<code>{}</code> ({} in 1 s)", escape(keys.name(p.key)), group_thousands(p.peak_1s)))
        .collect();
    if list.len() > NAMED {
        named.push(format!("{} more", group_thousands((list.len() - NAMED) as u64)));
    }
    named.join(", ")
}

/// A policy in words with its query keys: "<strong>burst 21 at 10/s</strong> (<code>…</code>)".
fn policy_markup(row: &SizingRow) -> String {
    format!("<strong>{}</strong> (<code>{}</code>)", policy_words(&row.policy), escape(&row.policy.to_string()))
}

/// The current policy's rating: whom it throttles, with their peaks, and whom it spares.
pub fn current_markup(s: &Sizing, keys: &Keys) -> String {
    let now = s.current_row();
    let (throttled, spared) = (s.throttled_by(now), s.spared_by(now));
    let mut out = format!(
        "<div class=\"log-current\" id=\"log-current\" data-throttled=\"{}\" data-spared=\"{}\"><p>The current policy, {}, throttles <strong>{} keys</strong> and spares {}.",
        throttled.len(),
        spared.len(),
        policy_markup(now),
        group_thousands(throttled.len() as u64),
        group_thousands(spared.len() as u64),
    );
    if let Some(busiest) = spared.first() {
        out.push_str(&format!(
            " The busiest key it spares, <code>{}</code>, peaks at {} requests in 1 s.",
            escape(keys.name(busiest.key)),
            group_thousands(busiest.peak_1s)
        ));
    }
    out.push_str("</p>");
    if !throttled.is_empty() {
        let rows: Vec<(bool, Vec<String>)> = throttled
            .iter()
            .take(NAMED)
            .map(|p| {
                let cells = [p.peak_1s, p.peak_window, p.rejected].map(group_thousands);
                (false, [vec![format!("<code>{}</code>", escape(keys.name(p.key)))], cells.to_vec()].concat())
            })
            .collect();
        let caption = format!(
            "The keys it throttles (at most {NAMED}), their peaks against its burst of {} and its {}/s",
            group_thousands(now.burst),
            format_number(now.rate)
        );
        let heads = ["Key", "Peak in 1 s", "Peak in its window", "Refused"];
        out.push_str(&table("log-current-keys", &caption, &heads, &rows));
    }
    out.push_str("</div>");
    out
}

/// How the keys split by their peaks, with the rule (the outlier objective only).
fn split_markup(s: &Sizing, keys: &Keys) -> String {
    if s.objective != Objective::Outliers {
        return String::new();
    }
    let n = s.split.outliers.len();
    let which = if n == 0 { "none".to_string() } else { named_with_peaks(&s.outliers(), keys) };
    format!(
        "<p class=\"hint\" id=\"log-split\" data-outliers=\"{n}\">Outliers by their peaks: {which}. The rule: {}.</p>",
        escape(&s.split.rule_words())
    )
}

/// The recommendation and what it changes against the current policy, with the Apply button
/// (none when the advice is to keep the current policy).
pub fn recommendation_markup(s: &Sizing, keys: &Keys) -> String {
    let mut out = split_markup(s, keys);
    let (Some(i), Some(reason)) = (s.recommended, s.reason) else {
        out.push_str(&format!(
            "<p id=\"log-recommendation\">No policy in the sweep does it: the largest tried still throttles {} keys.</p>",
            s.rows.last().map_or(0, |r| r.keys_throttled)
        ));
        return out;
    };
    // The rule is stated once, in the split's paragraph above; "keep it" is the heading's.
    let words = s.objective_words().unwrap_or_default();
    let words = words.split("; the rule: ").next().unwrap_or_default();
    let why = escape(words.strip_prefix("keep it: ").unwrap_or(words));
    if reason == Reason::Keep {
        out.push_str(&format!(
            "<p id=\"log-recommendation\" data-keep=\"1\"><strong>Keep the current policy.</strong> Why: {why}.</p>"
        ));
        return out;
    }
    let row = &s.rows[i];
    let change = s.change(row);
    let times = |x: f64| if x.is_finite() { format!("{}×", format_number(x)) } else { "∞×".into() };
    let mut said = format!(
        "<p id=\"log-recommendation\">Recommended: {}: {}/s sustained, at most {} from one key in a minute; {} the current burst and {} its rate. Why: {why}.",
        policy_markup(row),
        format_number(row.rate),
        format_number(row.per_minute),
        times(change.burst_multiple),
        times(change.rate_multiple),
    );
    if !change.newly_throttled.is_empty() {
        said.push_str(&format!(
            " It newly throttles {}: {}.",
            change.newly_throttled.len(),
            named_with_peaks(&change.newly_throttled, keys)
        ));
    }
    if change.same_keys() {
        said.push_str(" It throttles the same keys as the current policy.");
    }
    let still: Vec<KeyPeaks> = s.throttled_by(row);
    said.push_str(&match still.len() {
        0 => " It throttles no key.".to_string(),
        n => format!(" It throttles {}: {}.", group_thousands(n as u64), named_with_peaks(&still, keys)),
    });
    out.push_str(&said);
    out.push_str("</p>");
    let policy = escape(&row.policy.to_string());
    let n = change.newly_spared.len();
    if n == 0 {
        out.push_str(&format!(
            "<button type=\"button\" id=\"log-apply\" data-policy=\"{policy}\">Apply this policy to the playground</button>"
        ));
    } else {
        out.push_str(&format!(
            "<p class=\"error\" id=\"log-spares\" data-spared=\"{n}\">It spares {n} keys the current policy throttles: {}. Apply asks you to confirm.</p><button type=\"button\" id=\"log-apply\" data-policy=\"{policy}\" data-confirm=\"Apply: spares {n} keys the current policy throttles — press again to confirm\">Apply this policy to the playground</button>",
            named_with_peaks(&change.newly_spared, keys)
        ));
    }
    out
}
