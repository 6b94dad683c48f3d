//! [`clip`]: a piece of user input (a query value, a trace line) quoted back in an error
//! message, cut to a readable length and safe to show: control characters, which binary junk
//! is full of, become U+FFFD instead of reaching the page or the terminal.

/// At most `max` characters of `s` (then "…"), control characters replaced by `�`.
///
/// ```
/// use ratelimit_playground::sim::support::quote::clip;
/// assert_eq!(clip("ten", 5), "ten");
/// assert_eq!(clip("abcdefgh", 5), "abcde…");
/// assert_eq!(clip("a\0b\x1b[2J", 8), "a�b�[2J");
/// ```
pub fn clip(s: &str, max: usize) -> String {
    let mut out: String = s.chars().take(max).map(|c| if c.is_control() { '\u{FFFD}' } else { c }).collect();
    if s.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}
