//! `PlotCanvas`: a chart in one HiDPI canvas, redrawn when `redraw` changes over an axis layer
//! ([`Layers`]) that is drawn again only when the axes the render function asks for differ from
//! the last ones, the theme flips or the page is resized. Scrolled out of view, it is not drawn
//! (see [`super::chart_env`]).

use leptos::html::Canvas;
use leptos::prelude::*;

use super::chart_env::use_chart_env;
use super::hooks::in_view::use_in_view;
use super::legend::Legend;
use crate::chart::canvas::Layers;
use crate::chart::plot::Key;

/// A chart canvas driven by `render(layers, env)`, which reads its data, picks its axes
/// and calls [`Layers::draw`].
/// Keeps `legend` (a [`PlotCanvas`]'s) equal to the keys of what was just drawn, so a key
/// that comes and goes with the data (a marker in view, a series cut at the top) is listed only
/// while it is drawn. Called from a render, which runs when a simulated second completes.
pub fn follow_legend(legend: RwSignal<Vec<Key>>, drawn: &[Key]) {
    if legend.with_untracked(|l| l.as_slice() != drawn) {
        legend.set(drawn.to_vec());
    }
}

#[component]
pub fn PlotCanvas<F>(
    /// Element id of the data canvas (what tests and assistive technology look at).
    id: &'static str,
    /// What the chart shows, for screen readers.
    #[prop(into)]
    label: Signal<String>,
    /// Changes whenever the data should be redrawn.
    #[prop(into)]
    redraw: Signal<u64>,
    /// Draws the chart; gets the layers and the current environment key.
    render: F,
    /// Extra CSS class for the box (its height).
    #[prop(default = "")]
    class: &'static str,
    /// The legend shown above the chart, if any.
    #[prop(optional, into)]
    legend: Option<Signal<Vec<Key>>>,
) -> impl IntoView
where
    F: Fn(&mut Layers, u64) -> Result<(), String> + 'static,
{
    let env = use_chart_env();
    let data = NodeRef::<Canvas>::new();
    let layers = StoredValue::new_local(None::<Layers>);
    let seen = use_in_view(data);
    Effect::new(move |_| {
        // `.get()`, not `.track()`: a memo that is only tracked is never computed, so it would
        // never subscribe to the snapshot and the chart would draw once and never again.
        let _ = redraw.get();
        if !env.draws(seen) {
            return; // drawn when it comes back into view
        }
        let key = env.key();
        let Some(d) = data.get() else { return };
        layers.update_value(|l| {
            if l.is_none() {
                *l = Layers::new(d);
            }
            if let Some(Err(e)) = l.as_mut().map(|l| render(l, key)) {
                leptos::logging::warn!("chart {id} not drawn: {e}");
            }
        });
    });
    view! {
        {legend.map(|keys| view! { <Legend keys=keys /> })}
        <div class=format!("plot {class}")>
            <canvas id=id class="plot-data" node_ref=data role="img" aria-label=label></canvas>
        </div>
    }
}
