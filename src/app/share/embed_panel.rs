//! The Embed panel, a builder: tick the cards and the controls the frame shows, set the moment it
//! opens on, whether it plays, a caption, the theme, the title and the still's alt text; see it
//! live at 600 px and as in a post on a 375 px phone (343 px; the previews load exactly the
//! snippet's address, and the snippet's frame starts at the height the 600 px one reports, with a
//! rule through both heights for hosts that strip its script); copy the snippet (sandboxed to
//! scripts, titled for screen readers, stacked over a linked still) and the command that draws
//! the still.
//!
//! It runs in a wasm module of its own, loaded when the panel is first opened
//! ([`super::builder_host`] on the page, [`super::builder_module`] in the builder), and sees the
//! page only through the [`BuilderInput`] the page sends it.

use leptos::ev;
use leptos::html::{Iframe, Textarea};
use leptos::prelude::*;
use wasm_bindgen::JsValue;
use web_sys::js_sys;

use super::clipboard::CopyButton;
use super::url_sync::page_base;
use crate::present::options::is_windowed;
use crate::present::share::builder_input::BuilderInput;
use crate::present::share::cards::{fit, Card, CARDS};
use crate::present::share::link::{
    embed_query, scenario_query, share_query, EmbedControl, Frame, LinkView, Theme, EMBED_CONTROLS, MAX_CAPTION,
    MAX_MOMENT_SECS, THEMES,
};
use crate::present::share::snippet::{frame_height, iframe, svg_command, FRAME_WIDTH, PHONE_FRAME};
use crate::present::share::title::{frame_title, still_alt, still_name};
use crate::sim::{Nanos, Scenario, TrafficShape};

/// The controls ticked first: a multi-node widget's nodes and store (the race against the
/// atomic script), else the algorithm's two parameters; then the arrival rate, unless the
/// traffic sets its own times (the seam attack, a replayed trace).
fn suggested(sc: &Scenario, cluster: bool) -> Vec<EmbedControl> {
    let mut controls = if cluster {
        vec![EmbedControl::Nodes, EmbedControl::Store]
    } else if is_windowed(sc.algo.textbook(&sc.product)) {
        vec![EmbedControl::Limit, EmbedControl::Window]
    } else {
        vec![EmbedControl::Capacity, EmbedControl::Refill]
    };
    if !matches!(sc.traffic, TrafficShape::Seam | TrafficShape::Trace) {
        controls.push(EmbedControl::Rate);
    }
    controls
}

