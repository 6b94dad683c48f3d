//! [`Ink`]: how a shape on a page canvas is painted — stroked at a width or filled, and in which
//! colour. [`BatchedCanvas`](super::batched::BatchedCanvas) merges shapes of one ink into one
//! path, the [`Pen`](super::pen::Pen) and the [sprites](super::sprites) paint with it, and
//! [`css_color`] writes it as a 2d context's style.

use plotters_backend::{BackendColor, BackendStyle};

/// How a shape is painted: stroked at a width, or filled; and in which colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Ink {
    /// The width it strokes at, or `None` when it fills.
    pub(super) stroke_width: Option<u32>,
    /// Its colour's red, green and blue.
    pub(super) rgb: (u8, u8, u8),
    /// Its colour's opacity, 0 to 1, as bits (so that an `Ink` is `Eq` and `Hash`).
    pub(super) alpha_bits: u64,
}

impl Ink {
    /// The width it strokes at, or `None` when it fills.
    pub(crate) fn stroke_width(self) -> Option<u32> {
        self.stroke_width
    }

    /// Its colour's red, green and blue.
    pub(crate) fn rgb(self) -> (u8, u8, u8) {
        self.rgb
    }

    /// Its colour's opacity, 0 to 1.
    pub(crate) fn alpha(self) -> f64 {
        f64::from_bits(self.alpha_bits)
    }
}

/// How a shape drawn in `style` is stroked; `None` for a transparent one.
pub(super) fn stroke_ink<S: BackendStyle>(style: &S) -> Option<Ink> {
    let c = style.color();
    (c.alpha > 0.0).then(|| Ink { stroke_width: Some(style.stroke_width()), rgb: c.rgb, alpha_bits: c.alpha.to_bits() })
}

/// How a shape (or text) in colour `c` is filled; `None` for a transparent one.
pub(crate) fn fill_ink(c: BackendColor) -> Option<Ink> {
    (c.alpha > 0.0).then_some(Ink { stroke_width: None, rgb: c.rgb, alpha_bits: c.alpha.to_bits() })
}

/// `#rrggbb` when opaque, else `rgba(r,g,b,0.xxx)`, written without float formatting.
pub(crate) fn css_color(ink: Ink) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let (r, g, b) = ink.rgb;
    let alpha = f64::from_bits(ink.alpha_bits);
    let mut s = String::with_capacity(24);
    if alpha >= 1.0 {
        s.push('#');
        for v in [r, g, b] {
            s.push(HEX[usize::from(v >> 4)] as char);
            s.push(HEX[usize::from(v & 15)] as char);
        }
        return s;
    }
    s.push_str("rgba(");
    for v in [r, g, b] {
        s.push_str(&v.to_string());
        s.push(',');
    }
    let milli = (crate::sim::support::within::within(alpha, 0.0, 1.0) * 1000.0).round() as u32;
    s.push_str("0.");
    s.push_str(&format!("{milli:03}"));
    s.push(')');
    s
}
