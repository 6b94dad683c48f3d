//! Escaping text for markup: the crate's one HTML and SVG escaper, for the cluster names' SVG
//! text ([`crate::chart::text_layer`]) and every piece of HTML `present` and the app write as
//! text (the log report, the product tables, the embed snippet).

/// `text` safe inside an element or a quoted attribute.
///
/// ```
/// use ratelimit_playground::markup::escape;
/// assert_eq!(escape(r#"<img src=x onerror="a()">&'"#), "&lt;img src=x onerror=&quot;a()&quot;&gt;&amp;&#39;");
/// ```
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}
