//! The notice shown when the page's address held parameters that could not be used as given:
//! one line per parameter, naming it and saying what was used instead. Dismissable.

use leptos::prelude::*;

use crate::sim::ParamError;

/// The link notice; renders nothing when every parameter was used as given.
#[component]
pub fn LinkNotice(
    /// What the link parser reported.
    notices: Vec<ParamError>,
    /// The one-line form for the embed.
    #[prop(optional)]
    compact: bool,
) -> impl IntoView {
    let shown = RwSignal::new(true);
    let count = notices.len();
    let items = notices
        .into_iter()
        .map(|n| view! { <li data-param=n.param.clone()><code>{n.param.clone()}</code>": "{n.message}</li> })
        .collect_view();
    let heading = if count == 1 {
        "One parameter of this link was not used as given:".to_string()
    } else {
        format!("{count} parameters of this link were not used as given:")
    };
    (count > 0).then(|| {
        view! {
            <div class="link-notice" class:compact=compact class:dismissed=move || !shown.get() id="link-notice" role="status">
                <p>{heading}</p>
                <ul>{items}</ul>
                <button type="button" class="close" id="link-notice-close" aria-label="Dismiss" on:click=move |_| shown.set(false)>
                    "×"
                </button>
            </div>
        }
    })
}
