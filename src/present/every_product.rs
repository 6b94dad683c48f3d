//! "Same policy, every product" as markup: the rows of [`every_product`] as an HTML table, which
//! the production panel (`app::share::every_product`) puts in the page. Written as text rather
//! than as Leptos views cell by cell, for the whole page's size: see docs/size.md.

use crate::markup::escape;
use crate::sim::product_runs::ProductRow;
use crate::sim::products::{checked_against, duration_text};
use crate::sim::support::decimal::format_fixed;

#[cfg(doc)]
use crate::sim::product_runs::every_product;

/// One row of the table, as markup: the limiter (with the real software its model is checked
/// against, or that it is a model only), admitted, refused, the first refusal, the longest
/// hold, why it differs, and a Run button carrying its tab's `--export` name. A row more than
/// 10 % from `textbook` (what the textbook algorithm admitted) is marked, its reason first,
/// under the limiter's name.
pub fn row(r: &ProductRow, textbook: u64) -> String {
    let first =
        r.first_refusal.map_or("never".to_string(), |t| format!("{} s", format_fixed(t.as_nanos() / 1_000_000, 3)));
    let held =
        if r.longest_delay.as_nanos() == 0 { "—".to_string() } else { duration_text(r.longest_delay.as_nanos()) };
    let far = r.export.is_some() && textbook > 0 && r.admitted.abs_diff(textbook) * 10 > textbook;
    let (class, mut why, button) = match r.export {
        None => (" class=\"textbook\"", "the textbook algorithm: the reference".to_string(), String::new()),
        Some(export) => (
            if far { " class=\"far\"" } else { "" },
            escape(&r.difference),
            format!("<button type=\"button\" class=\"every-run\" data-export=\"{export}\">Run</button>"),
        ),
    };
    let mut limiter = escape(r.name);
    match (r.export, checked_against(r.algo)) {
        (None, _) => {}
        (Some(_), Some(real)) => {
            limiter.push_str(&format!(" <span class=\"checked\">checked against {}</span>", escape(real)))
        }
        (Some(_), None) => {
            limiter.push_str(" <span class=\"not-run\">model only: not checked against the real software</span>")
        }
    }
    if far {
        let percent = (r.admitted as f64 / textbook as f64 - 1.0) * 100.0;
        let sign = if percent > 0.0 { "+" } else { "−" };
        let said = format!("{sign}{} % against the textbook", format_fixed((percent.abs() * 10.0).round() as u64, 1));
        let reason = if why.is_empty() { String::new() } else { format!(": {why}") };
        limiter.push_str(&format!(" <span class=\"far-why\"><strong>{said}</strong>{reason}</span>"));
        why = "—".to_string();
    }
    format!(
        "<tr{class}><th scope=\"row\">{limiter}</th><td>{}</td><td>{}</td><td>{first}</td><td>{}</td><td>{why}</td><td>{button}</td></tr>",
        r.admitted,
        r.refused,
        escape(&held)
    )
}

/// The whole table, as markup (`#every-product-table`).
pub fn table(rows: &[ProductRow]) -> String {
    let heads = ["Limiter", "Admitted", "Refused", "First 429", "Longest hold", "Why it differs", ""];
    let head: String = heads.iter().map(|h| format!("<th scope=\"col\">{h}</th>")).collect();
    let textbook = rows.iter().find(|r| r.export.is_none()).map_or(0, |r| r.admitted);
    let body: String = rows.iter().map(|r| row(r, textbook)).collect();
    format!(
        "<table class=\"log-table every-table\" id=\"every-product-table\"><caption>The same arrivals through each \
         product's exported configuration, one server.</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_escapes_its_text_and_names_its_tab() {
        let r = ProductRow {
            algo: crate::sim::Algorithm::TokenBucket,
            name: "A <b>",
            export: Some("nginx"),
            admitted: 3,
            refused: 1,
            first_refusal: Some(crate::sim::Nanos(1_500_000_000)),
            longest_delay: crate::sim::Nanos::ZERO,
            difference: "x \"y\" & z".into(),
        };
        assert_eq!(
            row(&r, 3),
            "<tr><th scope=\"row\">A &lt;b&gt; <span class=\"not-run\">model only: not checked against the real software</span></th><td>3</td><td>1</td><td>1.5 s</td><td>—</td>\
             <td>x &quot;y&quot; &amp; z</td><td><button type=\"button\" class=\"every-run\" data-export=\"nginx\">Run</button></td></tr>"
        );
    }

    #[test]
    fn a_model_not_run_here_says_so_in_its_row() {
        let kong = crate::sim::products::find("kong").unwrap();
        let r = ProductRow {
            algo: kong,
            name: "Kong",
            export: Some("kong"),
            admitted: 1,
            refused: 0,
            first_refusal: None,
            longest_delay: crate::sim::Nanos::ZERO,
            difference: String::new(),
        };
        let html = row(&r, 1);
        let model_only = "<span class=\"not-run\">model only: not checked against the real software</span>";
        assert!(html.starts_with(&format!("<tr><th scope=\"row\">Kong {model_only}</th>")), "{html}");
        assert!(html.contains("<td>never</td>"));
    }

    #[test]
    fn a_checked_model_names_the_version_and_a_row_far_from_the_textbook_gives_its_reason_first() {
        let nginx = crate::sim::products::find("nginx").unwrap();
        let r = |admitted| ProductRow {
            algo: nginx,
            name: "nginx",
            export: Some("nginx"),
            admitted,
            refused: 0,
            first_refusal: None,
            longest_delay: crate::sim::Nanos::ZERO,
            difference: "it counts in ms".into(),
        };
        let near = row(&r(109), 100);
        assert!(
            near.starts_with(
                "<tr><th scope=\"row\">nginx <span class=\"checked\">checked against nginx 1.22.1</span></th>"
            ),
            "{near}"
        );
        assert!(near.contains("<td>it counts in ms</td>"), "{near}");
        let far = row(&r(41), 619);
        assert!(far.starts_with("<tr class=\"far\">"), "{far}");
        assert!(
            far.contains(
                "<span class=\"far-why\"><strong>−93.4 % against the textbook</strong>: it counts in ms</span></th>"
            ),
            "{far}"
        );
        assert!(far.contains("<td>—</td><td><button"), "the reason is not said twice: {far}");
        assert!(row(&r(111), 100).starts_with("<tr class=\"far\">"), "+11 % is far too");
    }
}
