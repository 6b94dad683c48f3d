//! The snippet the Embed panel hands out: a 600 px frame of the embed URL, sandboxed to scripts
//! and to opening the playground in a tab of its own ([`SANDBOX`]), with a title that tells
//! screen-reader users what is inside, stacked over a link to the
//! playground around a still image of the same cards (for RSS readers, email and doc sites that
//! strip iframes: the image is left), the few lines that size the frame to its content
//! ([`SIZER`]), and the CLI command that draws that image. Plain Rust, tested natively.

use crate::markup::escape;
use crate::present::share::cards::Card;
use crate::present::share::frame::Theme;

/// Width of the frame, CSS px.
pub const FRAME_WIDTH: u32 = 600;
/// Height of a frame with one chart, CSS px (the embed reports its real height by `postMessage`).
pub const FRAME_HEIGHT: u32 = 400;
/// What the frame may do: run its scripts with the origin it is served from, and open "Open in
/// the playground ↗" as a tab of its own, outside the sandbox (a plain page, not a sandboxed one
/// that could not run the app). With its own origin its code and stylesheets load as same-origin
/// requests, so any static host serves it, CORS headers or none (with an opaque origin, a plain
/// static server left every frame blank). On another site than the post, that origin reaches
/// nothing of the post; on the post's own site, the frame's code is the site's own files.
/// Still no top navigation, forms, modals or downloads.
pub const SANDBOX: &str = "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox";
/// The fallback image's file name the builder starts with.
pub const FALLBACK_IMAGE: &str = "ratelimit-playground.svg";

/// About how tall an embed of `cards` is at 600 px, CSS px: the header, each wide card on a row
/// of its own, the others two to a row, a row of controls and a caption line. The frame starts at
/// this height and the embed's height messages correct it.
///
/// ```
/// use ratelimit_playground::present::share::cards::Card;
/// use ratelimit_playground::present::share::snippet::{frame_height, FRAME_HEIGHT};
/// assert_eq!(frame_height(&[Card::Throughput], true, false), FRAME_HEIGHT);
/// assert!(frame_height(&[Card::Throughput, Card::State, Card::Steady], false, true) > FRAME_HEIGHT);
/// ```
pub fn frame_height(cards: &[Card], controls: bool, caption: bool) -> u32 {
    let wide = cards.iter().filter(|c| c.wide()).count() as u32;
    let narrow = cards.len() as u32 - wide;
    let rows = 66 + wide * 264 + narrow.div_ceil(2) * 300;
    rows + if controls { 70 } else { 0 } + if caption { 34 } else { 0 }
}

/// The width of a frame in a post on a 375 px phone: the screen less 32 px of the post's margins.
/// The builder's narrow preview shows it, and [`height_rule`] takes its height.
pub const PHONE_FRAME: u32 = 375 - 32;

/// The snippet's own height rule for a frame `wide` px tall at [`FRAME_WIDTH`] and `narrow` px at
/// [`PHONE_FRAME`], for hosts that strip the snippet's script: `wide` where the viewport has room
/// for the whole frame (a post's frame taken as the viewport less 32 px), `narrow` on any screen
/// narrower than that (a widget rewraps in steps, so anything between could cut it off), and
/// taller still, in proportion, on screens narrower than a 375 px phone. The script's measured
/// heights replace it where it runs.
///
/// ```
/// use ratelimit_playground::present::share::snippet::height_rule;
/// assert_eq!(
///     height_rule(400, 657),
///     "; height: max(400px, min(657px, calc(400px + (632px - 100vw) * 1000)), calc(657px + (375px - 100vw) * 1))"
/// );
/// assert_eq!(height_rule(400, 400), "");
/// ```
pub fn height_rule(wide: u32, narrow: u32) -> String {
    if narrow <= wide {
        return String::new();
    }
    let slope = f64::from(narrow - wide) / f64::from(FRAME_WIDTH - PHONE_FRAME);
    let slope = crate::sim::support::decimal::format_f64_trimmed(slope, 3);
    let room = FRAME_WIDTH + 32;
    let phone = PHONE_FRAME + 32;
    format!(
        "; height: max({wide}px, min({narrow}px, calc({wide}px + ({room}px - 100vw) * 1000)), calc({narrow}px + ({phone}px - 100vw) * {slope}))"
    )
}

