//! Drawing the cluster's [`Topology`]: one [layout](super::topology_layout) shared by two
//! layers. [`draw_topology`] paints
//! everything that moves — boxes, links, quota bars, dots — and no text, so the browser can
//! redraw it every frame; [`draw_topology_labels`] writes the names on a transparent layer above,
//! redrawn only when the cluster's shape changes. Requests differ by shape as well as colour:
//! rings on the way in, filled dots (admitted) and crosses (rejected) on the way out.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::topology::{DotKind, Topology};
use super::topology_layout::{layout, lerp, store_port, via_lb, Rect};
use crate::chart::plot::{ChartStyle, Drawn};
use crate::chart::style::font;
use crate::sim::{Balancer, StoreMode};

fn boxed<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, r: Rect, fill: RGBAColor, line: ShapeStyle) -> Drawn<DB> {
    root.draw(&Rectangle::new([(r.0, r.1), (r.2, r.3)], fill.filled()))?;
    root.draw(&Rectangle::new([(r.0, r.1), (r.2, r.3)], line))
}

/// A quota bar along the bottom of `r`: `left` of its width, in the admitted colour.
fn quota_bar<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, r: Rect, left: f64, style: &ChartStyle) -> Drawn<DB> {
    let inset = style.px(3.0).min((r.3 - r.1) / 4);
    let height = style.px(3.0).max(1);
    let (x0, x1) = (r.0 + inset, r.2 - inset);
    let x = x0 + (f64::from(x1 - x0) * left.clamp(0.0, 1.0)).round() as i32;
    let y = r.3 - inset - height;
    root.draw(&Rectangle::new([(x0, y), (x1, y + height)], style.theme.grid.filled()))?;
    root.draw(&Rectangle::new([(x0, y), (x, y + height)], style.theme.admitted.filled()))
}

/// Draws `topo` over the whole of `root`: background, links, boxes, quota bars and dots.
pub fn draw_topology<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    topo: &Topology,
    style: &ChartStyle,
) -> Drawn<DB> {
    let t = &style.theme;
    root.fill(&t.background)?;
    let (w, h) = root.dim_in_pixel();
    let l = layout(w as i32, h as i32, topo.nodes, style);
    let thin = t.axis.stroke_width(style.stroke(1.0));
    let shared = topo.mode != StoreMode::Local;
    root.draw(&PathElement::new(vec![(l.clients.2, l.lane), (l.lb.0, l.lane)], thin))?;
    for (i, n) in l.nodes.iter().enumerate() {
        root.draw(&PathElement::new(vec![(l.lb.2, l.lane), (n.0, n.cy())], thin))?;
        if shared {
            let (a, b) = ((n.2, n.cy()), store_port(&l, i));
            if matches!(topo.mode, StoreMode::Async | StoreMode::Sync) {
                let dashes = DashedPathElement::new(vec![a, b], style.px(5.0), style.px(4.0), thin);
                root.draw(&dashes)?;
            } else {
                root.draw(&PathElement::new(vec![a, b], thin))?;
            }
        }
    }
    let fill = t.grid.mix(1.0);
    let line = t.axis.stroke_width(style.stroke(1.0));
    boxed(root, l.clients, fill, line)?;
    boxed(root, l.lb, fill, line)?;
    for (i, n) in l.nodes.iter().enumerate() {
        boxed(root, *n, fill, line)?;
        if let Some(&left) = topo.node_quota.get(i) {
            if n.3 - n.1 >= style.px(10.0) {
                quota_bar(root, *n, left, style)?;
            }
        }
    }
    if shared {
        let (fill, line) = if topo.store_down {
            (t.rejected.mix(0.22), t.rejected.stroke_width(style.stroke(2.0)))
        } else {
            (fill, line)
        };
        boxed(root, l.store, fill, line)?;
        let keys = topo.key_quota.len() as i32;
        if keys > 1 {
            // Sharded counters: one bar per key, side by side along the bottom.
            // (`quota_bar` insets its bar by `inset` from the rectangle it is given.)
            let (s, gap, inset) = (l.store, style.px(2.0), style.px(3.0).min((l.store.3 - l.store.1) / 4));
            let width = (s.2 - s.0 - 2 * inset - gap * (keys - 1)) / keys;
            for (i, &left) in topo.key_quota.iter().enumerate() {
                let x0 = s.0 + inset + (width + gap) * i as i32;
                quota_bar(root, Rect(x0 - inset, s.1, x0 + width + inset, s.3), left, style)?;
            }
        } else if let Some(left) = topo.store_quota {
            quota_bar(root, l.store, left, style)?;
        }
        if topo.lost_flash > 0.0 {
            let pad = style.px(4.0);
            let s = l.store;
            let ring = t.rejected.mix(topo.lost_flash).stroke_width(style.stroke(3.0));
            root.draw(&Rectangle::new([(s.0 - pad, s.1 - pad), (s.2 + pad, s.3 + pad)], ring))?;
        }
    }
    let r = style.px(3.5);
    let ink = t.text.stroke_width(style.stroke(1.5));
    for &(node, f) in &topo.inbound {
        let Some(&n) = l.nodes.get(node as usize) else { continue };
        root.draw(&Circle::new(via_lb(&l, n, f, 0), r, ink))?;
    }
    let shift = style.px(6.0);
    for &(node, f, allowed) in &topo.outbound {
        let Some(&n) = l.nodes.get(node as usize) else { continue };
        let p = via_lb(&l, n, 1.0 - f, shift);
        if allowed {
            root.draw(&Circle::new(p, r, t.admitted.filled()))?;
        } else {
            root.draw(&Cross::new(p, r, t.rejected.stroke_width(style.stroke(2.0))))?;
        }
    }
    for d in &topo.ops {
        let Some(&n) = l.nodes.get(d.node as usize) else { continue };
        let p = lerp((n.2, n.cy()), store_port(&l, d.node as usize), d.at);
        match d.kind {
            DotKind::Op => root.draw(&Circle::new(p, r, t.text.filled()))?,
            DotKind::Increment => {
                root.draw(&Rectangle::new([(p.0 - r, p.1 - r), (p.0 + r, p.1 + r)], t.text.filled()))?
            }
            DotKind::Unanswered => root.draw(&Circle::new(p, r, t.rejected.stroke_width(style.stroke(2.0))))?,
        }
    }
    Ok(())
}

