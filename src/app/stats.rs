//! The stats panel of the single view: requests, admitted, rejected and the pass ratio next to
//! the engine's prediction; then the retries, the first rejection and, for windows, the most
//! admitted in one window. Values of `#requests`, `#admitted` and `#rejected` are plain integers
//! so tests and screen readers read them as they are.

use leptos::prelude::*;

use super::playground::Playground;
use crate::present::snapshot::Column;
use crate::present::units::{format_percent, format_secs, group_thousands};
use crate::sim::support::decimal::format_f64;
use crate::sim::RetryPolicy;

/// A counter card: a label and a value, with an optional note under it.
#[component]
fn Counter(
    /// Visible label.
    label: &'static str,
    /// Element id of the value.
    id: &'static str,
    /// The value.
    #[prop(into)]
    value: Signal<String>,
    /// Extra class (`admitted` / `rejected` draw the chart's line sample by the label).
    #[prop(default = "")]
    class: &'static str,
    /// A small line under the value.
    #[prop(optional, into)]
    note: Option<Signal<String>>,
) -> impl IntoView {
    view! {
        <div class=format!("counter {class}")>
            <dt>{label}</dt>
            <dd id=id>{value}</dd>
            {note.map(|n| view! { <dd class="predicted" id=format!("{id}-predicted")>{n}</dd> })}
        </div>
    }
}

/// The four headline counters and the facts line.
#[component]
pub fn Stats(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let col = Memo::new(move |_| pg.readout.with(|s| s.main().cloned().unwrap_or_default()));
    let total = move |f: fn(&Column) -> u64| Signal::derive(move || col.with(|c| group_thousands(f(c))));
    let ratio = Signal::derive(move || {
        col.with(|c| {
            if c.totals.admitted + c.totals.rejected == 0 {
                "—".into()
            } else {
                format_percent(c.totals.pass_ratio())
            }
        })
    });
    // Memos, so a line is added or removed only when its condition changes.
    let retrying = Memo::new(move |_| pg.scenario.with(|s| s.retry != RetryPolicy::GiveUp));
    let windowed = Memo::new(move |_| col.with(|c| c.windowed));
    let predicted = Signal::derive(move || {
        col.with(|c| match c.predicted {
            Some(p) => format!("steady state {}", format_percent(p)),
            None => "no steady-state formula for this traffic".into(),
        })
    });
    view! {
        <section class="stats" aria-label="Counts since t = 0">
            <dl class="counters">
                <Counter label="Requests" id="requests" value=total(|c| c.totals.requests) />
                <Counter label="Admitted" id="admitted" value=total(|c| c.totals.admitted) class="admitted" />
                <Counter label="Rejected (429)" id="rejected" value=total(|c| c.totals.rejected) class="rejected" />
                <Counter label="Pass ratio" id="pass-ratio" value=ratio note=predicted />
            </dl>
            <ul class="facts">
                <li id="first-rejection">{move || col.with(first_rejection)}</li>
                {move || retrying.get().then(|| view! {
                    <li id="retries">
                        {move || col.with(|c| format!("{} retries · {} gave up", group_thousands(c.totals.retries), group_thousands(c.totals.gave_up)))}
                    </li>
                })}
                {move || windowed.get().then(|| view! {
                    <li id="peak" class:alert=move || col.with(Column::over_limit)>
                        {move || col.with(peak)}
                    </li>
                })}
            </ul>
        </section>
    }
}

/// "First 429 at 3.12 s · C ÷ (λ − r) predicts 3.33 s", or that none happened yet, and why
/// the first comes before the prediction: a request needs a whole token.
fn first_rejection(c: &Column) -> String {
    let predicted =
        c.predicted_first.map(|p| format!(" · C ÷ (λ − r) predicts {}", format_secs(p))).unwrap_or_default();
    let why = c
        .short_of_a_token
        .map(|s| {
            format!(
                ": a request needs a whole token, so the first refused is the first arrival after (C − 1) ÷ (λ − r) \
                 = {}, when less than one is left",
                format_secs(s)
            )
        })
        .unwrap_or_default();
    match c.totals.first_rejection {
        Some(t) => format!("First 429 at {}{predicted}{why}", format_secs(t.as_secs_f64())),
        None => format!("No 429 yet{predicted}{why}"),
    }
}

/// "Most admitted in one window: 20 = 2 × the limit of 10".
fn peak(c: &Column) -> String {
    let (n, _) = c.peak;
    if c.over_limit() {
        let times = format_f64(n as f64 / c.limit as f64, 1);
        format!("Most admitted in one window length: {n} = {times} × the limit of {}", c.limit)
    } else {
        format!("Most admitted in one window length: {n} (limit {})", c.limit)
    }
}
