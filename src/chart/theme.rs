//! Colours for charts: one light and one dark palette, both colour-blind safe (Okabe–Ito blue for
//! admitted, vermillion for rejected), and a parser for the `#rrggbb` custom properties the web app
//! reads from its stylesheet so the canvas follows the page theme.

use plotters::style::RGBColor;

/// The colours a chart is drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChartTheme {
    /// Fill of the whole drawing area.
    pub background: RGBColor,
    /// Axis labels, tick labels and legend text.
    pub text: RGBColor,
    /// Axis lines.
    pub axis: RGBColor,
    /// Grid lines (drawn faint).
    pub grid: RGBColor,
    /// The admitted series (solid line with a light fill underneath).
    pub admitted: RGBColor,
    /// The rejected series (dashed line).
    pub rejected: RGBColor,
}

impl ChartTheme {
    /// Light theme: white card, blue #0072B2 admitted, vermillion #D55E00 rejected.
    pub const LIGHT: ChartTheme = ChartTheme {
        background: RGBColor(0xff, 0xff, 0xff),
        text: RGBColor(0x3d, 0x44, 0x4f),
        axis: RGBColor(0x8a, 0x93, 0xa0),
        grid: RGBColor(0xe6, 0xe9, 0xee),
        admitted: RGBColor(0x00, 0x72, 0xb2),
        rejected: RGBColor(0xd5, 0x5e, 0x00),
    };

    /// Dark theme: the same hues lightened for contrast on a near-black card.
    pub const DARK: ChartTheme = ChartTheme {
        background: RGBColor(0x1b, 0x1f, 0x26),
        text: RGBColor(0xc9, 0xd1, 0xdc),
        axis: RGBColor(0x6b, 0x75, 0x84),
        grid: RGBColor(0x2c, 0x32, 0x3c),
        admitted: RGBColor(0x56, 0xb4, 0xe9),
        rejected: RGBColor(0xe6, 0x9f, 0x00),
    };
}

impl Default for ChartTheme {
    fn default() -> Self {
        ChartTheme::LIGHT
    }
}

/// Parses a CSS colour written as `#rrggbb` or `#rgb` (surrounding whitespace allowed).
///
/// ```
/// use plotters::style::RGBColor;
/// use ratelimit_playground::chart::theme::parse_hex_rgb;
/// assert_eq!(parse_hex_rgb(" #0072B2"), Some(RGBColor(0x00, 0x72, 0xb2)));
/// assert_eq!(parse_hex_rgb("#fff"), Some(RGBColor(0xff, 0xff, 0xff)));
/// assert_eq!(parse_hex_rgb("blue"), None);
/// ```
pub fn parse_hex_rgb(css: &str) -> Option<RGBColor> {
    // Read as bytes: slicing the `str` would bring core's slicing panic, whose message prints a
    // `char` with `{:?}` and so brings the Debug code for it.
    let hex = css.trim().strip_prefix('#')?.as_bytes();
    let nibbles: Vec<u8> = hex.iter().map(|&b| (b as char).to_digit(16).map(|d| d as u8)).collect::<Option<_>>()?;
    match nibbles[..] {
        [r1, r0, g1, g0, b1, b0] => Some(RGBColor(r1 << 4 | r0, g1 << 4 | g0, b1 << 4 | b0)),
        [r, g, b] => Some(RGBColor(r * 17, g * 17, b * 17)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_hex_rgb_refuses_anything_but_three_or_six_hex_digits() {
        for bad in ["", "#", "#12", "#1234", "#1234567", "#ggg", "#12345g", "#é0", "#ééé", "0072b2", "# fff"] {
            assert_eq!(parse_hex_rgb(bad), None, "{bad:?}");
        }
        assert_eq!(parse_hex_rgb("#0Af"), Some(RGBColor(0x00, 0xaa, 0xff)));
        assert_eq!(parse_hex_rgb("\t#a0B1c2\n"), Some(RGBColor(0xa0, 0xb1, 0xc2)));
    }
}
