//! The sizing table as markup: the current policy's rating and the recommendation with what it
//! changes ([`super::advice`]), the keys it still throttles, the button the page applies it by
//! (`#log-apply`, its policy in `data-policy`); the trade-off chart along the recommendation's
//! burst (buckets) or window; that line's policies, and every policy tried.

use super::advice::{current_markup, recommendation_markup};
use super::charts::{throttled_chart, through_chart, TradeOff};
use super::html::{figure, table};
use super::share;
use super::words::policy_words;
use crate::markup::escape;
use crate::present::units::{format_number, format_percent, group_thousands};
use crate::sim::logs::job::MAX_SWEPT;
use crate::sim::logs::keys::Keys;
use crate::sim::logs::policy::Line;
use crate::sim::logs::sizing::{Sizing, SizingRow};

/// A row's cells.
fn cells(row: &SizingRow, s: &Sizing, keys: &Keys) -> Vec<String> {
    let current = if row.policy == s.current_row().policy { " <em>(current)</em>" } else { "" };
    let heaviest: Vec<String> = row
        .heaviest
        .iter()
        .map(|&(k, n, a)| format!("{} {}", escape(keys.name(k)), format_percent(share(a, n))))
        .collect();
    vec![
        format!(
            "{}{current}<br><code class=\"log-query\">{}</code>",
            policy_words(&row.policy),
            escape(&row.policy.to_string())
        ),
        format!("{}/s", format_number(row.rate)),
        format!(
            "{} ({})",
            group_thousands(row.keys_throttled as u64),
            format_percent(share(row.keys_throttled as u64, s.keys as u64))
        ),
        format_percent(share(row.rejected, s.requests)),
        heaviest.join(" · "),
    ]
    .into_iter()
    .chain(row.server.map(|v| format!("{} ms{}", format_number(v.p99_ms), shed_words(v.shed))))
    .collect()
}

/// ", 12 shed" when the server shed any.
fn shed_words(shed: u64) -> String {
    if shed == 0 {
        String::new()
    } else {
        format!(", {} shed", group_thousands(shed))
    }
}

/// With a server behind the limiter and a latency objective (its clients' timeout): the largest
/// policy that keeps it, and whether the recommendation does.
fn server_side(s: &Sizing) -> Option<String> {
    let objective = format_number(s.latency_objective?.as_nanos() as f64 / 1e6);
    s.rows.first()?.server?;
    let limit_ms = s.latency_objective?.as_nanos() as f64 / 1e6;
    let keeps = |r: &SizingRow| r.server.is_some_and(|v| v.p99_ms <= limit_ms && v.shed == 0);
    let both = s.rows.iter().find(|r| s.meets(r) && keeps(r));
    let rec_words = match s.recommended.map(|i| &s.rows[i]) {
        Some(r) if keeps(r) => {
            format!(" The recommended policy keeps it too: p99 {} ms.", format_number(r.server?.p99_ms))
        }
        Some(r) => {
            let v = r.server?;
            let then = match both {
                Some(b) => format!(
                    " The smallest that does both: <strong>{}</strong> (<code>{}</code>).",
                    policy_words(&b.policy),
                    escape(&b.policy.to_string())
                ),
                None => {
                    " No policy in the sweep does both: this server is too small for what your clients send.".into()
                }
            };
            format!(
                " The recommended policy does not (p99 {} ms{}).{then}",
                format_number(v.p99_ms),
                shed_words(v.shed)
            )
        }
        None => String::new(),
    };
    Some(match s.largest_within_objective().map(|i| &s.rows[i]) {
        Some(r) => {
            let v = r.server?;
            format!(
                "<p id=\"log-server-side\">The other side, the server behind the limiter: the largest policy under which 99 % of the requests it admits are answered within {objective} ms (the clients' timeout), none shed: <strong>{}</strong> (<code>{}</code>), p99 {} ms, workers {} busy.{rec_words}</p>",
                policy_words(&r.policy),
                escape(&r.policy.to_string()),
                format_number(v.p99_ms),
                format_percent(v.utilization),
            )
        }
        None => format!(
            "<p id=\"log-server-side\">The other side, the server behind the limiter: no policy in the sweep keeps its p99 within {objective} ms (the clients' timeout) with nothing shed.{rec_words}</p>"
        ),
    })
}

