//! A labelled range input with a number field for the exact value and its unit, on a linear or
//! logarithmic scale.
//!
//! The field takes what a link takes: a query key's whole range and precision (`capacity` to
//! 1 000 000, `refill` to three decimals, from [`number_range`](crate::sim::query::number_range)),
//! read by the same reader ([`Range::read`]), so a typed value and a link's are checked alike.
//! The slider widens to reach a value beyond its ends, so a nudge moves an exact value a step
//! instead of snapping it back into the slider's range.

use leptos::prelude::*;

use crate::present::units::{format_number, unit_for, SliderScale};
use crate::sim::query::{range_words, NumberWhy, Range};
use crate::sim::support::decimal::{format_fixed, DecimalError};

/// One parameter slider: `<label>`, a number field for the value with its unit, and the range
/// input, whose `aria-valuetext` carries the unit too ("7.5 tokens per second", not "412").
#[component]
pub fn Slider(
    /// Element id of the range input (also what the label points at); the field's is `{id}-field`.
    id: &'static str,
    /// Visible label, e.g. "Refill rate".
    label: &'static str,
    /// Unit shown after the value, e.g. "tokens/s".
    unit: &'static str,
    /// How slider positions map to values.
    scale: SliderScale,
    /// What the number field takes, in the slider's unit: a query key's range and precision.
    range: Range,
    /// The current value.
    #[prop(into)]
    value: Signal<f64>,
    /// Called with the new value while the user moves the slider or commits the field.
    on_change: Callback<f64>,
    /// Whether the slider is read-only for now (its value is derived from others).
    #[prop(into, default = Signal::stored(false))]
    disabled: Signal<bool>,
) -> impl IntoView {
    // Widened to reach a value beyond its ends (a link's, one typed in the field): the farthest
    // values reached below and above are kept, so the scale does not move under a drag.
    let reach = (StoredValue::new_local(f64::NAN), StoredValue::new_local(f64::NAN));
    let scale = move || {
        let v = value.get();
        let (low, high) = (reach.0.get_value(), reach.1.get_value());
        reach.0.set_value(if low < v { low } else { v });
        reach.1.set_value(if high > v { high } else { v });
        scale.covering(reach.0.get_value()).covering(reach.1.get_value())
    };
    let spoken = move || {
        let shown = format_number(value.get());
        let spoken_unit = match unit_for(&shown, unit).as_str() {
            "s" if shown == "1" => "second".to_string(),
            "s" => "seconds".to_string(),
            "ms" if shown == "1" => "millisecond".to_string(),
            "ms" => "milliseconds".to_string(),
            // (Not `replace`: its substring search would be in the first module for this alone.)
            other => other.strip_suffix("/s").map_or_else(|| other.to_string(), |per| format!("{per} per second")),
        };
        format!("{shown} {spoken_unit}")
    };
    let on_input = move |ev: leptos::ev::Event| {
        if let Ok(pos) = event_target_value(&ev).parse::<u32>() {
            say(&event_target(&ev), "");
            on_change.run(untrack(scale).value_at(pos));
        }
    };
    let per = 10f64.powi(range.digits as i32);
    let exact = move |v: f64| format_fixed((v * per).round().max(0.0) as u64, range.digits);
    // Enter, leaving the field or its arrows: the text read as a link's value is read; what is
    // out of range is clamped, and the note says so.
    let on_commit = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let typed = input.value();
        if !typed.trim().is_empty() {
            let (used, said) = match range.read(typed.trim()) {
                Ok(v) => (Some(v), String::new()),
                Err((why, used)) => (used, note_words(label, &typed, why, &range, used)),
            };
            say(&input, &said);
            if let Some(v) = used {
                on_change.run(v as f64 / per);
            }
        }
        // What is used now, whether or not the scenario changed (a clamp to the value it had).
        input.set_value(&exact(value.get_untracked()));
    };
    view! {
        <div class="slider" class:disabled=disabled>
            <div class="slider-head">
                <label for=id>{label}</label>
                <span class="slider-reading">
                    <input
                        type="number"
                        class="slider-field"
                        id=format!("{id}-field")
                        inputmode="decimal"
                        min=format_fixed(range.min, range.digits)
                        max=format_fixed(range.max, range.digits)
                        step=format_fixed(1, range.digits)
                        aria-label=label
                        prop:value=move || exact(value.get())
                        disabled=disabled
                        on:change=on_commit
                    />
                    <span class="slider-unit">{unit}</span>
                </span>
            </div>
            <p class="field-note" role="status"></p>
            <input
                type="range"
                id=id
                min=move || scale().positions().0
                max=move || scale().positions().1
                step="1"
                prop:value=move || scale().position_of(value.get())
                aria-valuetext=spoken
                disabled=disabled
                on:input=on_input
            />
            <div class="slider-ends" aria-hidden="true">
                <span>{move || end(scale(), false)}</span>
                <span>{move || end(scale(), true)}</span>
            </div>
        </div>
    }
}

/// Writes `words` in the note of the slider that `control` (its field or range input) is in:
/// a plain text node, not a reactive value (each costs the first module's wasm its own code).
/// A note speaks of the last value typed, so any later edit of a slider clears every note first.
fn say(control: &web_sys::Element, words: &str) {
    if let Ok(notes) = document().query_selector_all(".field-note:not(:empty)") {
        for i in 0..notes.length() {
            if let Some(note) = notes.item(i) {
                note.set_text_content(None);
            }
        }
    }
    let note = control.closest(".slider").ok().flatten().and_then(|s| s.query_selector(".field-note").ok().flatten());
    if let Some(note) = note {
        note.set_text_content(Some(words));
    }
}

/// The value at the low or `high` end of `scale`, as its label shows it.
fn end(scale: SliderScale, high: bool) -> String {
    let (low, top) = scale.positions();
    format_number(scale.value_at(if high { top } else { low }))
}

/// What the field says of text it could not use as typed: `Capacity: 2000000 is out of range;
/// allowed: from 1 to 1000000 tokens; using 1000000`.
fn note_words(label: &str, typed: &str, why: NumberWhy, range: &Range, used: Option<u64>) -> String {
    let typed: String = typed.trim().chars().take(24).collect();
    let what = match why {
        NumberWhy::OutOfRange => "is out of range",
        NumberWhy::Unreadable(DecimalError::TooPrecise(_)) => "is more precise than it takes",
        NumberWhy::Unreadable(_) => "is not a number",
    };
    let then = used.map_or("unchanged".to_string(), |v| format!("using {}", format_fixed(v, range.digits)));
    format!("{label}: {typed} {what}; allowed: {}; {then}", range_words(range))
}