/// The snippet for an embed at `url` titled `title`, `heights.0` px tall at [`FRAME_WIDTH`] and
/// `heights.1` at [`PHONE_FRAME`] ([`height_rule`]), over a link to `page` around `image` described by
/// `alt` (the still the CLI draws; an empty `image` leaves the link and image out).
///
/// ```
/// use ratelimit_playground::present::share::snippet::iframe;
/// let html = iframe("https://example.org/rl/?rate=8&embed=1", "A title", "A still", (400, 400), "https://example.org/rl/?rate=8", "still.svg");
/// assert!(html.contains(r#"src="https://example.org/rl/?rate=8&amp;embed=1""#));
/// assert!(html.contains(r#"sandbox="allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox""#));
/// assert!(html.contains(r#"title="A title""#));
/// assert!(html.contains(r#"<a href="https://example.org/rl/?rate=8" style="grid-area: 1 / 1"><img src="still.svg""#));
/// ```
pub fn iframe(url: &str, title: &str, alt: &str, heights: (u32, u32), page: &str, image: &str) -> String {
    let (height, rule) = (heights.0, height_rule(heights.0, heights.1));
    let frame = format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"{FRAME_WIDTH}\" height=\"{height}\" sandbox=\"{SANDBOX}\" loading=\"lazy\" data-ratelimit-playground style=\"grid-area: 1 / 1; border: 0; width: 100%{rule}\"></iframe>",
        escape(url),
        escape(title)
    );
    if image.trim().is_empty() {
        let frame = frame.replace("grid-area: 1 / 1; border: 0; width: 100%", "border: 0; max-width: 100%");
        return format!("{frame}\n{SIZER}");
    }
    // The frame is stacked over the image in one grid cell: where iframes are stripped, the
    // linked image is what is left; where they are not, the frame covers it.
    format!(
        "<div style=\"display: grid; max-width: {FRAME_WIDTH}px\">\n  <a href=\"{}\" style=\"grid-area: 1 / 1\"><img src=\"{}\" alt=\"{}\" width=\"{FRAME_WIDTH}\" loading=\"lazy\" style=\"max-width: 100%; height: auto\"></a>\n  {frame}\n</div>\n{SIZER}",
        escape(page),
        escape(image.trim()),
        escape(alt)
    )
}

/// The snippet's few lines of script, for each frame of the snippet (`data-ratelimit-playground`),
/// hearing only that frame's window:
///
/// - it takes the height its content reports (`ratelimit-playground:height`, a number of px
///   within reason), so at 375 px, where the content wraps taller, nothing is cut off;
/// - a frame stacked over its still that says it failed (`ratelimit-playground:failed`: its code
///   did not load, or a sandbox keeps it from loading) moves under the still at once, as tall as
///   its words (or 12em), so the reader sees the picture and the reason;
/// - a frame that has said nothing at all 8 s after it loaded (not even that it is loading,
///   `ratelimit-playground:loading`, which a frame says first: a slow or unseen frame is not a dead
///   one) moves under the still the same way; a frame that reports a height later goes back over it.
///
/// Where a host strips scripts the frame keeps the snippet's own size rules. Several snippets on
/// one page each add it; sizing or moving a frame twice is harmless.
pub const SIZER: &str = "<script>(function(){var s=\"iframe[data-ratelimit-playground]\";addEventListener(\"message\",function(e){var d=e.data||{},t=String(d.type),h=+d.height,k=h>0&&h<2e4,f=document.querySelectorAll(s),i,g;if(t.indexOf(\"ratelimit-playground:\"))return;for(i=0;i<f.length;i++)if(f[i].contentWindow===e.source){g=f[i].style;f[i].rlpSaid=1;if(t==\"ratelimit-playground:failed\"){if(g.gridRowStart){g.gridRow=\"2\";g.height=k?Math.ceil(h)+\"px\":\"12em\"}}else if(t==\"ratelimit-playground:height\"&&k){if(g.gridRowStart)g.gridRow=\"1\";g.height=Math.ceil(h)+\"px\"}}});document.querySelectorAll(s).forEach(function(f){f.addEventListener(\"load\",function(){setTimeout(function(){if(!f.rlpSaid&&f.style.gridRowStart){f.style.gridRow=\"2\";f.style.height=\"12em\"}},8e3)})})})()</script>";