/// The sizing table of `s` (over the first `swept` requests), keys named by `keys`, the
/// charts within `width` CSS pixels; `next` (markup: the clients to watch live) goes right under
/// the recommendation and its Apply button, where the eye is after applying it.
pub fn sizing_markup(s: &Sizing, keys: &Keys, swept: usize, width: u32, next: &str) -> String {
    let rec = s.recommended.map(|i| &s.rows[i]);
    let rec_policy = rec.map_or(String::new(), |r| escape(&r.policy.to_string()));
    let mut out = format!(
        "<div class=\"log-sizing\" id=\"log-sizing\" data-policies=\"{}\" data-recommended=\"{}\"><h3>Sizing: which policy would leave your clients alone?</h3>",
        s.rows.len(),
        rec_policy
    );
    out.push_str(&current_markup(s, keys));
    out.push_str(&recommendation_markup(s, keys));
    out.push_str(next);
    out.push_str(&server_side(s).unwrap_or_default());
    if swept >= MAX_SWEPT {
        out.push_str(&format!(
            "<p class=\"hint\">Sized on the log's first {} requests.</p>",
            group_thousands(swept as u64)
        ));
    }
    // The recommendation's line, or the largest policy's (none without rows); where that line
    // holds the recommendation alone (the current policy, off the sweep's grid), the line of
    // the grid whose burst is nearest its own, the recommendation marked on it.
    let shown = rec.or(s.rows.last());
    let mut line: Option<Line> = shown.map(|r| r.policy.line());
    let on = |line: Option<Line>| s.rows.iter().filter(move |r| Some(r.policy.line()) == line).count();
    if let Some(r) = shown.filter(|_| on(line) < 2) {
        let distance = |x: &SizingRow| ((x.burst.max(1) as f64) / (r.burst.max(1) as f64)).ln().abs();
        line = s
            .rows
            .iter()
            .filter(|x| on(Some(x.policy.line())) >= 2)
            .min_by(|a, b| distance(a).total_cmp(&distance(b)))
            .map(|x| x.policy.line())
            .or(line);
    }
    let on_line: Vec<&SizingRow> = s.rows.iter().filter(|r| Some(r.policy.line()) == line).collect();
    let line = line.map_or(String::new(), |l| l.to_string());
    let points: Vec<TradeOff> = on_line
        .iter()
        .map(|r| TradeOff {
            rate: r.rate,
            keys_throttled: share(r.keys_throttled as u64, s.keys as u64),
            rejected: share(r.rejected, s.requests),
            heaviest_admitted: r.heaviest.first().map_or(1.0, |&(_, n, a)| share(a, n)),
        })
        .collect();
    let at = match on_line.len() {
        1 => format!("1 policy at {line}, by sustained rate"),
        n => format!("{n} policies at {line}, by sustained rate"),
    };
    let width = if width >= 760 { width / 2 - 8 } else { width };
    out.push_str("<div class=\"log-charts\">");
    out.push_str(&figure(
        "Keys that see a 429",
        &at,
        &throttled_chart(&points, s.throttled_share(), rec.map(|r| r.rate)).markup(width),
    ));
    out.push_str(&figure("What gets through", &at, &through_chart(&points, rec.map(|r| r.rate)).markup(width)));
    out.push_str("</div>");
    let is_rec = |r: &SizingRow| rec.is_some_and(|x| x.policy == r.policy);
    let mut heads = vec!["Policy", "Rate", "Keys throttled", "Requests refused", "The heaviest keys get through"];
    if s.rows.first().is_some_and(|r| r.server.is_some()) {
        heads.push("Server p99");
    }
    let mut line_rows: Vec<(bool, Vec<String>)> = on_line.iter().map(|r| (is_rec(r), cells(r, s, keys))).collect();
    if let Some(r) = rec.filter(|r| !on_line.iter().any(|x| x.policy == r.policy)) {
        line_rows.insert(0, (true, cells(r, s, keys)));
    }
    out.push_str(&table("log-sizing-table", &format!("The policies at {line}"), &heads, &line_rows));
    let all: Vec<(bool, Vec<String>)> = s.rows.iter().map(|r| (is_rec(r), cells(r, s, keys))).collect();
    out.push_str(&format!(
        "<details class=\"log-all\"><summary>All {} policies tried</summary>{}</details></div>",
        s.rows.len(),
        table("log-sizing-all", "Every policy swept, smallest first", &heads, &all)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::logs::reader::{read_log, KeyBy};
    use crate::sim::logs::samples::{crowd_log, sample_log};
    use crate::sim::logs::sizing::{sweep, Objective};
    use crate::sim::Scenario;

    #[test]
    fn the_table_recommends_names_and_offers_the_policy() {
        let log = sample_log("api", 2, 5).unwrap();
        let mut arrivals = Vec::new();
        let read = read_log(log.as_bytes(), None, &KeyBy::Ip, |a| arrivals.push(a)).unwrap();
        let sc = Scenario::from_query("capacity=10&refill=1").unwrap();
        let s = sweep(&arrivals, &read, &sc, Objective::Target(0.02));
        let html = sizing_markup(&s, &read.keys, arrivals.len(), 600, "");
        let rec = &s.rows[s.recommended.unwrap()];
        assert!(
            html.contains(&format!("data-policy=\"{}\"", escape(&rec.policy.to_string()))),
            "the button carries the policy"
        );
        assert!(html.contains("203.0.113."), "names the scrapers it still throttles");
        assert_eq!(html.matches("<tr class=\"recommended\">").count(), 2, "marked on its line and among all");
        let all = &html[html.find("id=\"log-sizing-all\"").unwrap()..];
        assert_eq!(all.matches("<tr").count(), s.rows.len() + 1, "every policy tried, under one head");
        assert!(!html.contains("log-server-side") && !html.contains("Server p99"), "no server, no other side");
    }

    #[test]
    fn with_a_server_the_table_gives_its_p99_and_names_the_largest_policy_within_the_clients_timeout() {
        let log = sample_log("api", 2, 5).unwrap();
        let mut arrivals = Vec::new();
        let read = read_log(log.as_bytes(), None, &KeyBy::Ip, |a| arrivals.push(a)).unwrap();
        let sc = Scenario::from_query("capacity=10&refill=1&workers=2&service=20&client_timeout=100").unwrap();
        let s = sweep(&arrivals, &read, &sc, Objective::Target(0.02));
        let html = sizing_markup(&s, &read.keys, arrivals.len(), 600, "");
        let largest = &s.rows[s.largest_within_objective().expect("a policy keeps 100 ms")];
        let side = &html[html.find("id=\"log-server-side\"").unwrap()..];
        assert!(side.contains(&format!("<code>{}</code>", escape(&largest.policy.to_string()))), "{side}");
        assert!(side.contains("within 100 ms (the clients' timeout)"), "{side}");
        assert!(html.contains("Server p99"), "the column");
        // Whether the recommendation keeps it, and if not the smallest policy that does both.
        let keeps = |r: &SizingRow| r.server.is_some_and(|v| v.p99_ms <= 100.0 && v.shed == 0);
        let rec = &s.rows[s.recommended.unwrap()];
        let both = s.rows.iter().find(|r| r.keys_throttled <= 6 && keeps(r));
        match (keeps(rec), both) {
            (true, _) => assert!(side.contains("The recommended policy keeps it too"), "{side}"),
            (false, Some(b)) => assert!(
                side.contains(&format!("The smallest that does both: <strong>{}</strong>", policy_words(&b.policy))),
                "{side}"
            ),
            (false, None) => assert!(side.contains("No policy in the sweep does both"), "{side}"),
        }
    }

    /// The sizing markup of a crowd with two scrapers under `query`, by the outlier rule.
    fn markup(query: &str) -> String {
        let log = crowd_log(2, 10, 100, &[25.0, 40.0]);
        let mut arrivals = Vec::new();
        let read = read_log(log.as_bytes(), None, &KeyBy::Ip, |a| arrivals.push(a)).unwrap();
        let s = sweep(&arrivals, &read, &Scenario::from_query(query).unwrap(), Objective::Outliers);
        sizing_markup(&s, &read.keys, arrivals.len(), 600, "")
    }

    #[test]
    fn the_current_policy_is_rated_before_the_advice_and_kept_when_it_throttles_only_the_outliers() {
        let html = markup("algo=nginx&capacity=21&refill=10&nodelay=1");
        let (current, advice) =
            (html.find("id=\"log-current\"").unwrap(), html.find("id=\"log-recommendation\"").unwrap());
        assert!(current < advice, "the current policy first");
        assert!(html.contains("data-throttled=\"2\" data-spared=\"100\""), "{html}");
        assert!(html.contains("<code>203.0.113.51</code>") && html.contains("id=\"log-current-keys\""));
        assert!(html.contains("data-keep=\"1\"><strong>Keep the current policy.</strong>"), "{html}");
        assert!(!html.contains("id=\"log-apply\""), "nothing to apply");
        assert!(html.contains("far-out fence"), "the rule");
    }

    #[test]
    fn a_recommendation_that_spares_keys_the_current_policy_throttles_says_so_and_asks_once() {
        let html = markup("algo=nginx&capacity=2&refill=0.1&nodelay=1");
        let warning = html.find("id=\"log-spares\"").expect("the warning");
        let apply = html.find("id=\"log-apply\"").unwrap();
        assert!(warning < apply, "said above the button");
        let spared = &html[warning..apply];
        assert!(spared.contains("keys the current policy throttles: <code>10."), "{spared}");
        assert!(html[apply..].contains("data-confirm=\"Apply: spares "), "the button asks once");
        // Tightening the scrapers' policy spares nobody the current one throttles: no question.
        let html = markup("algo=nginx&capacity=101&refill=30&nodelay=1");
        assert!(html.contains("id=\"log-apply\"") && !html.contains("data-confirm") && !html.contains("log-spares"));
        assert!(html.contains("It newly throttles"), "{html}");
    }
}
