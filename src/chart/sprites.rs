//! Small marks — the dots, rings and crosses of the strip, the topology and the swimlane — drawn
//! once into a little canvas of their own and then copied wherever they go. Without a GPU the
//! browser rasterises every path anew on each frame (at 16 nodes ~1.5 ms a frame went to paths,
//! most of them marks); copying a bitmap at a whole-pixel offset is a blit, and paints the same
//! pixels, because the mark sits at the same sub-pixel position in its sprite as on the chart.
//!
//! Sprites are kept per shape, size and ink for the page's lifetime (a handful: a few shapes in
//! a few colours, times two themes); the cache empties itself should it ever pass [`MAX_SPRITES`].

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, ImageBitmap, OffscreenCanvas, OffscreenCanvasRenderingContext2d};

use super::ink::{css_color, Ink};

/// Marks larger than this radius (device pixels) are drawn as paths: sprites pay off for small ones.
pub const MAX_RADIUS: u32 = 16;

/// Most sprites kept before the cache starts over.
const MAX_SPRITES: usize = 64;

/// The shape of a mark, centred on a whole pixel corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// A circle of this radius.
    Circle(u32),
    /// Two diagonals reaching this far from the centre in x and y (plotters' `Cross`).
    Cross(u32),
}

impl Mark {
    fn reach(self) -> u32 {
        match self {
            Mark::Circle(r) | Mark::Cross(r) => r,
        }
    }
}

/// A drawn sprite and where its centre is inside it. An `ImageBitmap`, not a canvas: copying
/// from a canvas makes the browser take a snapshot of it on every call.
struct Sprite {
    bitmap: ImageBitmap,
    centre: f64,
}

thread_local! {
    /// A list, not a hash map: it holds a handful, which a scan finds sooner than SipHash hashes
    /// a key, and a map's code would be in every first module for this alone.
    static SPRITES: RefCell<Vec<((Mark, Ink), Sprite)>> = const { RefCell::new(Vec::new()) };
}

/// How many sprites are drawn and kept (for tests and measurements).
pub fn sprite_count() -> usize {
    SPRITES.with_borrow(Vec::len)
}

fn draw_sprite(mark: Mark, ink: Ink) -> Option<Sprite> {
    // Room for the mark, half its line on either side, and a pixel of antialiasing.
    let centre = mark.reach() + ink.stroke_width().unwrap_or(0) + 2;
    let canvas = OffscreenCanvas::new(2 * centre, 2 * centre).ok()?;
    let ctx: OffscreenCanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
    let (c, reach) = (f64::from(centre), f64::from(mark.reach()));
    ctx.begin_path();
    match mark {
        Mark::Circle(_) => ctx.arc(c, c, reach, 0.0, std::f64::consts::TAU).ok()?,
        Mark::Cross(_) => {
            ctx.move_to(c - reach, c - reach);
            ctx.line_to(c + reach, c + reach);
            ctx.move_to(c - reach, c + reach);
            ctx.line_to(c + reach, c - reach);
        }
    }
    match ink.stroke_width() {
        Some(width) => {
            ctx.set_stroke_style_str(&css_color(ink));
            ctx.set_line_width(f64::from(width));
            ctx.stroke();
        }
        None => {
            ctx.set_fill_style_str(&css_color(ink));
            ctx.fill();
        }
    }
    Some(Sprite { bitmap: canvas.transfer_to_image_bitmap().ok()?, centre: c })
}

/// Paints `mark` in `ink` centred on `(x, y)` of `ctx` from its sprite, drawing the sprite first
/// if it is new. False if no sprite could be made (the caller then draws the path itself).
pub(crate) fn stamp(ctx: &CanvasRenderingContext2d, mark: Mark, ink: Ink, (x, y): (i32, i32)) -> bool {
    let copy = |sprite: &Sprite| {
        let (left, top) = (f64::from(x) - sprite.centre, f64::from(y) - sprite.centre);
        ctx.draw_image_with_image_bitmap(&sprite.bitmap, left, top).is_ok()
    };
    SPRITES.with_borrow_mut(|sprites| {
        // One lookup for the hundreds of stamps a frame; a new sprite only now and then.
        if let Some((_, sprite)) = sprites.iter().find(|(key, _)| *key == (mark, ink)) {
            return copy(sprite);
        }
        let Some(sprite) = draw_sprite(mark, ink) else { return false };
        if sprites.len() >= MAX_SPRITES {
            sprites.clear();
        }
        let copied = copy(&sprite);
        sprites.push(((mark, ink), sprite));
        copied
    })
}
