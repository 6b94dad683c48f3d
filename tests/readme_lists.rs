//! The README's lists of products and of `--export` values, held to the product registry: the
//! intro paragraph names every product, the products table has one row per production tab with
//! every product's `algo=` value in it, and every `--export` the README shows is one the CLI
//! accepts (a list of them, `--export a|b|…`, is all of them). A product added to
//! `sim::products::REGISTRY` fails here until the README names it.

use ratelimit_playground::sim::products::{EXPORT_NAMES, REGISTRY};
use std::collections::BTreeSet;

/// The README, as committed.
fn readme() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README.md")
}

/// `text` lower-cased with its code marks dropped, so "Python `limits`" reads "python limits".
fn plain(text: &str) -> String {
    text.replace('`', "").to_lowercase()
}

/// The first paragraph after the title: what the project is, and every product it models.
fn intro(readme: &str) -> &str {
    let body = readme.split_once("\n\n").expect("a title, then the intro").1;
    body.split("\n\n").next().unwrap_or_default()
}

/// One row of the products table: its cells, code marks kept.
struct Row {
    product: String,
    algos: Vec<String>,
    export: String,
}

/// The header of the README's products table.
const TABLE_HEADER: &str = "| product | `algo=` | `--export` |";

/// The rows of the products table (the one headed [`TABLE_HEADER`]).
fn table(readme: &str) -> Vec<Row> {
    let start =
        readme.find(TABLE_HEADER).expect("the README's products table, headed `| product | `algo=` | `--export` |`");
    readme[start..]
        .lines()
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
            assert_eq!(cells.len(), 3, "a products table row has three cells: {line}");
            let code = |cell: &str| -> Vec<String> {
                cell.split(',').map(|v| v.trim().trim_matches('`').to_string()).collect()
            };
            Row { product: cells[0].to_string(), algos: code(cells[1]), export: cells[2].trim_matches('`').to_string() }
        })
        .collect()
}

/// Every `--export VALUE` the README shows, VALUE as written (a list is `a|b|c`).
fn export_mentions(readme: &str) -> Vec<String> {
    readme
        .match_indices("--export ")
        .map(|(at, flag)| {
            let rest = &readme[at + flag.len()..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '|'))
                .unwrap_or(rest.len());
            rest[..end].to_string()
        })
        .filter(|value| !value.is_empty() && value.chars().next().is_some_and(|c| c.is_ascii_lowercase()))
        .collect()
}

/// What `listed` lacks of `wanted` and has beyond it, in words; empty when they are the same set.
fn difference(what: &str, listed: &BTreeSet<&str>, wanted: &BTreeSet<&str>) -> String {
    let missing: Vec<_> = wanted.difference(listed).collect();
    let extra: Vec<_> = listed.difference(wanted).collect();
    let mut out = Vec::new();
    if !missing.is_empty() {
        out.push(format!("{what} lacks {missing:?}"));
    }
    if !extra.is_empty() {
        out.push(format!("{what} has {extra:?}, which the registry does not"));
    }
    out.join("; ")
}

#[test]
fn the_intro_names_every_product_in_the_registry() {
    let readme = readme();
    let intro = plain(intro(&readme));
    let missing: Vec<&str> = REGISTRY.iter().map(|p| p.name).filter(|name| !intro.contains(&plain(name))).collect();
    assert!(
        missing.is_empty(),
        "the README's intro paragraph does not name {missing:?} (each product's `name` in src/sim/products/)"
    );
}

#[test]
fn the_products_table_has_every_product_s_algo_and_its_export() {
    let readme = readme();
    let rows = table(&readme);
    let listed: BTreeSet<&str> = rows.iter().flat_map(|r| r.algos.iter().map(String::as_str)).collect();
    let wanted: BTreeSet<&str> = REGISTRY.iter().map(|p| p.key).collect();
    let diff = difference("the README's products table (its `algo=` column)", &listed, &wanted);
    assert!(diff.is_empty(), "{diff}");
    for row in &rows {
        for algo in &row.algos {
            let product = REGISTRY.iter().find(|p| p.key == algo).expect("checked above");
            assert_eq!(
                row.export, product.export,
                "the README's products table: `{algo}` is exported as `--export {}`",
                product.export
            );
            assert!(
                plain(&row.product).contains(&plain(product.name)),
                "the README's products table: the row of `{algo}` should name it \"{}\", not \"{}\"",
                product.name,
                row.product
            );
        }
    }
}

#[test]
fn the_products_table_lists_every_export_once_in_the_panel_s_order() {
    let readme = readme();
    let exports: Vec<String> = table(&readme).into_iter().map(|r| r.export).collect();
    let listed: BTreeSet<&str> = exports.iter().map(String::as_str).collect();
    let diff =
        difference("the README's products table (its `--export` column)", &listed, &EXPORT_NAMES.into_iter().collect());
    assert!(diff.is_empty(), "{diff}");
    assert_eq!(
        exports, EXPORT_NAMES,
        "the README's products table: one row per `--export` value, in the production panel's order"
    );
}

#[test]
fn every_export_the_readme_shows_is_one_the_cli_accepts() {
    let readme = readme();
    let mentions = export_mentions(&readme);
    assert!(!mentions.is_empty(), "the README shows `--export`");
    let accepted: BTreeSet<&str> = EXPORT_NAMES.into_iter().collect();
    for mention in &mentions {
        if mention.contains('|') {
            let listed: BTreeSet<&str> = mention.split('|').collect();
            let diff = difference(&format!("the README's `--export {mention}`"), &listed, &accepted);
            assert!(diff.is_empty(), "{diff}");
        } else {
            assert!(
                accepted.contains(mention.as_str()),
                "the README shows `--export {mention}`, which the CLI refuses (it accepts {EXPORT_NAMES:?})"
            );
        }
    }
}