/// Quotes `s` for a POSIX shell: in single quotes, with each `'` closed, escaped and reopened.
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The command that draws the snippet's still: the same cards of the same scenario at the same
/// moment, by the same drawing code, in the embed's theme (`auto` is the CLI's default) and with
/// its caption, to `image`.
///
/// ```
/// use ratelimit_playground::present::share::cards::Card;
/// use ratelimit_playground::present::share::frame::Theme;
/// use ratelimit_playground::present::share::snippet::svg_command;
/// assert_eq!(
///     svg_command("rate=8&algo=gcra", &[Card::Throughput, Card::State], "12.5", Theme::Auto, "", "still.svg"),
///     "ratelimit-sim --query 'rate=8&algo=gcra' --format svg --show throughput,state --at 12.5 --out still.svg"
/// );
/// assert_eq!(
///     svg_command("rate=8", &[Card::Strip], "0", Theme::Dark, "It's 8/s", "still.svg"),
///     r#"ratelimit-sim --query 'rate=8' --format svg --show strip --at 0 --theme dark --caption 'It'\''s 8/s' --out still.svg"#
/// );
/// ```
pub fn svg_command(query: &str, cards: &[Card], at: &str, theme: Theme, caption: &str, image: &str) -> String {
    let show = crate::present::share::cards::cards_value(cards);
    let image = if image.trim().is_empty() { FALLBACK_IMAGE } else { image.trim() };
    let out = if image.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./".contains(&b)) {
        image.to_string()
    } else {
        shell_quote(image)
    };
    let theme = if theme == Theme::Auto { String::new() } else { format!(" --theme {}", theme.key()) };
    let caption = if caption.is_empty() { String::new() } else { format!(" --caption {}", shell_quote(caption)) };
    format!(
        "ratelimit-sim --query {} --format svg --show {show} --at {at}{theme}{caption} --out {out}",
        shell_quote(query)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_and_urls_are_escaped() {
        let html = iframe("https://x.test/?a=1&b=\"2\"", "<b>", "", (400, 400), "https://x.test/?a=1", "");
        assert!(html.contains("src=\"https://x.test/?a=1&amp;b=&quot;2&quot;\""), "{html}");
        assert!(html.contains("title=\"&lt;b&gt;\""), "{html}");
        assert!(html.starts_with("<iframe ") && html.ends_with(&format!("></iframe>\n{SIZER}")), "{html}");
        let stacked = iframe("https://x.test/?e=1", "t", "<i>", (400, 500), "https://x.test/?a=1&b=2", "a \"b\".svg");
        assert!(stacked.contains("<a href=\"https://x.test/?a=1&amp;b=2\""), "{stacked}");
        assert!(stacked.contains("<img src=\"a &quot;b&quot;.svg\" alt=\"&lt;i&gt;\""), "{stacked}");
        assert!(stacked.ends_with(&format!("></iframe>\n</div>\n{SIZER}")), "{stacked}");
        assert!(
            stacked.contains("width: 100%; height: max(400px, min(500px, calc(400px + (632px - 100vw) * 1000)), calc(500px + (375px - 100vw) * 0.389))\""),
            "{stacked}"
        );
    }

    #[test]
    fn the_still_command_quotes_what_a_shell_would_split() {
        let cmd = svg_command("a=1&b='x'", &[Card::Strip], "0", Theme::Auto, "", "my still.svg");
        assert_eq!(
            cmd,
            r#"ratelimit-sim --query 'a=1&b='\''x'\''' --format svg --show strip --at 0 --out 'my still.svg'"#
        );
        assert!(svg_command("q", &[Card::Strip], "0", Theme::Light, "", " ")
            .ends_with("--theme light --out ratelimit-playground.svg"));
    }
}
