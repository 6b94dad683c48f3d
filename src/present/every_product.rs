//! "Same policy, every product" as markup: the rows of [`every_product`] as an HTML table, which
//! the production panel (`app::share::every_product`) puts in the page. Written as text rather
//! than as Leptos views cell by cell, for the whole page's size: see docs/size.md.

use crate::markup::escape;
use crate::sim::product_runs::ProductRow;
use crate::sim::products::duration_text;
use crate::sim::support::decimal::format_fixed;

#[cfg(doc)]
use crate::sim::product_runs::every_product;

/// One row of the table, as markup: the limiter, admitted, refused, the first refusal, the
/// longest hold, why it differs, and a Run button carrying its tab's `--export` name.
pub fn row(r: &ProductRow) -> String {
    let first =
        r.first_refusal.map_or("never".to_string(), |t| format!("{} s", format_fixed(t.as_nanos() / 1_000_000, 3)));
    let held =
        if r.longest_delay.as_nanos() == 0 { "—".to_string() } else { duration_text(r.longest_delay.as_nanos()) };
    let (class, why, button) = match r.export {
        None => (" class=\"textbook\"", "the textbook algorithm: the reference".to_string(), String::new()),
        Some(export) => (
            "",
            escape(&r.difference),
            format!("<button type=\"button\" class=\"every-run\" data-export=\"{export}\">Run</button>"),
        ),
    };
    let not_run =
        if crate::sim::products::run_here(r.algo) { "" } else { " <span class=\"not-run\">not run here</span>" };
    format!(
        "<tr{class}><th scope=\"row\">{}{not_run}</th><td>{}</td><td>{}</td><td>{first}</td><td>{}</td><td>{why}</td><td>{button}</td></tr>",
        escape(r.name),
        r.admitted,
        r.refused,
        escape(&held)
    )
}

/// The whole table, as markup (`#every-product-table`).
pub fn table(rows: &[ProductRow]) -> String {
    let heads = ["Limiter", "Admitted", "Refused", "First 429", "Longest hold", "Why it differs", ""];
    let head: String = heads.iter().map(|h| format!("<th scope=\"col\">{h}</th>")).collect();
    let body: String = rows.iter().map(row).collect();
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
            row(&r),
            "<tr><th scope=\"row\">A &lt;b&gt;</th><td>3</td><td>1</td><td>1.5 s</td><td>—</td>\
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
        assert!(row(&r).starts_with("<tr><th scope=\"row\">Kong <span class=\"not-run\">not run here</span></th>"));
        assert!(row(&r).contains("<td>never</td>"));
    }
}