/// The names on the topology, for the text layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TopologyLabels {
    /// Nodes behind the load balancer.
    pub nodes: usize,
    /// The load balancer's policy.
    pub lb: Balancer,
    /// Where the state lives.
    pub mode: StoreMode,
    /// Whether the store is down.
    pub store_down: bool,
    /// Keys the limiter is split over (`shards`; 1: one key).
    pub keys: usize,
}

/// Writes the names of the clients, load balancer, nodes and store over the whole of `root`
/// (leaving the rest transparent).
pub fn draw_topology_labels<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    labels: &TopologyLabels,
    style: &ChartStyle,
) -> Drawn<DB> {
    let (w, h) = root.dim_in_pixel();
    let l = layout(w as i32, h as i32, labels.nodes, style);
    let t = &style.theme;
    let font = |size: f64, bold: bool| {
        let f = font(size * style.scale);
        let f = if bold { f.style(FontStyle::Bold) } else { f };
        f.color(&t.text).pos(Pos::new(HPos::Center, VPos::Center))
    };
    let narrow = (w as i32) < style.px(560.0);
    let (head, sub, tiny) = if narrow {
        (font(10.5, true), font(9.0, false), font(8.5, false))
    } else {
        (font(12.5, true), font(11.0, false), font(9.0, false))
    };
    let line = style.px(if narrow { 12.0 } else { 14.0 });
    let put = |text: &str, at: (i32, i32), f: &TextStyle| root.draw(&Text::new(text.to_string(), at, f.clone()));
    put("Clients", (l.clients.cx(), l.clients.1 + line), &head)?;
    let policy = if labels.lb == Balancer::RoundRobin { "round robin" } else { "random" };
    put(if narrow { "LB" } else { "Load balancer" }, (l.lb.cx(), l.lb.1 + line), &head)?;
    put(policy, (l.lb.cx(), l.lb.1 + line * 2), &sub)?;
    for (i, n) in l.nodes.iter().enumerate() {
        let height = n.3 - n.1;
        let barred =
            matches!(labels.mode, StoreMode::Local | StoreMode::Async | StoreMode::Sync) && height >= style.px(10.0);
        let label = if n.2 - n.0 >= style.px(44.0) { format!("node {}", i + 1) } else { format!("{}", i + 1) };
        let y = if barred { n.cy() - style.px(3.0) } else { n.cy() };
        if height >= style.px(9.0) {
            put(&label, (n.cx(), y), if height >= style.px(16.0) { &sub } else { &tiny })?;
        }
    }
    let s = l.store;
    let (name, how) = match labels.mode {
        StoreMode::Local => ("No store", "each node alone"),
        StoreMode::Race => ("Store", "GET, then SET"),
        StoreMode::Atomic => ("Store", "one Lua script"),
        StoreMode::Async => ("Store", "INCR, async"),
        StoreMode::Sync => ("Redis", "Kong's counts"),
        StoreMode::ReplicaRead => ("Store", "replica reads"),
    };
    let keys = format!("{} keys", labels.keys);
    put(name, (s.cx(), s.cy() - line / 2), &head)?;
    put(if labels.keys > 1 { &keys } else { how }, (s.cx(), s.cy() + line / 2), &sub)?;
    if labels.store_down && labels.mode != StoreMode::Local {
        let down = font(12.5, true).color(&t.rejected);
        put("DOWN", (s.cx(), s.cy() + line * 3 / 2), &down)?;
    }
    Ok(())
}
