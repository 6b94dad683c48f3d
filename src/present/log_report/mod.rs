//! What the log panel shows, drawn as markup by the log worker (`src/worker/`) from what the
//! engine decided: the shadow report ([`report`]), the sizing advice, the current policy first ([`advice`]), the sizing table ([`sizing`]) and their charts
//! as inline SVG in the page's colours ([`charts`]); nginx's own dry run against the model, when the
//! log carries it ([`dry_run`]); the heaviest keys to replay live ([`watch`]); the panel's controls and status line
//! ([`panel`]); and what the page and the worker say to each other ([`wire`]). Built in the
//! worker, so the page's own wasm carries none of the markup; pure, so it is tested natively.
//! Every text from the log (keys, the format) is escaped ([`html`]): a log cannot inject markup.
//! Policies are named in words ([`words`]), their query keys beside them to copy.

pub mod advice;
pub mod charts;
pub mod dry_run;
pub mod html;
pub mod panel;
pub mod report;
pub mod sizing;
pub mod watch;
pub mod wire;
pub mod words;

/// `n` of `of` as a ratio (0 when `of` is 0).
pub fn share(n: u64, of: u64) -> f64 {
    if of == 0 {
        0.0
    } else {
        n as f64 / of as f64
    }
}
