//! The `<iframe>` snippet the Embed button hands out: a 600 × 400 frame of the embed URL,
//! sandboxed to scripts only, with a title that tells screen-reader users what is inside.
//! Plain Rust, tested natively.

use crate::app::options::algorithm_label;
use crate::app::units::format_number;
use crate::sim::Scenario;

/// Width of the frame, CSS px.
pub const FRAME_WIDTH: u32 = 600;
/// Height of the frame, CSS px (the embed reports its real height by `postMessage`).
pub const FRAME_HEIGHT: u32 = 400;

/// The frame's title: what a screen reader announces for it.
///
/// ```
/// use ratelimit_playground::app::share::snippet::frame_title;
/// use ratelimit_playground::sim::Scenario;
/// let sc = Scenario::from_query("rate=8").unwrap();
/// assert_eq!(frame_title(&sc), "Rate limiter playground: Token bucket at 8 requests/s");
/// ```
pub fn frame_title(sc: &Scenario) -> String {
    format!(
        "Rate limiter playground: {} at {} requests/s",
        algorithm_label(sc.algo),
        format_number(sc.rate.as_per_sec())
    )
}

/// Escapes `&`, `<`, `>` and `"` for an HTML attribute value.
fn attr(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The snippet for an embed at `url` titled `title`.
///
/// ```
/// use ratelimit_playground::app::share::snippet::iframe;
/// let html = iframe("https://example.org/rl/?rate=8&embed=1", "A title");
/// assert!(html.contains(r#"src="https://example.org/rl/?rate=8&amp;embed=1""#));
/// assert!(html.contains(r#"sandbox="allow-scripts""#) && html.contains(r#"title="A title""#));
/// ```
pub fn iframe(url: &str, title: &str) -> String {
    format!(
        "<iframe src=\"{}\" title=\"{}\" width=\"{FRAME_WIDTH}\" height=\"{FRAME_HEIGHT}\" sandbox=\"allow-scripts\" loading=\"lazy\" style=\"border: 0; max-width: 100%\"></iframe>",
        attr(url),
        attr(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_and_urls_are_escaped() {
        let html = iframe("https://x.test/?a=1&b=\"2\"", "<b>");
        assert!(html.contains("src=\"https://x.test/?a=1&amp;b=&quot;2&quot;\""), "{html}");
        assert!(html.contains("title=\"&lt;b&gt;\""), "{html}");
        assert!(html.starts_with("<iframe ") && html.ends_with("></iframe>"));
    }
}
