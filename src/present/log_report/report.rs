//! The shadow report as markup: the totals and how many keys saw a 429 (also as `data-`
//! attributes, for tests and scripts), what reading found, rejections over time, and the keys
//! refused most.

use super::charts::rejections_chart;
use super::html::{figure, table};
use super::share;
use super::words::scenario_words;
use crate::markup::escape;
use crate::present::units::{format_percent, format_secs, group_thousands};
use crate::sim::logs::policy::label;
use crate::sim::logs::scope::AgainstGlobal;
use crate::sim::logs::shadow::ShadowReport;
use crate::sim::{Limiter, Scenario};

/// The most keys the report lists.
pub const TOP_KEYS: usize = 20;

/// The report of `r`, replayed under `sc`, its charts `width` CSS pixels wide; with a scope
/// (`against`), what it changes against one global counter per key.
pub fn report_markup(r: &ShadowReport, sc: &Scenario, width: u32, against: Option<&AgainstGlobal>) -> String {
    let read = &r.read;
    let keys = read.keys.len() as u64;
    let throttled = r.keys_throttled() as u64;
    let mut out = format!(
        "<div class=\"log-report\" id=\"log-report\" data-requests=\"{}\" data-admitted=\"{}\" data-rejected=\"{}\" data-keys=\"{keys}\" data-throttled=\"{throttled}\">",
        r.requests, r.admitted, r.rejected
    );
    out.push_str(&format!(
        "<p class=\"log-summary\" id=\"log-summary\">{} requests from {} keys ({} format, {} lines) under {} (<code>{}</code>): {} admitted, {} refused ({}). <strong>{} keys ({}) saw at least one 429.</strong></p>",
        group_thousands(r.requests),
        group_thousands(keys),
        escape(&read.format.name()),
        group_thousands(read.lines as u64),
        escape(&scenario_words(sc)),
        escape(&label(sc)),
        group_thousands(r.admitted),
        group_thousands(r.rejected),
        format_percent(share(r.rejected, r.requests)),
        group_thousands(throttled),
        format_percent(share(throttled, keys)),
    ));
    if let Some(g) = against {
        out.push_str(&scope_markup(r, g));
    }
    if read.reordered > 0 {
        out.push_str(&format!(
            "<p class=\"hint log-note\" id=\"log-reordered\">{} requests came up to 5 s out of order and were put in order.</p>",
            group_thousands(read.reordered)
        ));
    }
    if let (n @ 1.., Some(first)) = read.skipped {
        out.push_str(&format!(
            "<p class=\"hint log-note\" id=\"log-skipped\">{} lines did not fit the {} format and were skipped (the first is line {first}).</p>",
            group_thousands(n),
            escape(&read.format.name())
        ));
    }
    if r.rejected > 0 {
        let bucket = r.bucket.as_nanos() / 1_000_000_000;
        let span = format_secs((r.rejections.len() as u64 * bucket) as f64);
        out.push_str(&figure(
            "429s over time",
            &format!("per {bucket} s, over {span} from the first request"),
            &rejections_chart(&r.rejections, bucket).markup(width),
        ));
        let rows: Vec<(bool, Vec<String>)> = r
            .ranked()
            .into_iter()
            .take(TOP_KEYS)
            .map(|i| (i, &r.per_key[i as usize]))
            .filter(|(_, k)| k.rejected > 0)
            .map(|(i, k)| {
                let cells = vec![
                    format!("<code>{}</code>", escape(read.keys.name(i))),
                    group_thousands(k.requests),
                    group_thousands(k.admitted),
                    group_thousands(k.rejected),
                    group_thousands(k.peak_1s),
                    group_thousands(k.peak_window),
                ];
                (false, cells)
            })
            .collect();
        let window = sc.limiter().quota().window.as_secs_f64();
        let peak = format!("Peak in {} (its window)", format_secs(window));
        let heads = ["Key", "Requests", "Admitted", "Refused", "Peak in 1 s", peak.as_str()];
        out.push_str(&table("log-top-keys", &format!("The keys refused most (at most {TOP_KEYS})"), &heads, &rows));
    }
    out.push_str("</div>");
    out
}

