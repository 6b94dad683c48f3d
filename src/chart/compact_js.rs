//! JavaScript kept in the wasm as text (the paint worker's script), without its comments and
//! indentation, at compile time: [`compact_len`] and [`compact`] are `const fn`s, so the module
//! holds only the compacted text and the source file keeps its comments. Line by line: leading
//! spaces and tabs go, and so do blank lines and lines that are only a `//` comment. Nothing
//! else changes (line breaks stay, so automatic semicolon insertion reads the script as before);
//! a script with a line that starts inside a string or template literal must not be given to it.

/// The length of `source` once [`compact`]ed.
pub const fn compact_len(source: &str) -> usize {
    let bytes = source.as_bytes();
    let (mut i, mut len) = (0, 0);
    while i < bytes.len() {
        let (start, end, next) = line(bytes, i);
        if kept(bytes, start, end) {
            len += next - start;
        }
        i = next;
    }
    len
}

/// `source` without indentation, blank lines and comment-only lines, as `N` bytes of UTF-8
/// (`N` = [`compact_len`]`(source)`).
pub const fn compact<const N: usize>(source: &str) -> [u8; N] {
    let bytes = source.as_bytes();
    let mut out = [0u8; N];
    let (mut i, mut o) = (0, 0);
    while i < bytes.len() {
        let (start, end, next) = line(bytes, i);
        if kept(bytes, start, end) {
            let mut k = start;
            while k < next {
                out[o] = bytes[k];
                o += 1;
                k += 1;
            }
        }
        i = next;
    }
    assert!(o == N, "N must be compact_len(source)");
    out
}

/// The line starting at `i`: where its text starts (after the indentation), where it ends
/// (before the line break) and where the next line starts (after it).
const fn line(bytes: &[u8], i: usize) -> (usize, usize, usize) {
    let mut start = i;
    while start < bytes.len() && (bytes[start] == b' ' || bytes[start] == b'\t') {
        start += 1;
    }
    let mut end = start;
    while end < bytes.len() && bytes[end] != b'\n' {
        end += 1;
    }
    (start, end, if end < bytes.len() { end + 1 } else { end })
}

/// Whether the line's text `bytes[start..end]` is kept: it is not empty and not a `//` comment.
const fn kept(bytes: &[u8], start: usize, end: usize) -> bool {
    end > start && !(end - start >= 2 && bytes[start] == b'/' && bytes[start + 1] == b'/')
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str =
        "// a comment\n\"use strict\";\n\nfunction f(a) {\n    // why\n  \treturn a / 2; // kept\n}\n  ";
    const LEN: usize = compact_len(SOURCE);

    #[test]
    fn comment_lines_indentation_and_blank_lines_go_and_the_rest_stays() {
        let out = compact::<LEN>(SOURCE);
        assert_eq!(std::str::from_utf8(&out).unwrap(), "\"use strict\";\nfunction f(a) {\nreturn a / 2; // kept\n}\n");
    }

    #[test]
    fn the_paint_workers_script_keeps_every_statement() {
        let source = include_str!("paint-worker.js");
        let compacted = compact::<{ compact_len(include_str!("paint-worker.js")) }>(source);
        let compacted = std::str::from_utf8(&compacted).unwrap();
        let code = |s: &str| -> Vec<String> {
            s.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("//")).map(String::from).collect()
        };
        assert_eq!(code(compacted), code(source));
        assert!(compacted.len() < source.len() * 4 / 5, "{} of {} bytes", compacted.len(), source.len());
    }
}
