//! "How they differ": one row per product of what engineers ask before choosing a limiter — the
//! clock it decides on, where its windows start, whether refused requests count, what it says
//! about when to retry, and where its counts live — from each product's [`Traits`] in the
//! registry. docs/products.md's table is this one's Markdown (a test keeps them equal); the
//! production panel shows its HTML.

use crate::markup::escape;
use crate::present::options::algorithm_label;
use crate::sim::products::{run_here, traits, Traits, PRODUCTS};

/// The columns' headings.
pub const HEADINGS: [&str; 6] =
    ["product", "clock", "windows start at", "refused requests count", "when to retry", "counts live in"];

/// Each product's row, in the registry's order: its picker label (with "not run here" for a
/// model read from source or documentation) and its traits.
pub fn rows() -> Vec<[String; 6]> {
    PRODUCTS
        .iter()
        .filter_map(|&algo| {
            let Traits { clock, starts, refused, retry_after, state } = traits(algo)?;
            let name = match run_here(algo) {
                true => algorithm_label(algo).to_string(),
                false => format!("{} (not run here)", algorithm_label(algo)),
            };
            Some([name, clock.into(), starts.into(), refused.into(), retry_after.into(), state.into()])
        })
        .collect()
}

/// The table in Markdown, as docs/products.md carries it.
pub fn markdown() -> String {
    let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
    let mut out = line(&HEADINGS.map(String::from));
    out += &line(&HEADINGS.map(|_| "---".to_string()));
    for row in rows() {
        out += &line(&row.map(|c| c.replace('|', "\\|")));
    }
    out
}

/// The table as markup, for the production panel.
pub fn html() -> String {
    let mut out = String::from(
        "<table class=\"log-table differences-table\" id=\"differences-table\"><caption>Where the limiters differ, \
         as each product's model runs it.</caption><thead><tr>",
    );
    for h in HEADINGS {
        out += &format!("<th scope=\"col\">{h}</th>");
    }
    out += "</tr></thead><tbody>";
    for row in rows() {
        out += &format!("<tr><th scope=\"row\">{}</th>", escape(&row[0]));
        for cell in &row[1..] {
            out += &format!("<td>{}</td>", escape(cell));
        }
        out += "</tr>";
    }
    out + "</tbody></table>"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_product_has_a_row_with_every_cell_said() {
        let rows = rows();
        assert_eq!(rows.len(), PRODUCTS.len());
        for row in &rows {
            assert!(row.iter().all(|c| !c.trim().is_empty()), "{row:?}");
        }
        assert!(rows.iter().any(|r| r[0] == "Kong rate-limiting (not run here)"), "{rows:?}");
    }
}
