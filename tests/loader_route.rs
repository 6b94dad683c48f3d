//! The loader's routing (`present::share::route`): the committed scripts/loader/route.js is the
//! one the rules print, scripts/loader/route-cases.json holds `Module::of`'s answers for the
//! links the build steps' tests run through the built loader in Node (so the printed function
//! and the Rust one must agree), and a link routed to a first module is one that module draws or
//! hands over, never one the loader could have sent elsewhere for nothing.
//!
//! `make loader-route` (`BLESS=1 cargo test --test loader_route`) writes both files anew.
#![cfg(not(target_arch = "wasm32"))]

use ratelimit_playground::present::cluster::presets::is_cluster;
use ratelimit_playground::present::modules;
use ratelimit_playground::present::share::cards::Card;
use ratelimit_playground::present::share::link::{Link, LinkView};
use ratelimit_playground::present::share::route::{route_js, Module};
use ratelimit_playground::sim::products::REGISTRY;
use ratelimit_playground::sim::{Rate, Scenario};

/// Links whose routing Node must agree on (each as `location.search` holds it): one of each
/// rule, both sides of each, and the ways `URLSearchParams` and `Number()` read a value.
const CASES: &[&str] = &[
    "",
    "?",
    "?algo=token_bucket&capacity=5",
    "?algo=gcra&rate=3&view=single",
    "?algo=sliding_log",
    "?view=compare",
    "?view=cluster",
    "?view=grid",
    "?nodes=4&store=atomic",
    "?nodes=1",
    "?nodes=2",
    "?nodes=0",
    "?nodes=",
    "?nodes",
    "?nodes=1.5",
    "?nodes=+2",
    "?nodes=-3",
    "?nodes=01",
    "?nodes=1e1",
    "?nodes=0x2",
    "?nodes=0b1",
    "?nodes=%202%0A",
    "?nodes=%EF%BB%BF2",
    "?nodes=%C2%852",
    "?nodes=Infinity",
    "?nodes=infinity",
    "?nodes=2abc",
    "?nodes=1&nodes=4",
    "?nodes=4&nodes=1",
    "?store=race",
    "?store=local",
    "?store=lo%63al",
    "?store=LOCAL",
    "?store=",
    "?store",
    "?algo=nginx",
    "?algo=upstash_fixed",
    "?algo=bogus",
    "?algo=",
    "?algo=gcr%61",
    "?algo=token+bucket",
    "?algo=%FF",
    "?al%67o=envoy",
    "?algo=gcra&algo=nginx",
    "?algo=nginx&algo=gcra",
    "?vi%65w=cluster",
    "??view=cluster",
    "?embed=1",
    "?embed=1&algo=nginx",
    "?embed=1&show=compare",
    "?embed=1&show=state,compare,throughput",
    "?embed=1&show=compared",
    "?embed=1&show=state&show=compare",
    "?embed=1&view=compare",
    "?embed=1&view=cluster",
    "?embed=1&nodes=3",
    "?embed=1&store=atomic",
    "?embed=1&embed=0",
    "?embed=0&embed=1",
    "?embed=0",
    "?embed=true",
    "?embed=01",
    "?show=compare",
    "?embed=0&show=compare",
    "?caption=a%3Db&embed=1&theme=dark",
    "?tour=path&step=3",
    "?tour",
    "?step=3",
    "?embed=1&tour=path",
];

fn page_start() -> Scenario {
    Scenario { rate: Rate::per_sec(8), ..Scenario::default() }
}

/// Writes `actual` to the crate's file `name` under BLESS=1; otherwise fails unless the file holds
/// it.
fn check_committed(name: &str, actual: &str) {
    let path = format!("{}/{name}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("BLESS").is_some() {
        std::fs::write(&path, actual).unwrap_or_else(|e| panic!("{name}: {e}"));
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == actual,
        "{name} is not what src/present/share/route.rs prints: run `make loader-route` \
         (BLESS=1 cargo test --test loader_route) and commit it"
    );
}

#[test]
fn the_committed_routing_is_the_one_the_rules_print() {
    check_committed("scripts/loader/route.js", &route_js());
}

#[test]
fn the_committed_cases_are_module_of_s_answers() {
    let lines: Vec<String> = CASES
        .iter()
        .map(|search| {
            assert!(search.bytes().all(|b| b.is_ascii_graphic() && b != b'"' && b != b'\\'), "{search}");
            format!("  [\"{search}\", \"{}\"]", Module::of(search).key())
        })
        .collect();
    check_committed("scripts/loader/route-cases.json", &format!("[\n{}\n]\n", lines.join(",\n")));
}

