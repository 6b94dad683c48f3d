//! The page in two modules. What every visitor loads first (`ratelimit-playground`,
//! [`LightApp`](crate::app::LightApp)) runs and draws one server's limiter; what only some visitors
//! open — the multi-node view, Compare all, the production panel, the log panel, the share bar,
//! the product models' knobs —
//! is in the whole page's module (`ratelimit-full`, [`App`](crate::app::App)), which has everything.
//! The light page shows a stand-in for each (see [`super::stand_in`]); the first time a visitor
//! asks for one, the light page has the loader start the whole page's module, and, in the task
//! that mounts it, so nothing blank is ever painted, unmounts itself. The loader starts the whole page directly for a link that needs it. The
//! scenario and view travel in the address, as for any link; the simulated moment, playback,
//! scroll, focus, the button pressed and the option chosen in a [`Handover`], so the run goes on
//! where it was.

use std::any::Any;
use std::cell::{Cell, RefCell};

use leptos::prelude::*;
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::js_sys::{Function, Promise, Reflect};

use crate::app::playground::Playground;
use crate::app::share::replace_query;
use crate::present::handover::Handover;
use crate::present::share::link::share_query;
use crate::sim::{Algorithm, Scenario};

/// The loader's function that starts the whole page's module, its stylesheets first, and resolves
/// once it has mounted (scripts/loader/loader.js: the same one starts it for a link that needs
/// it).
const START_WHOLE: &str = "rlpStartWhole";

/// The first module's callback that leaves the whole page the hand-over and unmounts itself.
const GIVE_WAY: &str = "rlpGiveWay";

/// Where the light page leaves the [`Handover`] text for the whole page.
const HANDOVER: &str = "rlpHandover";

thread_local! {
    /// The light page's mount: dropping it unmounts the page and runs every cleanup.
    static MOUNTED: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
    /// Whether the whole page's module is being loaded.
    static LOADING: Cell<bool> = const { Cell::new(false) };
    /// What the visitor asked for while it loads: the latest ask wins; every stand-in that asked
    /// is told if loading fails.
    static ASKED: RefCell<(Ask, Vec<RwSignal<bool>>)> = RefCell::new((Ask::default(), Vec::new()));
}

/// What a stand-in asks the whole page to do once it has mounted, beyond showing the address.
#[derive(Clone, Copy, Default)]
pub struct Ask {
    /// The element to give the keyboard focus (else the one that had it).
    pub focus: Option<&'static str>,
    /// The button to press: the one the visitor pressed on the stand-in.
    pub click: Option<&'static str>,
    /// The product model to open on, from the start: the visitor picked it on the stand-in, and
    /// this module cannot run it.
    pub algo: Option<Algorithm>,
    /// A `<select>` and the option to choose in it: the visitor chose it on the stand-in.
    pub choose: Option<(&'static str, &'static str)>,
}

/// Hands over to the whole page, once: `failed` is set if its module cannot be loaded. A frame
/// (`pg` is `None`) hands over as it was opened: its address says everything.
pub(crate) fn request(pg: Option<Playground>, ask: Ask, failed: RwSignal<bool>) {
    ASKED.with_borrow_mut(|(asked, waiting)| {
        *asked = ask;
        waiting.push(failed);
    });
    if LOADING.replace(true) {
        return;
    }
    leptos::task::spawn_local(async move {
        if let Err(e) = hand_over(pg).await {
            leptos::logging::warn!("the whole page's module did not load: {e:?}");
            LOADING.set(false);
            for failed in ASKED.with_borrow_mut(|(_, waiting)| std::mem::take(waiting)) {
                let _ = failed.try_set(true);
            }
        }
    });
}

/// Mounts `app` to the body and keeps its handle, so that [`hand_over`] can unmount it.
pub fn mount<V: IntoView + 'static>(app: fn() -> V) {
    let Some(body) = document().body() else { return };
    let handle = leptos::mount::mount_to(body, app);
    MOUNTED.with_borrow_mut(|m| *m = Some(Box::new(handle)));
}

