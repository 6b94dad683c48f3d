//! Drawing the [`Swimlane`]: lanes, operations and marks on a layer without text (redrawn every
//! frame), lane names on a transparent layer above (redrawn when the node count changes). Marks
//! differ by shape: GET ●, SET ■, script ◆, increment ▲, answers ▮ (200) and ✕ (429) on the node
//! lanes; a lost update is a large filled ■ in the rejected colour on the SET that overwrote, a
//! hollow □ on the SET it overwrote, rings round the two reads of the same value and a dashed bar
//! over the store lane for the stretch in between.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::swimlane::{OpKind, Swimlane};
use crate::chart::plot::{ChartStyle, Drawn};
use crate::chart::style::font;

/// Lane geometry on a `w` × `h` area.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lanes {
    /// Left edge of the time axis (right of the lane names).
    pub left: i32,
    /// Right edge of the time axis (now).
    pub right: i32,
    /// Top of the first node lane.
    pub top: i32,
    /// Height of one node lane.
    pub lane: f64,
    /// Top and bottom of the store lane.
    pub store: (i32, i32),
}

impl Lanes {
    /// The geometry for `nodes` lanes.
    pub fn new(w: i32, h: i32, nodes: usize, style: &ChartStyle) -> Self {
        let top = style.px(6.0);
        let store_h = style.px(30.0).max(h / 8);
        let bottom = h - style.px(4.0);
        let store = (bottom - store_h, bottom);
        let lane = f64::from(store.0 - style.px(8.0) - top) / nodes.max(1) as f64;
        Lanes { left: style.px(58.0), right: w - style.px(8.0), top, lane, store }
    }

    /// The centre line of node lane `i`.
    pub fn y(&self, node: u8) -> i32 {
        self.top + (self.lane * (f64::from(node) + 0.5)).round() as i32
    }

    /// The store lane's centre line.
    pub fn store_y(&self) -> i32 {
        (self.store.0 + self.store.1) / 2
    }

    /// The x of `t` seconds relative to now, on a span of `span` seconds.
    pub fn x(&self, t: f64, span: f64) -> i32 {
        self.left + ((1.0 + t / span.max(1e-12)) * f64::from(self.right - self.left)).round() as i32
    }
}

/// The segment from `a` to `b` cut to `left..=right` in x (`None` if wholly outside).
fn clip(a: (i32, i32), b: (i32, i32), left: i32, right: i32) -> Option<[(i32, i32); 2]> {
    let (a, b) = if a.0 <= b.0 { (a, b) } else { (b, a) };
    if b.0 < left || a.0 > right {
        return None;
    }
    let at = |x: i32| {
        if b.0 == a.0 {
            a.1
        } else {
            a.1 + ((f64::from(b.1 - a.1) * f64::from(x - a.0)) / f64::from(b.0 - a.0)).round() as i32
        }
    };
    let a = if a.0 < left { (left, at(left)) } else { a };
    let b = if b.0 > right { (right, at(right)) } else { b };
    Some([a, b])
}

