//! A labelled `<select>` over one of the option tables in [`crate::present::options`].

use leptos::prelude::*;

use crate::present::options::{by_key, Labelled};

/// One choice among `options`, shown as a native `<select>` (keyboard-operable everywhere).
#[component]
pub fn Choice<T>(
    /// Element id of the `<select>`.
    id: &'static str,
    /// Visible label.
    label: &'static str,
    /// The options, in order.
    options: &'static [Labelled<T>],
    /// The current value.
    #[prop(into)]
    value: Signal<T>,
    /// Called with the value the user picked.
    on_change: Callback<T>,
) -> impl IntoView
where
    T: Copy + PartialEq + Send + Sync + 'static,
{
    let on_select = move |ev: leptos::ev::Event| {
        if let Some(e) = by_key(options, &event_target_value(&ev)) {
            on_change.run(e.value);
        }
    };
    view! {
        <div class="choice">
            <label for=id>{label}</label>
            <select id=id on:change=on_select>
                {options
                    .iter()
                    .map(|o| {
                        let v = o.value;
                        view! {
                            <option value=o.key prop:selected=move || value.get() == v>
                                {o.label}
                            </option>
                        }
                    })
                    .collect_view()}
            </select>
        </div>
    }
}