/// What a scope changes against one global counter per key, in words and in `data-` attributes.
fn scope_markup(r: &ShadowReport, g: &AgainstGlobal) -> String {
    let names = |list: &[u32]| match list {
        [] => "none".to_string(),
        _ => {
            let shown: Vec<String> =
                list.iter().take(TOP_KEYS).map(|&k| format!("<code>{}</code>", escape(r.read.keys.name(k)))).collect();
            let more = list.len().saturating_sub(TOP_KEYS);
            shown.join(", ") + &if more > 0 { format!(" and {more} more") } else { String::new() }
        }
    };
    let change = r.admitted as i64 - g.admitted as i64;
    format!(
        "<p class=\"log-scope\" id=\"log-scope-report\" data-global-admitted=\"{}\" data-global-throttled=\"{}\" data-newly-spared=\"{}\" data-newly-throttled=\"{}\">Counted with {} ({} counters): {} admitted where one global counter per client admits {} ({}{}); {} keys throttled against {}. Spared here, throttled by one counter: {}. Throttled here only: {}.</p>",
        g.admitted,
        g.keys_throttled,
        g.newly_spared.len(),
        g.newly_throttled.len(),
        escape(&g.words),
        group_thousands(g.counters as u64),
        group_thousands(r.admitted),
        group_thousands(g.admitted),
        if change >= 0 { "+" } else { "−" },
        group_thousands(change.unsigned_abs()),
        group_thousands(r.keys_throttled() as u64),
        group_thousands(g.keys_throttled as u64),
        names(&g.newly_spared),
        names(&g.newly_throttled),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::logs::{shadow, KeyBy};

    #[test]
    fn the_report_states_the_engines_numbers_and_escapes_the_log() {
        let log =
            "{\"ts\": 1700000000.000, \"ip\": \"<b>x</b>\"}\n".repeat(5) + "{\"ts\": 1700000001.5, \"ip\": \"b\"}\n";
        let sc = Scenario::from_query("capacity=2&refill=1").unwrap();
        let r = shadow(log.as_bytes(), None, &KeyBy::Ip, &sc).unwrap();
        let html = report_markup(&r, &sc, 600, None);
        assert!(
            html.contains(
                "data-requests=\"6\" data-admitted=\"3\" data-rejected=\"3\" data-keys=\"2\" data-throttled=\"1\""
            ),
            "{html}"
        );
        assert!(
            html.contains("<code>&lt;b&gt;x&lt;/b&gt;</code>") && !html.contains("<b>x"),
            "keys are text, never markup"
        );
        assert!(html.contains("1 keys (50.0 %) saw at least one 429") && html.contains("<svg"));
        assert!(!html.contains("log-scope-report"), "one global counter: nothing to compare");
    }

    #[test]
    fn a_scope_says_what_it_changes_against_one_counter() {
        let log = "{\"ts\": 1700000000.000, \"ip\": \"a\"}\n".repeat(6);
        let sc = Scenario::from_query("capacity=2&refill=1").unwrap();
        let scope = crate::sim::logs::scope::Scope::parse("instance:3:rr").unwrap();
        let (r, g) = crate::sim::logs::scope::shadow_scoped(log.as_bytes(), None, &KeyBy::Ip, &sc, scope).unwrap();
        let html = report_markup(&r, &sc, 600, g.as_ref());
        assert!(
            html.contains("data-global-admitted=\"2\" data-global-throttled=\"1\" data-newly-spared=\"1\""),
            "{html}"
        );
        assert!(html.contains("6 admitted where one global counter per client admits 2 (+4)"), "{html}");
        assert!(html.contains("Spared here, throttled by one counter: <code>a</code>."), "{html}");
    }
}
