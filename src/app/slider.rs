//! A labelled range input with a live readout in units, on a linear or logarithmic scale.

use leptos::prelude::*;

use crate::present::units::{format_number, unit_for, SliderScale};

/// One parameter slider: `<label>`, the current value with its unit, and the range input, whose
/// `aria-valuetext` carries the unit too ("7.5 tokens per second", not "412").
#[component]
pub fn Slider(
    /// Element id of the range input (also what the label points at).
    id: &'static str,
    /// Visible label, e.g. "Refill rate".
    label: &'static str,
    /// Unit shown after the value, e.g. "tokens/s".
    unit: &'static str,
    /// How slider positions map to values.
    scale: SliderScale,
    /// The current value.
    #[prop(into)]
    value: Signal<f64>,
    /// Called with the new value while the user moves the slider.
    on_change: Callback<f64>,
    /// Whether the slider is read-only for now (its value is derived from others).
    #[prop(into, default = Signal::stored(false))]
    disabled: Signal<bool>,
) -> impl IntoView {
    let (min_pos, max_pos) = scale.positions();
    let readout = move || {
        let shown = format_number(value.get());
        let unit = unit_for(&shown, unit);
        format!("{shown} {unit}")
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
            on_change.run(scale.value_at(pos));
        }
    };
    let ends = [scale.value_at(min_pos), scale.value_at(max_pos)].map(format_number);
    let [low, high] = ends;
    view! {
        <div class="slider" class:disabled=disabled>
            <div class="slider-head">
                <label for=id>{label}</label>
                <output class="slider-value" for=id>{readout}</output>
            </div>
            <input
                type="range"
                id=id
                min=min_pos
                max=max_pos
                step="1"
                prop:value=move || scale.position_of(value.get())
                aria-valuetext=spoken
                disabled=disabled
                on:input=on_input
            />
            <div class="slider-ends" aria-hidden="true">
                <span>{low}</span>
                <span>{high}</span>
            </div>
        </div>
    }
}
