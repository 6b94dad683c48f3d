//! The vocabulary charts are described in: how to draw ([`ChartStyle`]: theme and pixel scale),
//! how ticks read ([`Ticks`]), and which colour ([`Ink`]) and line ([`Dash`]) a series uses, so
//! series never differ by colour alone.

use plotters::style::{FontDesc, FontFamily, FontStyle, RGBColor};

use super::axis::short_number;
use super::theme::ChartTheme;

/// The font every chart uses (the canvas resolves it like CSS).
pub const FONT: &str = "system-ui, -apple-system, Segoe UI, Roboto, sans-serif";

/// [`FONT`] at `size` pixels. Built from its parts: plotters' `(name, size).into_font()` looks
/// the name up through `str::to_lowercase`, which brings Unicode's case tables into the wasm (see
/// docs/size.md).
pub fn font(size: f64) -> FontDesc<'static> {
    FontDesc::new(FontFamily::Name(FONT), size, FontStyle::Normal)
}

/// How to draw: colours, and `scale` = device pixels per CSS pixel (fonts, strokes and margins
/// are multiplied by it so a HiDPI canvas looks the same size, only sharper).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartStyle {
    /// Colours.
    pub theme: ChartTheme,
    /// Device pixels per CSS pixel; 1.0 for SVG.
    pub scale: f64,
}

impl Default for ChartStyle {
    fn default() -> Self {
        ChartStyle { theme: ChartTheme::LIGHT, scale: 1.0 }
    }
}

impl ChartStyle {
    /// `v` CSS pixels in device pixels.
    pub fn px(&self, v: f64) -> i32 {
        (v * self.scale.max(0.5)).round() as i32
    }

    /// A stroke of `v` CSS pixels, at least one device pixel.
    pub fn stroke(&self, v: f64) -> u32 {
        self.px(v).max(1) as u32
    }
}

/// How tick values are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ticks {
    /// Seconds relative to now: `-60`, `-30`, `now`.
    SecondsAgo,
    /// Seconds since the start: `0`, `10`, `20`.
    Seconds,
    /// Counts: `750`, `2.5k`.
    Count,
    /// A ratio as a percentage: `0 %`, `50 %`.
    Percent,
}

impl Ticks {
    /// The label of tick value `v`.
    ///
    /// ```
    /// use ratelimit_playground::chart::plot::Ticks;
    /// assert_eq!(Ticks::SecondsAgo.label(-30.0), "-30 s");
    /// assert_eq!(Ticks::SecondsAgo.label(0.0), "now");
    /// assert_eq!(Ticks::Percent.label(0.5), "50 %");
    /// assert_eq!(Ticks::Count.label(2500.0), "2.5k");
    /// ```
    pub fn label(self, v: f64) -> String {
        match self {
            Ticks::SecondsAgo if v.abs() < 1e-9 => "now".into(),
            Ticks::SecondsAgo => format!("{} s", short_number(v)),
            Ticks::Seconds => short_number(v),
            Ticks::Count => short_number(v),
            Ticks::Percent => format!("{} %", crate::sim::support::decimal::format_f64(v * 100.0, 0)),
        }
    }
}

/// Which theme colour a series uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ink {
    /// The admitted colour.
    Admitted,
    /// The rejected colour.
    Rejected,
    /// The text colour (neutral, strong).
    Text,
    /// The axis colour (neutral, faint).
    Axis,
}

impl Ink {
    /// The colour of this ink in `theme`.
    pub fn colour(self, theme: &ChartTheme) -> RGBColor {
        match self {
            Ink::Admitted => theme.admitted,
            Ink::Rejected => theme.rejected,
            Ink::Text => theme.text,
            Ink::Axis => theme.axis,
        }
    }
}

/// How a line is drawn, so series never differ by colour alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dash {
    /// Continuous.
    Solid,
    /// Long dashes.
    Dashed,
    /// Short dots.
    Dotted,
}

/// One legend entry: a line sample and its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    /// The label.
    pub label: &'static str,
    /// Its colour.
    pub ink: Ink,
    /// Its line.
    pub dash: Dash,
}