/// Links made of every combination of values that matter to the routing or to the first
/// modules' readers.
fn links() -> Vec<String> {
    let products: Vec<String> = REGISTRY.iter().map(|p| format!("algo={}", p.key)).collect();
    let mut algos = vec!["", "algo=token_bucket", "algo=gcra", "algo=sliding_window", "algo=bogus", "algo=gcr%61"];
    algos.extend(products.iter().map(String::as_str));
    algos.extend(["algo=gcra&algo=nginx", "algo=nginx&algo=gcra"]);
    let keys: [&[&str]; 7] = [
        &["", "view=single", "view=compare", "view=cluster", "view=grid"],
        &["", "nodes=1", "nodes=2", "nodes=0", "nodes=+2", "nodes=0x2", "nodes=%202", "nodes=1&nodes=3"],
        &["", "store=local", "store=race", "store=", "store=lo%63al"],
        &algos,
        &["", "embed=1", "embed=0", "embed=true"],
        &["", "show=compare", "show=state,compare", "show=topology", "show=state"],
        &["", "rate=3", "rate=abc&theme=dark"],
    ];
    let mut out = vec![String::new()];
    for values in keys {
        out = out
            .iter()
            .flat_map(|q| values.iter().map(move |v| [q.as_str(), v].into_iter().filter(|s| !s.is_empty()).collect()))
            .map(|pairs: Vec<&str>| pairs.join("&"))
            .collect();
    }
    out.into_iter().map(|q| format!("?{q}")).collect()
}

/// Whether the page's first module draws `link` as `Link::read_page` read it, rather than
/// hand it over (`app::LightApp`: a textbook algorithm, one server's view).
fn page_draws(link: &Link) -> bool {
    !link.scenario.algo.is_product() && link.view == LinkView::Single && !is_cluster(&link.scenario)
}

/// Whether a frame's module draws `link` as `Link::read_frame` read it, as far as the
/// loader can know (`app::EmbedPage`: a textbook algorithm, one server, no Compare all card; it also hands over a
/// multi-node card on one server, for the whole page to say why it is left out).
fn frame_draws(link: &Link) -> bool {
    !link.scenario.algo.is_product()
        && link.view == LinkView::Single
        && !is_cluster(&link.scenario)
        && !link.frame.cards.contains(&Card::Compare)
}

#[test]
fn a_link_for_a_first_module_is_one_it_draws_or_hands_over() {
    let base = page_start();
    let links = links();
    assert!(links.len() > 10_000, "{}", links.len());
    let mut drawn = [0; 2];
    for q in &links {
        match Module::of(q) {
            Module::Page => {
                if let Some(link) = Link::read_page(q, &base, modules::PAGE) {
                    assert!(page_draws(&link), "{q}: the page's first module would hand over what it reads");
                    drawn[0] += 1;
                }
            }
            Module::Frame => {
                if let Some(link) = Link::read_frame(q, &base, modules::FRAME) {
                    assert!(frame_draws(&link), "{q}: a frame's module would hand over what it reads");
                    drawn[1] += 1;
                }
            }
            Module::Whole => {}
        }
    }
    assert!(drawn.iter().all(|&n| n > 100), "too few links drawn by a first module to tell: {drawn:?}");
}

#[test]
fn a_link_a_first_module_draws_is_never_sent_to_the_whole_page() {
    let base = page_start();
    for q in links() {
        if q.contains("embed=true") {
            // The loader takes a frame's link only as the embed builder writes it, `embed=1`:
            // `embed=true`, which a frame's module reads too, reaches it through the page's
            // first module and the whole page.
            continue;
        }
        let page = Link::read_page(&q, &base, modules::PAGE).filter(page_draws);
        let frame = Link::read_frame(&q, &base, modules::FRAME).filter(frame_draws);
        let expected = match (page, frame) {
            (Some(_), _) => Module::Page,
            (None, Some(_)) => Module::Frame,
            (None, None) => continue,
        };
        assert_eq!(Module::of(&q), expected, "{q}: the loader starts a heavier module than this link needs");
    }
}

#[test]
fn every_link_routed_to_the_page_has_a_textbook_algorithm_one_view_and_one_node() {
    let base = page_start();
    for q in links().iter().filter(|q| Module::of(q) == Module::Page) {
        // As the whole page would read it: what the page's first module hands over is what it
        // refuses to read (a problem to explain), never one it would draw differently.
        let (full, problems) = Link::read(q, &base);
        if problems.is_empty() && !full.embed {
            assert!(!full.scenario.algo.is_product(), "{q}: a product model on the page");
            assert_eq!(full.view, LinkView::Single, "{q}");
            assert!(!is_cluster(&full.scenario), "{q}: a multi-node run on the page");
        }
    }
}