/// Starts the whole page's module (the loader's [`START_WHOLE`]); the whole page calls back
/// ([`give_way`]) just before it mounts, and this page then leaves it the address and the
/// [`Handover`] and unmounts itself, in the same task as that mount, so no frame is painted
/// between the two pages. The loader instantiates the module asynchronously: Chrome refuses a
/// synchronous instance of a module over 8 MB on the main thread, which a debug build
/// (`make serve`) is.
async fn hand_over(pg: Option<Playground>) -> Result<(), JsValue> {
    let start: Function = Reflect::get(&window(), &START_WHOLE.into())?.dyn_into()?;
    let leave = Closure::once_into_js(move || {
        if let Some(pg) = pg {
            let algo = ASKED.with_borrow(|(ask, _)| ask.algo);
            let view = pg.scenario.try_with_untracked(|sc| {
                let picked = algo.map(|algo| Scenario { algo, ..sc.clone() });
                share_query(picked.as_ref().unwrap_or(sc), untrack(|| pg.link_view()))
            });
            if let Some(view) = view {
                replace_query(&view);
                if let Err(e) = leave_handover(pg) {
                    leptos::logging::warn!("the hand-over could not be left: {e:?}");
                }
            }
        }
        drop(MOUNTED.with_borrow_mut(Option::take));
    });
    Reflect::set(&window(), &GIVE_WAY.into(), &leave)?;
    let started = start.call0(&JsValue::NULL)?.dyn_into::<Promise>()?;
    if let Err(e) = JsFuture::from(started).await {
        let _ = Reflect::delete_property(&window(), &GIVE_WAY.into());
        return Err(e);
    }
    Ok(())
}

/// Called by the whole page's module just before it mounts: the first module that started it, if
/// one did, leaves it what it needs and unmounts itself (see [`hand_over`]).
pub fn give_way() {
    let Ok(leave) = Reflect::get(&window(), &GIVE_WAY.into()) else { return };
    let _ = Reflect::delete_property(&window(), &GIVE_WAY.into());
    if let Ok(leave) = leave.dyn_into::<Function>() {
        let _ = leave.call0(&JsValue::NULL);
    }
}

/// Leaves the whole page what the address does not say: the [`Handover`]. (A replayed trace,
/// which no address holds, cannot be here: the light page has no trace tools.)
fn leave_handover(pg: Playground) -> Result<(), JsValue> {
    let ask = ASKED.with_borrow(|(ask, _)| *ask);
    let focus = ask.focus.map(str::to_string).or_else(|| document().active_element().map(|e| e.id()));
    let handover = Handover {
        running: pg.running.get_untracked(),
        speed: pg.speed.get_untracked(),
        // A product picked on the stand-in starts from t = 0, as any change of algorithm does.
        at_ns: if ask.algo.is_some() { 0 } else { pg.with_runner(|r| r.now().as_nanos()).unwrap_or(0) },
        scroll: window().scroll_y().map_or(0, |y| y.max(0.0).round() as u32),
        focus: focus.filter(|id| !id.is_empty()),
        click: ask.click.map(str::to_string),
        choose: ask.choose.map(|(id, value)| (id.to_string(), value.to_string())),
        folds: pg.folds.get_untracked().unwrap_or_default(),
    };
    Reflect::set(&window(), &HANDOVER.into(), &handover.encode().into())?;
    Ok(())
}

/// The [`Handover`] the light page left, if this page was started by one (read once).
pub fn take_handover() -> Option<Handover> {
    let text = Reflect::get(&window(), &HANDOVER.into()).ok()?.as_string()?;
    let _ = Reflect::delete_property(&window(), &HANDOVER.into());
    Handover::decode(&text)
}

/// Once the whole page has mounted, before it is first painted: scrolls to where the light page
/// was, makes the choice the visitor made, gives the focus back and presses the button the
/// visitor pressed.
pub fn resume_when_mounted(h: &Handover) {
    let (scroll, focus, click, choose) = (h.scroll, h.focus.clone(), h.click.clone(), h.choose.clone());
    request_animation_frame(move || {
        window().scroll_to_with_x_and_y(0.0, f64::from(scroll));
        let element = |id: Option<String>| {
            id.and_then(|id| document().get_element_by_id(&id)).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        };
        if let Some((id, value)) = choose {
            if let Some(select) = element(Some(id)).and_then(|e| e.dyn_into::<web_sys::HtmlSelectElement>().ok()) {
                select.set_value(&value);
                if let Ok(change) = web_sys::Event::new("change") {
                    let _ = select.dispatch_event(&change);
                }
            }
        }
        if let Some(el) = element(focus) {
            let options = web_sys::FocusOptions::new();
            options.set_prevent_scroll(true);
            let _ = el.focus_with_options(&options);
        }
        if let Some(el) = element(click) {
            el.click();
        }
    });
}