/// Draws `lane` over the whole of `root`.
pub fn draw_swimlane<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    lane: &Swimlane,
    style: &ChartStyle,
) -> Drawn<DB> {
    let t = &style.theme;
    root.fill(&t.background)?;
    let (w, h) = root.dim_in_pixel();
    let g = Lanes::new(w as i32, h as i32, lane.nodes, style);
    let x = |s: f64| g.x(s, lane.span);
    let faint = t.grid.stroke_width(style.stroke(1.0));
    for node in 0..lane.nodes as u8 {
        root.draw(&PathElement::new(vec![(g.left, g.y(node)), (g.right, g.y(node))], faint))?;
    }
    root.draw(&Rectangle::new([(g.left, g.store.0), (g.right, g.store.1)], t.grid.filled()))?;
    if let Some((from, to)) = lane.outage {
        root.draw(&Rectangle::new([(x(from), g.top), (x(to), g.store.1)], t.rejected.mix(0.08).filled()))?;
        root.draw(&Rectangle::new([(x(from), g.store.0), (x(to), g.store.1)], t.rejected.mix(0.3).filled()))?;
    }
    let sy = g.store_y();
    if let Some(at) = lane.failover {
        let dashed = t.rejected.stroke_width(style.stroke(2.0));
        root.draw(&DashedPathElement::new([(x(at), g.top), (x(at), g.store.1)], style.px(6.0), style.px(3.0), dashed))?;
    }
    for &(from, to) in &lane.stale {
        let y = g.store.0 - style.px(3.0);
        if let Some(seg) = clip((x(from), y), (x(to), y), g.left, g.right) {
            let dashed = t.rejected.stroke_width(style.stroke(2.0));
            root.draw(&DashedPathElement::new(seg, style.px(5.0), style.px(3.0), dashed))?;
        }
    }
    for &(node, from, to) in &lane.waits {
        if let Some(seg) = clip((x(from), g.y(node)), (x(to), g.y(node)), g.left, g.right) {
            let dotted = t.axis.stroke_width(style.stroke(2.0));
            root.draw(&DashedPathElement::new(seg, style.px(2.0), style.px(3.0), dotted))?;
        }
    }
    for o in &lane.ops {
        let (ink, width) = match (o.kind, o.lost_update, o.overwritten) {
            (OpKind::Unanswered, ..) | (_, true, _) => (t.rejected, 2.0),
            (_, _, true) => (t.rejected, 1.0),
            _ => (t.axis, 1.0),
        };
        let line = ink.stroke_width(style.stroke(width));
        let node_y = g.y(o.node);
        if let Some(seg) = clip((x(o.sent), node_y), (x(o.at), sy), g.left, g.right) {
            if o.kind == OpKind::Unanswered {
                root.draw(&DashedPathElement::new(seg, style.px(4.0), style.px(3.0), line))?;
            } else {
                root.draw(&PathElement::new(seg.to_vec(), line))?;
            }
        }
        if let Some(back) = o.back {
            if let Some(seg) = clip((x(o.at), sy), (x(back), node_y), g.left, g.right) {
                root.draw(&PathElement::new(seg.to_vec(), line))?;
            }
        }
    }
    let r = style.px(3.5);
    for o in lane.ops.iter().filter(|o| o.at >= -lane.span && o.at <= 0.0) {
        let p = (x(o.at), sy);
        let solid = t.text.filled();
        match o.kind {
            OpKind::Get => {
                root.draw(&Circle::new(p, r, solid))?;
                if o.same_read {
                    root.draw(&Circle::new(p, r * 2, t.rejected.stroke_width(style.stroke(1.5))))?;
                }
            }
            OpKind::Set if o.lost_update => {
                let big = r + style.px(1.5);
                root.draw(&Rectangle::new([(p.0 - big, p.1 - big), (p.0 + big, p.1 + big)], t.rejected.filled()))?;
            }
            OpKind::Set if o.overwritten => {
                let hollow = t.rejected.stroke_width(style.stroke(2.0));
                root.draw(&Rectangle::new([(p.0 - r, p.1 - r), (p.0 + r, p.1 + r)], hollow))?;
            }
            OpKind::Set => root.draw(&Rectangle::new([(p.0 - r, p.1 - r), (p.0 + r, p.1 + r)], solid))?,
            OpKind::Script { allowed } => {
                let ink = if allowed { t.admitted } else { t.rejected };
                let d = r + style.px(1.0);
                root.draw(&Polygon::new(
                    vec![(p.0, p.1 - d), (p.0 + d, p.1), (p.0, p.1 + d), (p.0 - d, p.1)],
                    ink.filled(),
                ))?;
            }
            OpKind::Increment => {
                root.draw(&Polygon::new(vec![(p.0, p.1 - r), (p.0 + r, p.1 + r), (p.0 - r, p.1 + r)], solid))?;
            }
            OpKind::Unanswered => root.draw(&Circle::new(p, r, t.rejected.stroke_width(style.stroke(1.5))))?,
        }
        if o.lost_at_failover {
            root.draw(&Circle::new(p, r * 2, t.rejected.stroke_width(style.stroke(2.0))))?;
        }
    }
    let bar = style.px(1.5).max(1);
    for &(node, at, allowed) in &lane.decisions {
        let (px, py) = (x(at), g.y(node));
        if allowed {
            let half = style.px(5.0).min((g.lane / 2.0) as i32).max(2);
            root.draw(&Rectangle::new([(px - bar, py - half), (px + bar, py + half)], t.admitted.filled()))?;
        } else {
            root.draw(&Cross::new((px, py), style.px(4.0), t.rejected.stroke_width(style.stroke(2.0))))?;
        }
    }
    Ok(())
}

/// Writes the lane names (`node 1` … and `store`) into the left margin of `root`.
pub fn draw_swimlane_labels<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    nodes: usize,
    style: &ChartStyle,
) -> Drawn<DB> {
    let (w, h) = root.dim_in_pixel();
    let g = Lanes::new(w as i32, h as i32, nodes, style);
    let t = &style.theme;
    let size = if g.lane >= f64::from(style.px(15.0)) { 11.5 } else { 9.5 };
    let names = font(size * style.scale).color(&t.text).pos(Pos::new(HPos::Right, VPos::Center));
    let at = g.left - style.px(8.0);
    for node in 0..nodes as u8 {
        root.draw(&Text::new(format!("node {}", node + 1), (at, g.y(node)), names.clone()))?;
    }
    let bold = font(11.5 * style.scale).style(FontStyle::Bold).color(&t.text);
    root.draw(&Text::new("store", (at, g.store_y()), bold.pos(Pos::new(HPos::Right, VPos::Center))))?;
    Ok(())
}
