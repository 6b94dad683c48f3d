//! The still's tests: every card draws, as the embed lays them out, in each theme.

use super::*;

fn q(query: &str) -> Scenario {
    Scenario::from_query(query).unwrap()
}

#[test]
fn every_card_draws_and_the_title_line_gives_the_moments_counts() {
    let single = [Card::Throughput, Card::State, Card::Steady, Card::Strip, Card::Response, Card::Stats];
    let svg = still_svg(&q("rate=8&algo=fixed_window"), &single, Nanos::from_secs(12), Theme::Light, "").unwrap();
    let mut sim = Simulation::new(&q("rate=8&algo=fixed_window"));
    sim.step_until(crate::sim::SimTime::from_secs(12));
    let t = sim.metrics().totals;
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{}", &svg[svg.len() - 400..]);
    assert!(svg.contains(&format!("{} requests, {} admitted", t.requests, t.admitted)), "the counts at t = 12 s");
    for card in single {
        assert!(svg.contains(card.title()), "{card:?}");
    }
    assert!(svg.contains("HTTP/1.1 "), "the last response");
    let cluster = [Card::Topology, Card::Swimlane, Card::Code, Card::Nodes, Card::Rtt, Card::Throughput];
    let svg =
        still_svg(&q("nodes=4&store=race&rtt=20&rate=40"), &cluster, Nanos::from_secs(5), Theme::Light, "").unwrap();
    assert!(svg.contains("node 4: ") && svg.contains("GET"), "per node and the code");
    let server = [Card::ServerLoad, Card::ServerLatency, Card::ServerQueue];
    let storm = q(crate::present::server::presets::STORM.query);
    let svg = still_svg(&storm, &server, Nanos::from_secs(30), Theme::Light, "").unwrap();
    for (card, key) in server.iter().zip(["goodput / s", "p99", "most waiting"]) {
        assert!(svg.contains(card.title()) && svg.contains(key), "{card:?}");
    }
    let compare = still_svg(&q("rate=8"), &[Card::Compare], Nanos::from_secs(5), Theme::Light, "").unwrap();
    assert!(compare.contains("Sliding window log") || compare.contains("Sliding log"), "every column");
}

#[test]
fn the_still_takes_the_embeds_theme_and_caption() {
    let sc = q("rate=8");
    let light = still_svg(&sc, &[Card::Throughput], Nanos::from_secs(5), Theme::Light, "").unwrap();
    let caption = "Why 100 per minute let 200 through: two windows of requests at the seam, every minute of the day.";
    let dark = still_svg(&sc, &[Card::Throughput], Nanos::from_secs(5), Theme::Dark, caption).unwrap();
    let auto = still_svg(&sc, &[Card::Throughput], Nanos::from_secs(5), Theme::Auto, "").unwrap();
    assert!(light.contains("fill=\"#FFFFFF\"") && !light.contains("<style>"), "light, as it was");
    assert!(dark.contains("fill=\"#1B1F26\"") && !dark.contains("fill=\"#FFFFFF\""), "drawn dark");
    assert!(auto.contains("prefers-color-scheme: dark") && auto.contains("fill=\"#FFFFFF\""), "light, dark on demand");
    // The caption is under the cards, in two lines, and makes the still taller by them.
    assert!(
        dark.contains("\nWhy 100 per minute let 200 through: two windows of requests at the seam, every\n</text>"),
        "the caption's first line"
    );
    assert!(dark.contains("\nminute of the day.\n</text>"), "the caption's second line");
    let height =
        |svg: &str| svg.split("height=\"").nth(1).and_then(|h| h.split('"').next()).unwrap().parse::<u32>().unwrap();
    assert_eq!(height(&dark), height(&light) + 2 * LINE + GAP);
}

#[test]
fn cards_are_laid_out_as_the_embeds_grid() {
    let b = |c: Card| (c, Body::Text(vec![]));
    let bodies = [b(Card::State), b(Card::Steady), b(Card::Throughput), b(Card::Response)];
    assert_eq!(rows(&bodies), [vec![0, 1], vec![2], vec![3]]);
    assert_eq!(wrap("aa bb cc", 5), ["aa bb", "cc"]);
}

/// Every `font-size` the SVG sets, px.
fn font_sizes(svg: &str) -> Vec<f64> {
    svg.split("font-size=\"").skip(1).filter_map(|s| s.split('"').next()?.parse().ok()).collect()
}

#[test]
fn every_text_is_at_least_12_px_at_600_px() {
    let single = [Card::Throughput, Card::State, Card::Steady, Card::Strip, Card::Stats, Card::Compare];
    let cluster = [Card::Topology, Card::Swimlane, Card::Throughput, Card::Stats];
    for (query, cards) in [("rate=8&algo=fixed_window&traffic=seam", &single[..]), ("nodes=4&store=race", &cluster)] {
        let svg = still_svg(&q(query), cards, Nanos::from_secs(10), Theme::Light, "A caption").unwrap();
        let sizes = font_sizes(&svg);
        assert!(!sizes.is_empty(), "{query}: no text");
        let smallest = sizes.iter().copied().fold(f64::INFINITY, f64::min);
        assert!(smallest >= 12.0, "{query}: a text of {smallest} px");
        assert!(svg.starts_with("<svg width=\"600\""), "{query}: 600 px wide");
    }
}

#[test]
fn the_heading_names_the_scenario_and_the_cards_carry_their_callout_and_keys() {
    let seam = still_svg(
        &q("algo=fixed_window&limit=10&window=2&traffic=seam"),
        &[Card::Throughput],
        Nanos::from_secs(10),
        Theme::Light,
        "",
    )
    .unwrap();
    assert!(seam.contains("Fixed window (10 per 2 s), the seam attack"), "the scenario in the heading");
    assert!(seam.contains("⚠ 2× the limit — 20 requests admitted within 2.00 s"), "the seam's callout");
    let race = still_svg(
        &q("nodes=4&store=race&rtt=50&rate=100&traffic=poisson"),
        &[Card::Topology, Card::Swimlane],
        Nanos::from_secs(5),
        Theme::Light,
        "",
    )
    .unwrap();
    assert!(race.contains("on 4 nodes sharing a store: GET, then SET"), "nodes and store in the heading");
    for item in ["○ on its way in", "▬ quota left", "◯ two GETs of the same value", "✕ 429"] {
        assert!(race.contains(item), "the keys: {item}");
    }
}
