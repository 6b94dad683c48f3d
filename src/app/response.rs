//! The last response: the status line and the rate-limit headers of the most recent decision,
//! exactly as the engine formats them (IETF `RateLimit-Policy` / `RateLimit`, and `Retry-After`),
//! or as the product model that runs sends them (nginx: none).

use leptos::prelude::*;

use super::playground::Playground;
use crate::present::snapshot::status_line;

/// The most recent response as an HTTP header block.
#[component]
pub fn LastResponse(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let last = Memo::new(move |_| pg.readout.with(|s| s.last.clone()));
    let status = move || status_line(last.with(|l| l.as_ref().map(|l| l.status)));
    // What the headers are: none (a pass, or a refusal too), a product's own, or the IETF
    // draft's, which the hint explains.
    let hint = move || {
        last.with(|l| match l {
            Some(l) if l.headers.is_empty() && l.allowed => "No rate-limit headers on a pass: this limiter sends none.",
            Some(l) if l.headers.is_empty() => "No rate-limit headers: this limiter sends none (and no Retry-After).",
            Some(l) if !l.headers.iter().any(|(k, _)| &k[..] == "RateLimit-Policy") => {
                "The headers this product sets itself, as it sends them."
            }
            _ => "RateLimit-Policy: the quota q per window w (s). RateLimit: r requests remaining, t seconds until the quota is fully restored.",
        })
    };
    let lines = move || {
        last.with(|l| l.as_ref().map(|l| l.headers.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>()))
            .unwrap_or_default()
    };
    view! {
        <section class="panel response" aria-labelledby="response-title">
            <h2 id="response-title">"Last response"</h2>
            <pre id="headers" class:rejected=move || last.with(|l| l.as_ref().is_some_and(|l| !l.allowed))>
                <code>
                    <span class="status-line">{status}</span>
                    {move || lines().into_iter().map(|l| view! { <span class="header-line">{l}</span> }).collect_view()}
                </code>
            </pre>
            <p class="hint">{hint}</p>
        </section>
    }
}
