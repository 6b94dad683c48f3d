//! The page's first chart (issue #49): before any module has loaded, index.html paints a still of
//! the throughput card the page opens with — the opening scenario's first
//! [`SECONDS`] simulated seconds, run by the engine and drawn by the chart code the live card
//! draws with (its axes without the legend, which the card shows in HTML, then its data) — in
//! the first screen, inside `#first-paint`, which the loader removes once the app has mounted.
//! Two drawings, one for phones (`.still-narrow`) and one for wider screens (`.still-wide`),
//! each at the size the live chart has there, so their text is the size the live chart's is.
//! The colours are the light theme's as plotters writes them; `style/main.css` maps each to the
//! page's custom property for it, so the still follows dark mode and a frame's `theme=` as the
//! live chart does.
//!
//! The block between `<!-- first-chart` and `<!-- /first-chart -->` in index.html is the one this
//! test prints: `BLESS=1 cargo test --test first_chart` writes it anew; commit the result.
#![cfg(not(target_arch = "wasm32"))]

use plotters::prelude::*;
use ratelimit_playground::chart::plot::{draw_layered, Axes, Dash, Ink};
use ratelimit_playground::chart::throughput::{
    draw_throughput_data, throughput_axes, throughput_legend, ChartStyle, ThroughputWindow,
};
use ratelimit_playground::present::chart_data::{self, THROUGHPUT_SECONDS};
use ratelimit_playground::present::runner::Runner;
use ratelimit_playground::sim::{Nanos, Rate, Scenario};

/// Simulated seconds the still shows: the first rejection, and enough of the steady state
/// after it to read the admitted rate settle on the refill rate.
const SECONDS: u64 = 20;

/// The drawings: class, width and height in CSS px. The live chart's plot is 300 px tall, and
/// 240 px on screens up to 520 px wide (style/main.css); the widths are the live plot's at
/// 375 px (a phone) and at 1280 px (a laptop).
const DRAWINGS: [(&str, u32, u32); 2] = [("still-wide", 843, 300), ("still-narrow", 317, 240)];

/// Where the block starts and ends in index.html.
const BEGIN: &str = "<!-- first-chart";
const END: &str = "<!-- /first-chart -->";

/// The scenario the page opens with (`app::page::first_scenario`): the defaults, with arrivals
/// above the refill rate.
fn first_scenario() -> Scenario {
    Scenario { rate: Rate::per_sec(8), ..Scenario::default() }
}

/// The throughput the live card shows after [`SECONDS`] of the opening scenario.
fn opening_throughput() -> ThroughputWindow {
    let mut runner = Runner::new(&first_scenario(), false);
    runner.jump(Nanos::from_secs(SECONDS));
    chart_data::throughput(&runner.sims()[0], THROUGHPUT_SECONDS)
}

/// `data` drawn as the live card draws it, as an `<svg>` element of class `class` for index.html:
/// sized by its box (a view box, no width or height), hidden from screen readers (the figure's
/// caption says what it is), each text on one line, without plotters' `opacity="1"`.
fn drawing(data: &ThroughputWindow, class: &str, width: u32, height: u32) -> String {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        let style = ChartStyle::default();
        let axes = Axes { legend: Vec::new(), ..throughput_axes(data, data.y_max(), false) };
        draw_layered(&root, &axes, &style, |plot| draw_throughput_data(plot, data, &style)).expect("draw the still");
        root.present().expect("finish the still");
    }
    let open = format!("<svg width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" xmlns=\"http://www.w3.org/2000/svg\">\n");
    let body = svg.strip_prefix(&open).unwrap_or_else(|| panic!("plotters' SVG starts otherwise: {}", &svg[..120]));
    let body = body.replace(" opacity=\"1\"", "").replace(">\n", ">").replace("\n</text>", "</text>");
    format!("<svg class=\"{class}\" viewBox=\"0 0 {width} {height}\" aria-hidden=\"true\">{}", body.trim_end())
}

/// The legend's line sample classes, as `app::legend` writes them.
fn swatch(ink: Ink, dash: Dash) -> String {
    let ink = match ink {
        Ink::Admitted => "ink-admitted",
        Ink::Rejected => "ink-rejected",
        Ink::Text => "ink-text",
        Ink::Axis => "ink-axis",
    };
    let dash = match dash {
        Dash::Solid => "solid",
        Dash::Dashed => "dashed",
        Dash::Dotted => "dotted",
    };
    format!("swatch {ink} {dash}")
}

