//! Where the parts of the cluster's topology go on an area: the clients, the load balancer, a
//! column of nodes and the store, left to right (on a narrow area the boxes with two-word names
//! get more of the width), and the paths requests and store operations travel along.

use crate::chart::plot::ChartStyle;

/// A box: left, top, right, bottom in backend pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect(pub i32, pub i32, pub i32, pub i32);

impl Rect {
    /// The vertical centre.
    pub fn cy(self) -> i32 {
        (self.1 + self.3) / 2
    }
    /// The horizontal centre.
    pub fn cx(self) -> i32 {
        (self.0 + self.2) / 2
    }
}

/// Where everything goes on a `w` × `h` area.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The clients.
    pub clients: Rect,
    /// The load balancer.
    pub lb: Rect,
    /// One box per node, top to bottom.
    pub nodes: Vec<Rect>,
    /// The store.
    pub store: Rect,
    /// Where requests cross the load balancer: under its name.
    pub lane: i32,
}

/// The layout for `nodes` nodes on a `w` × `h` pixel area.
pub fn layout(w: i32, h: i32, nodes: usize, style: &ChartStyle) -> Layout {
    let pad = style.px(10.0);
    let n = nodes.max(1) as i32;
    let mid = h / 2;
    let column = |centre: f64, width: f64, height: i32| {
        let (cx, half) = ((f64::from(w) * centre) as i32, (f64::from(w) * width / 2.0) as i32);
        Rect(cx - half, mid - height / 2, cx + half, mid + height / 2)
    };
    let slot = (h - 2 * pad) / n;
    let node_h = (slot * 3 / 4).min(style.px(34.0)).max(2);
    // On a narrow area the boxes with two-word names get more of the width.
    let narrow = w < style.px(560.0);
    let (clients, lb, node, store) = if narrow {
        ((0.085, 0.16), (0.28, 0.19), (0.52, 0.15), (0.855, 0.25))
    } else {
        ((0.085, 0.13), (0.27, 0.17), (0.53, 0.17), (0.86, 0.22))
    };
    let (node_cx, node_half) = ((f64::from(w) * node.0) as i32, (f64::from(w) * node.1 / 2.0) as i32);
    let room = h - 2 * pad;
    let lb = column(lb.0, lb.1, room.min(style.px(58.0)));
    Layout {
        clients: column(clients.0, clients.1, room.min(style.px(84.0))),
        lane: lb.3 - style.px(16.0),
        lb,
        nodes: (0..n)
            .map(|i| {
                let cy = pad + slot * i + slot / 2;
                Rect(node_cx - node_half, cy - node_h / 2, node_cx + node_half, cy + node_h / 2)
            })
            .collect(),
        store: column(store.0, store.1, room.min(style.px(120.0))),
    }
}

/// Where node `i`'s link meets the store: its edge, spread over the store's height.
pub fn store_port(l: &Layout, i: usize) -> (i32, i32) {
    let s = l.store;
    let n = l.nodes.len().max(1) as i32;
    let span = s.3 - s.1;
    (s.0, s.1 + span * (2 * i as i32 + 1) / (2 * n))
}

/// The point `f` (clamped to 0–1) of the way from `a` to `b`.
pub fn lerp(a: (i32, i32), b: (i32, i32), f: f64) -> (i32, i32) {
    let f = f.clamp(0.0, 1.0);
    (a.0 + (f64::from(b.0 - a.0) * f).round() as i32, a.1 + (f64::from(b.1 - a.1) * f).round() as i32)
}

/// A point `f` of the way from the clients, through the load balancer, to node box `node`
/// (shifted down by `dy` for answers, so they do not hide requests).
pub fn via_lb(l: &Layout, node: Rect, f: f64, dy: i32) -> (i32, i32) {
    let a = (l.clients.2, l.lane + dy);
    let b = (l.lb.0, l.lane + dy);
    let c = (l.lb.2, l.lane + dy);
    let d = (node.0, node.cy() + dy);
    match f {
        f if f < 0.45 => lerp(a, b, f / 0.45),
        f if f < 0.55 => lerp(b, c, (f - 0.45) / 0.1),
        f => lerp(c, d, (f - 0.55) / 0.45),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_box_fits_the_area_and_nodes_never_overlap() {
        for (w, h, nodes) in [(860, 374, 16), (317, 234, 6), (860, 164, 1), (317, 374, 16)] {
            let l = layout(w, h, nodes, &ChartStyle::default());
            let inside = |r: Rect| r.0 >= 0 && r.1 >= 0 && r.2 <= w && r.3 <= h && r.0 < r.2 && r.1 < r.3;
            assert!([l.clients, l.lb, l.store].into_iter().chain(l.nodes.iter().copied()).all(inside), "{l:?}");
            assert!(l.nodes.windows(2).all(|p| p[0].3 < p[1].1), "nodes overlap: {:?}", l.nodes);
            assert!(l.clients.2 < l.lb.0 && l.lb.2 < l.nodes[0].0 && l.nodes[0].2 < l.store.0, "{l:?}");
            assert!(l.lane > l.lb.1 && l.lane < l.lb.3, "requests cross the load balancer inside it");
        }
    }
}
