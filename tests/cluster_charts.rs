//! The multi-node view's pictures, natively: the layers redrawn every frame draw no text (so the
//! browser never measures any per frame), the text layers name every node, and a racy run's lost
//! updates are drawn in the rejected colour while an atomic run's scripts never are lost.

mod common;

use common::recorder::{record, rgb};
use ratelimit_playground::chart::cluster::swimlane::{span_for, Swimlane};
use ratelimit_playground::chart::cluster::swimlane_draw::{draw_swimlane, draw_swimlane_labels};
use ratelimit_playground::chart::cluster::topology::Topology;
use ratelimit_playground::chart::cluster::topology_draw::{draw_topology, draw_topology_labels, TopologyLabels};
use ratelimit_playground::chart::cluster::trace::{Link, Traces};
use ratelimit_playground::chart::plot::ChartStyle;
use ratelimit_playground::chart::text_layer::write_svg;
use ratelimit_playground::chart::theme::ChartTheme;
use ratelimit_playground::sim::{Nanos, Scenario, SimTime, Simulation, StoreMode};

fn run(q: &str, secs: u64) -> (Scenario, Simulation) {
    let sc = Scenario::from_query(q).unwrap();
    let mut sim = Simulation::new(&sc);
    sim.step_until(SimTime::from_secs(secs));
    (sc, sim)
}

fn swimlane(q: &str) -> Swimlane {
    let (sc, sim) = run(q, 10);
    let traces = Traces::from_events(sim.metrics().events());
    let waits = matches!(sc.store, StoreMode::Race | StoreMode::Atomic);
    Swimlane::from_traces(&traces, sim.now(), span_for(&sc), &Link::of(&sc), sc.nodes as usize, waits)
}

#[test]
fn the_moving_layers_draw_no_text_and_the_text_layers_name_every_node() {
    let style = ChartStyle::default();
    let (sc, sim) = run("nodes=16&store=race&rtt=20&rate=500", 5);
    let traces = Traces::from_events(sim.metrics().events());
    let tau = Nanos::from_millis(100);
    let at = SimTime(sim.now().as_nanos() - tau.as_nanos());
    let topo = Topology::at(&traces, at, tau, &Link::of(&sc), sc.store, 16);
    assert!(!topo.inbound.is_empty() && !topo.ops.is_empty(), "nothing in flight at 500 requests/s");
    let moving = record(|root| draw_topology(root, &topo, &style).unwrap());
    assert!(moving.texts.is_empty(), "the topology's moving layer drew text: {:?}", moving.texts);
    let lane = swimlane("nodes=16&store=race&rtt=20&rate=500");
    let moving = record(|root| draw_swimlane(root, &lane, &style).unwrap());
    assert!(moving.texts.is_empty(), "the swimlane's moving layer drew text: {:?}", moving.texts);

    let labels = TopologyLabels { nodes: 16, lb: sc.lb, mode: sc.store, store_down: false, keys: 1 };
    let text = record(|root| draw_topology_labels(root, &labels, &style).unwrap());
    assert!((1..=16).all(|i| text.has_text(&format!("node {i}"))), "{:?}", text.texts);
    assert!(text.has_text("GET, then SET") && !text.has_text("DOWN"));
    let text = record(|root| draw_swimlane_labels(root, 16, &style).unwrap());
    assert!(text.has_text("node 16") && text.has_text("store"), "{:?}", text.texts);
}

#[test]
fn the_names_layer_is_svg_text_in_the_canvas_pixels() {
    let sc = Scenario::from_query("nodes=16&store=race").unwrap();
    let style = ChartStyle { scale: 2.0, ..ChartStyle::default() };
    let labels = TopologyLabels { nodes: 16, lb: sc.lb, mode: sc.store, store_down: false, keys: 1 };
    let svg =
        write_svg(1600, 760, |root| draw_topology_labels(root, &labels, &style).map_err(|e| e.to_string())).unwrap();
    assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1600 760""#), "{svg}");
    assert_eq!(
        svg.matches("<text ").count(),
        16 + 5,
        "16 nodes, clients, the balancer and its policy, the store and its mode"
    );
    assert!((1..=16).all(|i| svg.contains(&format!(">node {i}</text>"))), "{svg}");
    // Centred as the canvas centred them, at the scale's font size, bold where the canvas was.
    assert!(svg.contains(r#"text-anchor="middle" dominant-baseline="middle""#), "{svg}");
    assert!(svg.contains(r#"font-size="25.0" font-weight="bold""#), "the 12.5 px heads at scale 2: {svg}");
    let lanes = write_svg(960, 700, |root| draw_swimlane_labels(root, 16, &style).map_err(|e| e.to_string())).unwrap();
    assert!(lanes.contains(r#"text-anchor="end""#) && lanes.contains(">store</text>"), "{lanes}");
}

#[test]
fn lost_updates_are_drawn_in_the_rejected_colour_and_scripts_never_lose_one() {
    let style = ChartStyle::default();
    let rejected = rgb(ChartTheme::LIGHT.rejected);
    let racy = swimlane("nodes=4&store=race&rtt=50&rate=100&traffic=poisson");
    assert!(racy.lost_updates > 0);
    let drawn = record(|root| draw_swimlane(root, &racy, &style).unwrap());
    assert!(drawn.marks.iter().any(|m| m.rgb == rejected && m.filled), "no filled mark for the overwriting SET");

    let atomic = swimlane("nodes=4&store=atomic&rtt=50&rate=100&traffic=poisson");
    assert_eq!(atomic.lost_updates, 0);
    assert!(atomic.stale.is_empty() && atomic.ops.iter().all(|o| !o.lost_update && !o.overwritten));
}

#[test]
fn a_store_that_is_down_is_named_and_drawn_in_the_rejected_colour() {
    let style = ChartStyle::default();
    let (sc, sim) = run("nodes=3&store=atomic&rtt=10&rate=50&outage=2-8", 4);
    let traces = Traces::from_events(sim.metrics().events());
    let topo = Topology::at(&traces, sim.now(), Nanos::from_millis(200), &Link::of(&sc), sc.store, 3);
    assert!(topo.store_down);
    let drawn = record(|root| draw_topology(root, &topo, &style).unwrap());
    assert!(drawn.strokes(ChartTheme::LIGHT.rejected) > 0, "the down store is not outlined in the rejected colour");
    let labels = TopologyLabels { nodes: 3, lb: sc.lb, mode: sc.store, store_down: true, keys: 1 };
    assert!(record(|root| draw_topology_labels(root, &labels, &style).unwrap()).has_text("DOWN"));
}