/// A text the writer may set, else the one made from the scenario: `None` until edited, and
/// again once the field is emptied.
fn edited(text: String) -> Option<String> {
    let text = text.trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// `list` with `item` in or out; a new item goes last (`show=` keeps the order ticked).
fn toggled<T: PartialEq + Copy>(list: &mut Vec<T>, item: T, on: bool) {
    list.retain(|x| *x != item);
    if on {
        list.push(item);
    }
}

/// The moment in seconds as the field holds it, in whole milliseconds.
fn moment_text(t: Nanos) -> String {
    crate::sim::support::decimal::format_f64_trimmed(t.as_nanos() as f64 / 1e9, 3)
}

/// A live preview of the snippet's frame at `width` px, sized from the frame's own height
/// messages as the README's host recipe sizes it (`measured` keeps the last one).
#[component]
fn Preview(
    /// The frame's width, CSS px.
    width: u32,
    /// The embed address (the snippet's).
    #[prop(into)]
    src: Signal<String>,
    /// The height before the frame reports one.
    #[prop(into)]
    estimate: Signal<u32>,
    /// The height the frame last reported.
    measured: RwSignal<Option<u32>>,
) -> impl IntoView {
    let frame = NodeRef::<Iframe>::new();
    let listener = window_event_listener(ev::message, move |e| {
        let from_it = frame
            .get_untracked()
            .and_then(|f| f.content_window())
            .is_some_and(|w| JsValue::from(w) == JsValue::from(e.source()));
        let data = e.data();
        let kind = js_sys::Reflect::get(&data, &"type".into()).ok().and_then(|t| t.as_string());
        if from_it && kind.as_deref() == Some("ratelimit-playground:height") {
            let height = js_sys::Reflect::get(&data, &"height".into()).ok().and_then(|h| h.as_f64());
            if let Some(h) = height.filter(|h| h.is_finite() && *h > 0.0 && *h < 20_000.0) {
                measured.set(Some(h.ceil() as u32));
            }
        }
    });
    on_cleanup(move || listener.remove());
    // A new address is a new page: its height is not known until it reports one.
    Effect::new(move |_| {
        src.track();
        measured.set(None);
    });
    view! {
        <figure class="embed-preview">
            <figcaption>{if width == PHONE_FRAME { format!("{width} px: a post on a 375 px phone") } else { format!("{width} px") }}</figcaption>
            <iframe id=format!("embed-preview-{width}") node_ref=frame src=move || src.get() width=width
                height=move || measured.get().unwrap_or_else(|| estimate.get())
                data-measured=move || measured.get().is_some().to_string()
                sandbox=crate::present::share::snippet::SANDBOX title=format!("Preview of the embed at {width} px")></iframe>
        </figure>
    }
}

/// The snippet builder.
#[component]
pub fn EmbedPanel(
    /// The page's state, as the page last sent it.
    #[prop(into)]
    input: Signal<BuilderInput>,
) -> impl IntoView {
    let opened_on = input.with_untracked(|i| i.view);
    let cluster = opened_on == LinkView::Cluster;
    // The server's cards with a server, as the panel opened (the cluster view's cards likewise);
    // a snippet never shows one its scenario cannot: `fit` leaves it out, saying why.
    let has_server = input.with_untracked(|i| crate::sim::server::keys::has_server(&i.scenario.product));
    let offered: Vec<(Card, &'static str)> = CARDS
        .iter()
        .copied()
        .filter(|(c, _)| if cluster { *c != Card::Compare } else { !c.multi_node() })
        .filter(|(c, _)| has_server || !c.server())
        .collect();
    let frame = RwSignal::new(Frame {
        controls: input.with_untracked(|i| suggested(&i.scenario, cluster)),
        cards: vec![if opened_on == LinkView::Compare { Card::Compare } else { Card::Throughput }],
        ..Frame::default()
    });
    let scenario = Memo::new(move |_| input.with(|i| i.scenario.clone()));
    let server = move || scenario.with(|sc| crate::sim::server::keys::has_server(&sc.product));
    // The title, the still's alt text and its file name follow the scenario and the moment until
    // the writer edits them.
    let title_edit = RwSignal::new(None::<String>);
    let alt_edit = RwSignal::new(None::<String>);
    let image_edit = RwSignal::new(None::<String>);
    let title = Memo::new(move |_| title_edit.get().unwrap_or_else(|| scenario.with(frame_title)));
    let alt = Memo::new(move |_| alt_edit.get().unwrap_or_else(|| still_alt(&title.get())));
    let image = Memo::new(move |_| {
        image_edit.get().unwrap_or_else(|| frame.with(|f| scenario.with(|sc| still_name(sc, f.at))))
    });
    let view_key = move || if cluster { LinkView::Cluster } else { LinkView::Single };
    let url = Memo::new(move |_| {
        // #embedded: with scripting off such a frame shows nothing, so the still under it shows
        // (static/noscript.css).
        frame.with(|f| scenario.with(|sc| format!("{}?{}#embedded", page_base(), embed_query(sc, view_key(), f))))
    });
    let height = Memo::new(move |_| {
        frame.with(|f| frame_height(&fit(&f.cards, cluster, server()).0, !f.controls.is_empty(), !f.caption.is_empty()))
    });
    // The snippet's frame starts at the height the 600 px preview reports, once it has.
    let measured = RwSignal::new(None::<u32>);
    let narrow = RwSignal::new(None::<u32>);
    let page = move || scenario.with(|sc| format!("{}?{}", page_base(), share_query(sc, view_key())));
    let snippet = Signal::derive(move || {
        let wide = measured.get().unwrap_or_else(|| height.get());
        let narrow = narrow.get().unwrap_or(wide);
        iframe(&url.get(), &title.get(), &alt.get(), (wide, narrow), &page(), &image.get())
    });
    let command = Signal::derive(move || {
        frame.with(|f| {
            let cards = fit(&f.cards, cluster, server()).0;
            scenario.with(|sc| {
                svg_command(&scenario_query(sc), &cards, &moment_text(f.at), f.theme, &f.caption, &image.get())
            })
        })
    });
    let field = NodeRef::<Textarea>::new();
    let select = Callback::new(move |()| {
        if let Some(area) = field.get_untracked() {
            area.select();
        }
    });
    let set_moment = move |secs: f64| {
        let secs =
            if secs.is_finite() { crate::sim::support::within::within(secs, 0.0, MAX_MOMENT_SECS as f64) } else { 0.0 };
        frame.update(|f| f.at = Nanos((secs * 1000.0).round() as u64 * 1_000_000));
    };
    let now = move || input.with(|i| i.now.as_secs_f64());
    view! {
        <div class="panel share-panel embed-builder" id="embed-panel">
            <fieldset class="embed-controls-pick" id="embed-cards-pick">
                <legend>"Cards, in the order ticked"</legend>
                {offered
                    .into_iter()
                    .map(|(card, key)| view! {
                        <label class="check inline">
                            <input type="checkbox" id=format!("embed-card-{key}")
                                prop:checked=move || frame.with(|f| f.cards.contains(&card))
                                on:change=move |ev| frame.update(|f| toggled(&mut f.cards, card, event_target_checked(&ev))) />
                            <span>{card.title()}</span>
                        </label>
                    })
                    .collect_view()}
            </fieldset>
            <fieldset class="embed-controls-pick">
                <legend>"Controls under them"</legend>
                {EMBED_CONTROLS
                    .iter()
                    .filter(|(control, _)| cluster || !control.multi_node())
                    .map(|&(control, key)| view! {
                        <label class="check inline">
                            <input type="checkbox" id=format!("embed-with-{key}")
                                prop:checked=move || frame.with(|f| f.controls.contains(&control))
                                on:change=move |ev| frame.update(|f| {
                                    toggled(&mut f.controls, control, event_target_checked(&ev));
                                    f.controls.sort_by_key(|x| EMBED_CONTROLS.iter().position(|(e, _)| e == x));
                                }) />
                            <span>{key}</span>
                        </label>
                    })
                    .collect_view()}
            </fieldset>
            <div class="embed-moment">
                <label class="field">
                    <span>{format!("Opens at t = (s, 0 – {MAX_MOMENT_SECS})")}</span>
                    <input type="number" id="embed-t" min="0" max=MAX_MOMENT_SECS step="0.1"
                        prop:value=move || frame.with(|f| moment_text(f.at))
                        on:change=move |ev| set_moment(crate::sim::support::nearest::nearest_f64(&event_target_value(&ev)).unwrap_or(0.0)) />
                </label>
                <button type="button" id="embed-t-now" on:click=move |_| set_moment((now() * 10.0).floor() / 10.0)>
                    {move || format!("Use now ({} s)", moment_text(Nanos((now() * 10.0).floor() as u64 * 100_000_000)))}
                </button>
                <label class="check inline">
                    <input type="checkbox" id="embed-autoplay" prop:checked=move || frame.with(|f| f.autoplay)
                        on:change=move |ev| frame.update(|f| f.autoplay = event_target_checked(&ev)) />
                    <span>"Plays once scrolled into view"</span>
                </label>
                <label class="field">
                    <span>"Theme"</span>
                    <select id="embed-theme" on:change=move |ev| {
                        let v = event_target_value(&ev);
                        frame.update(|f| f.theme = THEMES.iter().find(|(_, k)| *k == v).map_or(Theme::Auto, |(t, _)| *t));
                    }>
                        {THEMES.iter().map(|&(t, key)| view! {
                            <option value=key selected=move || frame.with(|f| f.theme == t)>{key}</option>
                        }).collect_view()}
                    </select>
                </label>
            </div>
            <label class="field embed-caption-field">
                <span>{format!("Caption (plain text, up to {MAX_CAPTION} characters)")}</span>
                <input type="text" id="embed-caption-input" maxlength=MAX_CAPTION
                    prop:value=move || frame.with(|f| f.caption.clone())
                    on:change=move |ev| frame.update(|f| f.caption = event_target_value(&ev).trim().to_string()) />
            </label>
            <label class="field embed-caption-field">
                <span>"Title (what a screen reader announces for the frame)"</span>
                <input type="text" id="embed-title-input" prop:value=move || title.get()
                    on:change=move |ev| title_edit.set(edited(event_target_value(&ev))) />
            </label>
            <div class="embed-previews">
                <Preview width=FRAME_WIDTH src=url estimate=height measured=measured />
                <Preview width=PHONE_FRAME src=url estimate=Signal::derive(move || height.get() + 60) measured=narrow />
            </div>
            <label for="embed-snippet">"Paste this where the playground should appear"</label>
            <textarea id="embed-snippet" readonly rows="5" node_ref=field prop:value=move || snippet.get()
                on:focus=move |_| select.run(())></textarea>
            <div class="copy-row">
                <CopyButton id="embed-copy" text=snippet select=select label="Copy snippet" />
            </div>
            <label class="field">
                <span>"Still image for readers without iframes (RSS, email, some doc sites): its address"</span>
                <input type="text" id="embed-image" prop:value=move || image.get()
                    on:change=move |ev| image_edit.set(Some(event_target_value(&ev).trim().to_string())) />
            </label>
            <label class="field">
                <span>"The still's alt text"</span>
                <input type="text" id="embed-alt" prop:value=move || alt.get()
                    on:change=move |ev| alt_edit.set(edited(event_target_value(&ev))) />
            </label>
            <p class="hint">"Draw it with the CLI — the same cards at the same moment, by the same drawing code:"</p>
            <pre class="embed-command"><code id="embed-svg-command">{move || command.get()}</code></pre>
            <p class="hint" id="embed-host-needs">
                "Any static host serves it, no CORS headers needed. If its code cannot load, the frame says why and the snippet shows the still instead. It pauses out of view; the snippet's last lines size it (its "
                <code>"ratelimit-playground:height"</code>
                " messages; see the README); “Open in the playground ↗” opens a tab."
            </p>
        </div>
    }
}
