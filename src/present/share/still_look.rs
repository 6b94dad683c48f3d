//! How an embed's still takes its embed's theme (`theme=`), and how its text wraps.
//! For `theme=auto` the still is drawn light and carries a `prefers-color-scheme: dark` style
//! that recolours each light colour to its dark counterpart (a CSS rule outranks the
//! `fill`/`stroke` attributes plotters writes), so a reader in dark mode
//! sees it dark, as they would see the embed, even through an `<img>`.

use plotters::style::RGBColor;

use crate::chart::style::ChartStyle;
use crate::chart::theme::ChartTheme;
use crate::present::share::cards::Card;
use crate::present::share::frame::Theme;

/// How much larger than on the page a still draws a card's chart (its text, strokes and
/// margins), so that its smallest label is 12 px at the still's 600 px: the topology's names go
/// down to 8.5 px on a card as narrow as the still's, the swimlane's to 9.5 px, a compare
/// column's axes to 10.5 px; the other charts write 12 px and more.
pub fn chart_scale(card: Card) -> f64 {
    match card {
        Card::Topology | Card::Swimlane => 1.42,
        Card::Compare => 1.15,
        _ => 1.0,
    }
}

/// The style the still is drawn in: dark for `theme=dark`, light otherwise.
pub fn drawing_style(theme: Theme) -> ChartStyle {
    let theme = if theme == Theme::Dark { ChartTheme::DARK } else { ChartTheme::LIGHT };
    ChartStyle { theme, scale: 1.0 }
}

/// plotters' spelling of a colour in SVG: `#RRGGBB`.
fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// The still `svg` as `theme` asks: for [`Theme::Auto`], with a style after the `<svg …>` tag
/// that turns each light colour dark under `prefers-color-scheme: dark`; otherwise as it is.
///
/// ```
/// use ratelimit_playground::present::share::frame::Theme;
/// use ratelimit_playground::present::share::still_look::follow_scheme;
/// let svg = "<svg width=\"600\">\n<rect fill=\"#FFFFFF\"/>\n</svg>";
/// let auto = follow_scheme(svg, Theme::Auto);
/// assert!(auto.starts_with("<svg width=\"600\"><style>@media (prefers-color-scheme: dark){"));
/// assert!(auto.contains("[fill=\"#FFFFFF\"]{fill:#1B1F26}"));
/// assert_eq!(follow_scheme(svg, Theme::Light), svg);
/// ```
pub fn follow_scheme(svg: &str, theme: Theme) -> String {
    let Some(end) = svg.find('>').filter(|_| theme == Theme::Auto) else {
        return svg.to_string();
    };
    let (l, d) = (ChartTheme::LIGHT, ChartTheme::DARK);
    let pairs = [
        (l.background, d.background),
        (l.text, d.text),
        (l.axis, d.axis),
        (l.grid, d.grid),
        (l.admitted, d.admitted),
        (l.rejected, d.rejected),
    ];
    let rules: String = pairs
        .iter()
        .flat_map(|&(light, dark)| {
            ["fill", "stroke"].map(|attr| format!("[{attr}=\"{}\"]{{{attr}:{}}}", hex(light), hex(dark)))
        })
        .collect();
    format!("{}<style>@media (prefers-color-scheme: dark){{{rules}}}</style>{}", &svg[..=end], &svg[end + 1..])
}

/// How much smaller than asked plotters' SVG backend writes a font (its `font-size` is the size
/// divided by this); the page's canvases draw the size asked.
const SVG_FONT_SHRINK: f64 = 1.24;

/// `svg` with each `font-size` plotters wrote set back to the size the drawing code asked for,
/// so a still's text is as large as the page's.
///
/// ```
/// use ratelimit_playground::present::share::still_look::asked_font_sizes;
/// assert_eq!(asked_font_sizes("<text font-size=\"9.67741935483871\">0</text>"), "<text font-size=\"12\">0</text>");
/// ```
pub fn asked_font_sizes(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(at) = rest.find("font-size=\"") {
        let (before, after) = rest.split_at(at + "font-size=\"".len());
        out.push_str(before);
        let end = after.find('"').unwrap_or(after.len());
        match after[..end].parse::<f64>() {
            Ok(size) => out.push_str(&crate::sim::support::decimal::format_f64_trimmed(size * SVG_FONT_SHRINK, 2)),
            Err(_) => out.push_str(&after[..end]),
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The still `svg` shown `factor` times as large (its `width` and `height`), the same drawing
/// (its `viewBox`): for a site that turns the SVG into a picture, a sharp one.
///
/// ```
/// use ratelimit_playground::present::share::still_look::scaled;
/// let svg = "<svg width=\"600\" height=\"284\" viewBox=\"0 0 600 284\"><rect/></svg>";
/// assert_eq!(scaled(svg, 2), "<svg width=\"1200\" height=\"568\" viewBox=\"0 0 600 284\"><rect/></svg>");
/// assert_eq!(scaled(svg, 1), svg);
/// ```
pub fn scaled(svg: &str, factor: u32) -> String {
    let number =
        |name: &str| -> Option<u32> { svg.split(&format!(" {name}=\"")).nth(1)?.split('"').next()?.parse().ok() };
    match (number("width"), number("height")) {
        (Some(w), Some(h)) if factor > 1 => svg.replacen(
            &format!("<svg width=\"{w}\" height=\"{h}\""),
            &format!("<svg width=\"{}\" height=\"{}\"", w * factor, h * factor),
            1,
        ),
        _ => svg.to_string(),
    }
}

/// `s` in lines of at most `width` characters, broken at spaces.
pub(super) fn wrap(s: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in s.split(' ') {
        let line = lines.last_mut().expect("one line");
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(word.to_string());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_light_colour_has_a_dark_rule_and_light_and_dark_are_drawn_as_asked() {
        let svg = follow_scheme("<svg a=\"1\"></svg>", Theme::Auto);
        for c in [ChartTheme::LIGHT.text, ChartTheme::LIGHT.admitted, ChartTheme::LIGHT.rejected] {
            assert!(svg.contains(&format!("[fill=\"{}\"]", hex(c))), "{svg}");
            assert!(svg.contains(&format!("[stroke=\"{}\"]", hex(c))), "{svg}");
        }
        assert!(svg.ends_with("</style></svg>"), "{svg}");
        assert_eq!(drawing_style(Theme::Dark).theme, ChartTheme::DARK);
        assert_eq!(drawing_style(Theme::Auto).theme, ChartTheme::LIGHT);
    }
}
