//! nginx's own dry run against the model, as the log panel shows it under the report when the log
//! carries `$limit_req_status`: how many requests the model decides as nginx logged them, the
//! counts by status both ways, and the first disagreements (also as `data-` attributes, for tests
//! and scripts); or, when the check cannot run, why (the policy is not nginx's, a line is bad).

use super::html::table;
use crate::markup::escape;
use crate::present::units::{format_percent, group_thousands};
use crate::sim::logs::dry_run::Agreement;
use crate::sim::logs::LogError;

/// The section for `checked`.
pub fn dry_run_markup(checked: &Result<Agreement, LogError>) -> String {
    let a = match checked {
        Ok(a) => a,
        Err(e) if e.line == 0 && e.message.contains("algo=nginx") => {
            return "<p class=\"hint log-note\" id=\"log-dry-run\" data-checked=\"0\">This log carries nginx's <code>$limit_req_status</code>: choose nginx as the limiter above, with your zone's rate and burst, to check the model against what nginx decided for each request.</p>".into();
        }
        Err(e) => {
            return format!(
                "<p class=\"error\" id=\"log-dry-run\" data-checked=\"0\">nginx's dry run could not be checked: {}</p>",
                escape(&e.to_string())
            );
        }
    };
    let by = |c: &[u64; 3]| {
        format!(
            "{} passed, {} delayed, {} rejected",
            group_thousands(c[0]),
            group_thousands(c[1]),
            group_thousands(c[2])
        )
    };
    let mut out = format!(
        "<section class=\"log-dry-run\" id=\"log-dry-run\" data-checked=\"1\" data-requests=\"{}\" data-agree=\"{}\"><h4>Against nginx's own dry run</h4><p>The nginx model decides <strong>{} of {} requests ({})</strong> as nginx logged them. nginx: {}; the model: {}.{}{}</p>",
        a.requests,
        a.agree,
        group_thousands(a.agree),
        group_thousands(a.requests),
        format_percent(if a.requests == 0 { 1.0 } else { a.agree as f64 / a.requests as f64 }),
        by(&a.logged),
        by(&a.model),
        if a.unlimited > 0 { format!(" {} requests had no <code>limit_req</code> (logged <code>-</code>) and are left out.", group_thousands(a.unlimited)) } else { String::new() },
        if a.unchecked > 0 { format!(" The first {} requests were checked; {} more were not.", group_thousands(a.requests), group_thousands(a.unchecked)) } else { String::new() },
    );
    if !a.first.is_empty() {
        let rows: Vec<(bool, Vec<String>)> = a
            .first
            .iter()
            .map(|d| {
                let ms = d.ms.rem_euclid(86_400_000);
                let time =
                    format!("{:02}:{:02}:{:02}.{:03}", ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000);
                (
                    false,
                    vec![
                        d.line.to_string(),
                        format!("<code>{}</code>", escape(&d.key)),
                        time,
                        d.logged.name().into(),
                        d.model.name().into(),
                    ],
                )
            })
            .collect();
        out.push_str(&table(
            "log-dry-run-off",
            "The first requests decided otherwise (UTC)",
            &["Line", "Key", "Time", "nginx", "Model"],
            &rows,
        ));
        out.push_str("<p class=\"hint\">A few disagreements in adjacent pairs are nginx's clocks, not the model: <code>$msec</code> is the wall clock and <code>limit_req</code> reads the monotonic one, which can fall a millisecond apart near a tie.</p>");
    }
    out.push_str("</section>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::logs::dry_run::against_nginx_dry_run;
    use crate::sim::logs::KeyBy;
    use crate::sim::Scenario;

    #[test]
    fn the_section_states_the_checks_numbers_and_names_the_disagreements() {
        let t = 1_700_000_000_000_i64;
        let log: String = [(t, "PASSED"), (t, "PASSED"), (t, "PASSED")]
            .iter()
            .map(|(ms, s)| format!("{}.{:03} <a> \"GET / HTTP/1.1\" 200 3 {s}\n", ms / 1000, ms % 1000))
            .collect();
        let sc = Scenario::from_query("algo=nginx&capacity=2&refill=2").unwrap();
        let a = against_nginx_dry_run(log.as_bytes(), None, &KeyBy::Ip, &sc);
        let html = dry_run_markup(&a);
        assert!(html.contains("data-requests=\"3\" data-agree=\"2\""), "{html}");
        assert!(html.contains("<strong>2 of 3 requests (66.7 %)</strong>"), "{html}");
        assert!(
            html.contains(
                "<th scope=\"row\">3</th><td><code>&lt;a&gt;</code></td><td>22:13:20.000</td><td>passed</td><td>rejected</td>"
            ),
            "{html}"
        );
        let not_nginx =
            against_nginx_dry_run(log.as_bytes(), None, &KeyBy::Ip, &Scenario::from_query("capacity=2").unwrap());
        assert!(dry_run_markup(&not_nginx).contains("choose nginx as the limiter"));
    }
}
