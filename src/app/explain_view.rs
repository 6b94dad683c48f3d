//! The explanation under the charts: a few sentences on what the chosen algorithm does and what
//! its charts show (text in [`crate::present::explain`]).

use leptos::prelude::*;

use super::fold::Fold;
use super::playground::Playground;
use crate::present::explain::Explanation as Text;
use crate::present::options::View;

/// The explanation card for the current view.
#[component]
pub fn Explanation(
    /// The page state to read from.
    playground: Playground,
    /// The text of a view: [`crate::present::explain::explain`], or in the page's first module
    /// [`crate::present::explain::explain_textbook`] (it shows no product).
    explain: fn(View) -> Text,
) -> impl IntoView {
    let pg = playground;
    let text = Memo::new(move |_| explain(pg.view()));
    view! {
        <Fold playground=pg id="explanation" class="explain" title=move || text.get().title>
            <p>{move || text.get().sentences.join(" ")}</p>
        </Fold>
    }
}