/// index.html's block: the card as the live one is built (`app::throughput_view`), in the
/// results column where the layout has two, its caption saying it is a still.
fn block() -> String {
    let data = opening_throughput();
    let legend: String = throughput_legend(data.allowed_rate.is_some())
        .iter()
        .map(|k| format!("<li><span class=\"{}\"></span>{}</li>", swatch(k.ink, k.dash), k.label))
        .collect();
    let drawings: Vec<String> = DRAWINGS.iter().map(|&(class, w, h)| drawing(&data, class, w, h)).collect();
    [
        format!("{BEGIN}: printed by tests/first_chart.rs (BLESS=1 cargo test --test first_chart) -->"),
        "<div class=\"layout\" id=\"first-chart\">".into(),
        "<figure class=\"panel chart-card\">".into(),
        format!(
            "<figcaption><span class=\"chart-title\">Throughput</span><span class=\"chart-sub\">the first {SECONDS} \
             simulated seconds: a still, until the live run starts</span></figcaption>"
        ),
        format!("<ul class=\"legend\" aria-hidden=\"true\">{legend}</ul>"),
        format!("<div class=\"plot plot-tall\">{}</div>", drawings.join("")),
        "</figure>".into(),
        "</div>".into(),
        END.into(),
    ]
    .join("\n")
}

fn index_html() -> (std::path::PathBuf, String) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("index.html");
    let text = std::fs::read_to_string(&path).expect("read index.html");
    (path, text)
}

/// The committed block's byte range in index.html: from its first marker's `<` to the end of
/// its last.
fn committed_range(html: &str) -> std::ops::Range<usize> {
    let start = html.find(BEGIN).expect("index.html has no <!-- first-chart block");
    let end = html[start..].find(END).expect("index.html's first-chart block has no end marker") + start + END.len();
    start..end
}

#[test]
fn the_committed_still_is_the_one_the_engine_draws() {
    let (path, html) = index_html();
    let range = committed_range(&html);
    let actual = block();
    // The block sits indented inside #first-paint: compare line by line without the indent.
    let indent = html[..range.start].rsplit('\n').next().unwrap_or("");
    let committed: Vec<&str> = html[range.clone()].lines().map(str::trim_start).collect();
    if std::env::var_os("BLESS").is_some() {
        let indented = actual.lines().collect::<Vec<_>>().join(&format!("\n{indent}"));
        std::fs::write(&path, format!("{}{indented}{}", &html[..range.start], &html[range.end..]))
            .expect("write index.html");
        return;
    }
    assert!(
        committed == actual.lines().collect::<Vec<_>>(),
        "index.html's first chart is not the one tests/first_chart.rs draws: run \
         `BLESS=1 cargo test --test first_chart` and commit index.html"
    );
}

#[test]
fn the_still_sits_in_the_first_paint_the_loader_removes() {
    let (_, html) = index_html();
    let range = committed_range(&html);
    let open = html.find("<div id=\"first-paint\">").expect("index.html's #first-paint is a <div>");
    let close = html[open..].find("</div><!-- /first-paint -->").expect("#first-paint's end is marked") + open;
    assert!(open < range.start && range.end < close, "the still is not inside #first-paint");
}

#[test]
fn every_colour_of_the_still_follows_the_page_theme() {
    let css = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("style/main.css"))
        .expect("read style/main.css");
    let svg = block();
    let mut colours = Vec::new();
    for attr in ["fill", "stroke"] {
        let key = format!(" {attr}=\"#");
        for (i, _) in svg.match_indices(&key) {
            let hex = &svg[i + key.len() - 1..i + key.len() + 6];
            colours.push(format!("[{attr}=\"{hex}\"]"));
        }
    }
    colours.sort();
    colours.dedup();
    assert!(colours.len() >= 5, "{colours:?}");
    for c in colours {
        assert!(
            css.contains(&format!("#first-chart {c}")),
            "style/main.css has no #first-chart {c} rule for the still"
        );
    }
}

#[test]
fn the_still_shows_the_first_rejections_and_the_refill_rate() {
    let data = opening_throughput();
    assert_eq!(data.width_secs, SECONDS as f64, "the time axis spans exactly the still's seconds");
    assert_eq!(data.buckets.len() as u64, SECONDS);
    assert!(data.buckets.iter().any(|b| b.rejected > 0), "no 429 in the still");
    let last = data.buckets.last().expect("a second");
    assert_eq!((last.admitted, last.rejected), (5, 3), "the steady state: 5 admitted and 3 rejected a second");
}
