//! The explanation under the charts: a few sentences on what the chosen algorithm does and what
//! its charts show (text in [`super::explain`]).

use leptos::prelude::*;

use super::explain::Explanation as Text;
use super::options::View;
use super::playground::Playground;

/// The explanation card for the current view.
#[component]
pub fn Explanation(
    /// The page state to read from.
    playground: Playground,
    /// The text of a view: [`super::explain::explain`], or in the page's first module
    /// [`super::explain::explain_textbook`] (it shows no product).
    explain: fn(View) -> Text,
) -> impl IntoView {
    let pg = playground;
    let text = Memo::new(move |_| explain(pg.view()));
    view! {
        <section class="panel explain" aria-labelledby="explain-title" id="explanation">
            <h2 id="explain-title">{move || text.get().title}</h2>
            <p>{move || text.get().sentences.join(" ")}</p>
        </section>
    }
}
