//! The table rows the report and the sizing table are made of, their text escaped by [`escape`].

use crate::markup::escape;

/// A table with `id`, its caption, column heads and rows of cells (already markup; the first
/// cell of each row is its header). `marked` rows get the class `recommended`. It scrolls
/// sideways in a region of its own, which the keyboard can reach and scroll.
pub fn table(id: &str, caption: &str, heads: &[&str], rows: &[(bool, Vec<String>)]) -> String {
    let mut out = format!(
        "<div class=\"log-scroll\" tabindex=\"0\" role=\"region\" aria-label=\"{0}\"><table class=\"log-table\" id=\"{id}\"><caption>{0}</caption><thead><tr>",
        escape(caption)
    );
    for h in heads {
        out.push_str(&format!("<th scope=\"col\">{}</th>", escape(h)));
    }
    out.push_str("</tr></thead><tbody>");
    for (marked, cells) in rows {
        out.push_str(if *marked { "<tr class=\"recommended\">" } else { "<tr>" });
        for (i, c) in cells.iter().enumerate() {
            if i == 0 {
                out.push_str(&format!("<th scope=\"row\">{c}</th>"));
            } else {
                out.push_str(&format!("<td>{c}</td>"));
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    out
}

/// A chart card: a title, a subtitle and the chart's markup.
pub fn figure(title: &str, sub: &str, body: &str) -> String {
    format!(
        "<figure class=\"chart-card log-chart\"><figcaption><span class=\"chart-title\">{}</span><span class=\"chart-sub\">{}</span></figcaption>{body}</figure>",
        escape(title),
        escape(sub)
    )
}
