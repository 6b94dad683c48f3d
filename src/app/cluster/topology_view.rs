//! The topology card: clients, load balancer, nodes and store, with requests flowing. While
//! playing it is drawn a moment behind the engine (the trip to a node takes no simulated time,
//! so it is given a visual one); when paused it shows exactly the engine's instant.

use leptos::prelude::*;

use super::key_view::key_item;
use super::layered::{LayeredCanvas, Painter, Writer};
use crate::app::playground::Playground;
use crate::chart::cluster::topology_draw::{draw_topology, draw_topology_labels, TopologyLabels};
use crate::present::cluster::keys::topology_key;
use crate::present::cluster::pictures::picture;
use crate::sim::StoreMode;

/// The topology card.
#[component]
pub fn TopologyCard(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let sc = pg.scenario;
    let nodes = Memo::new(move |_| sc.with(|s| s.nodes.clamp(1, 16)));
    let redraw = Memo::new(move |_| {
        let running = pg.running.get();
        pg.snapshot.with(|s| (s.generation << 40) ^ (s.events << 1) ^ u64::from(running))
    });
    let down = Memo::new(move |_| {
        let now = pg.snapshot.with(|s| s.now);
        sc.with(|s| s.outage.is_some_and(|o| o.start <= now && now < o.end))
    });
    let labels = Memo::new(move |_| {
        sc.with(|s| {
            let keys = crate::sim::shards::count(s) as u64;
            (keys << 16) ^ (u64::from(s.nodes) << 8) ^ ((s.store as u64) << 4) ^ ((s.lb as u64) << 2)
        }) ^ u64::from(down.get())
    });
    let paint: Painter = Box::new(move |root, style| {
        let running = pg.running.get_untracked();
        let speed = pg.speed.get_untracked();
        let Some(topo) = pg.with_runner(|r| r.sims().first().map(|s| picture(s, running, speed))).flatten() else {
            return Ok(());
        };
        draw_topology(root, &topo, style).map_err(|e| e.to_string())
    });
    let write: Writer = Box::new(move |root, style| {
        let t = sc.with_untracked(|s| TopologyLabels {
            nodes: s.nodes as usize,
            lb: s.lb,
            mode: s.store,
            store_down: down.get_untracked(),
            keys: if crate::sim::shards::applies(s) { crate::sim::shards::count(s) } else { 1 },
        });
        draw_topology_labels(root, &t, style).map_err(|e| e.to_string())
    });
    let label = Signal::derive(move || {
        sc.with(|s| {
            format!(
                "Clients send requests through a load balancer to {} nodes{}; rings are requests on their way in, filled dots admitted answers, crosses rejected ones",
                s.nodes,
                if s.store == StoreMode::Local { ", each with its own limiter" } else { " that share one store" }
            )
        })
    });
    view! {
        <figure class="panel chart-card topology-card">
            <figcaption>
                <span class="chart-title">"The cluster"</span>
                <span class="chart-sub">{move || if pg.running.get() { "requests flowing, drawn a moment behind the engine" } else { "paused: the engine's instant" }}</span>
            </figcaption>
            <LayeredCanvas id="topology" label=label height=Signal::derive(move || 150 + 14 * nodes.get())
                redraw=redraw labels=labels paint=paint write=write />
            <p class="topology-key" aria-hidden="true">
                {move || topology_key(sc.with(|s| s.outage.is_some())).into_iter().map(key_item).collect_view()}
            </p>
        </figure>
    }
}
