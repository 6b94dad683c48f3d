//! The request strip: every decision of the last few seconds as a mark on a time line — a bar in
//! the upper lane for admitted, a cross in the lower lane for rejected (429), a ring for a retry —
//! so admitted and rejected differ by place and shape, not by colour alone. A request answered
//! later than it arrived (held in the leaky bucket's queue, or nginx's) has a slant back to its
//! arrival. No text is drawn (the
//! page labels the lanes), so redrawing it every frame costs only the marks.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::plot::{ChartStyle, Drawn};
use crate::sim::metrics::EVENT_RING;
use crate::sim::{Event, EventKind, SimTime};

/// One decision on the strip.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StripMark {
    /// Seconds before now (≤ 0).
    pub x: f64,
    /// Admitted (upper lane) or rejected (lower lane).
    pub allowed: bool,
    /// Whether the request was a retry of a rejected one.
    pub retry: bool,
    /// Seconds the limiter held it, from its arrival to this answer (admitted only).
    pub waited: f64,
}

/// The decisions of the last `span_secs`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Strip {
    /// Width of the strip in seconds.
    pub span_secs: f64,
    /// The marks, oldest first.
    pub marks: Vec<StripMark>,
}

impl Strip {
    /// The decisions among `events` in `(now − span_secs, now]`. When the events held
    /// (the engine keeps a bounded ring) start later than that, the span shrinks to what they
    /// cover, so the strip never shows an empty stretch that really was busy.
    /// `holds`: whether a late answer means the limiter held the request (one node deciding
    /// alone; with a store, every answer waits for the store's round trip instead).
    pub fn from_events<'a>(events: impl Iterator<Item = &'a Event>, now: SimTime, span_secs: f64, holds: bool) -> Self {
        let now_s = now.as_secs_f64();
        let (mut oldest, mut held, mut marks) = (None, 0, Vec::with_capacity(EVENT_RING / 2));
        for e in events {
            held += 1;
            oldest.get_or_insert(e.at);
            if let EventKind::Decided { allowed, retry, latency } = e.kind {
                let waited = if allowed && holds { latency.as_secs_f64() } else { 0.0 };
                marks.push(StripMark { x: e.at.as_secs_f64() - now_s, allowed, retry, waited });
            }
        }
        let span_secs = covered(span_secs, held, oldest, now);
        marks.retain(|m| m.x > -span_secs);
        Strip { span_secs, marks }
    }

    /// The span [`from_events`](Self::from_events) would show, without building the marks.
    pub fn span<'a>(events: impl Iterator<Item = &'a Event>, now: SimTime, span_secs: f64) -> f64 {
        let (mut oldest, mut held) = (None, 0);
        for e in events {
            held += 1;
            oldest.get_or_insert(e.at);
        }
        covered(span_secs, held, oldest, now)
    }
}

/// `span_secs`, or the time a full ring of `held` events reaches back from `now` if that is less.
fn covered(span_secs: f64, held: usize, oldest: Option<SimTime>, now: SimTime) -> f64 {
    match oldest {
        Some(oldest) if held >= EVENT_RING => span_secs.min(now.since(oldest).as_secs_f64()).max(1e-3),
        _ => span_secs,
    }
}

/// Draws the strip over the whole of `root`: background, a faint line between the lanes, marks.
pub fn draw_strip<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, strip: &Strip, style: &ChartStyle) -> Drawn<DB> {
    let t = &style.theme;
    root.fill(&t.background)?;
    let (w, h) = root.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let pad = style.px(8.0);
    let mid = h / 2;
    root.draw(&PathElement::new(vec![(0, mid), (w, mid)], t.grid.stroke_width(style.stroke(1.0))))?;
    let span = strip.span_secs.max(1e-9);
    let x_of = |x: f64| pad.saturating_add(((1.0 + x / span) * f64::from(w - 2 * pad)).round() as i32);
    let lane = |allowed: bool| {
        if allowed {
            (style.px(6.0), mid - style.px(4.0))
        } else {
            (mid + style.px(4.0), h - style.px(6.0))
        }
    };
    let bar = style.px(1.5).max(1);
    for m in &strip.marks {
        let x = x_of(m.x);
        let (top, bottom) = lane(m.allowed);
        let centre = (top + bottom) / 2;
        let colour = if m.allowed { t.admitted } else { t.rejected };
        // Held: a slant from its arrival, at the lane's foot, to its answer (overlapping waits
        // read as parallel slants, where level lines would merge into one).
        let (from, to) = (i64::from(x_of(m.x - m.waited)), i64::from(x));
        if to - from >= 3 {
            // Cut where it enters the strip, for an arrival before the strip's span.
            let rise = i64::from(bottom - top) * (-from).max(0) / (to - from);
            let foot = (from.max(0) as i32, bottom - rise as i32);
            root.draw(&PathElement::new(vec![foot, (x, top)], colour.stroke_width(style.stroke(1.0))))?;
        }
        if m.retry {
            root.draw(&Circle::new((x, centre), style.px(4.5), colour.stroke_width(style.stroke(1.5))))?;
        } else if m.allowed {
            root.draw(&Rectangle::new([(x - bar / 2, top), (x - bar / 2 + bar, bottom)], colour.filled()))?;
        } else {
            root.draw(&Cross::new((x, centre), style.px(4.5), colour.stroke_width(style.stroke(1.75))))?;
        }
    }
    // No present() here: on an SVG it would close the document before the cards drawn after it.
    Ok(())
}
