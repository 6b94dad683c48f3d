//! The host API, the frame's side: the page around a frame directs it by `postMessage` (the rules
//! and the commands' checks are [`crate::present::share::host`]). The frame acts only on messages
//! whose `source` is its parent window and whose `ns` is `rlp`; every command with an `id` gets a
//! `res` with that `id` (`{result}` or `{error}`), and it tells the host unprompted:
//!
//! - `ready {version, t, duration, query, paused}` once it takes commands (and after `ping`);
//! - `state {state: "playing" | "paused"}` whenever that changes;
//! - `time {t}` about four times a second while playing;
//! - `height {px}` whenever its content's height changes ([`super::frame_messages`] observes it).
//!
//! The listener is removed when the frame's view is.

use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{js_sys, MessageEvent};

use crate::app::playground::Playground;
use crate::present::share::host::{merged, Command, NS, VERSION};
use crate::present::share::link::scenario_query;
use crate::sim::Nanos;

/// Real milliseconds between `time` events while playing.
const TIME_EVERY_MS: f64 = 250.0;

/// A field of `object`, if it is one.
fn field(object: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(object, &name.into()).unwrap_or(JsValue::UNDEFINED)
}

/// An object of `fields`.
fn object(fields: &[(&str, JsValue)]) -> JsValue {
    let o = js_sys::Object::new();
    for (name, value) in fields {
        let _ = js_sys::Reflect::set(&o, &(*name).into(), value);
    }
    o.into()
}

/// Sends `{ns, v, kind, id, name, data}` to the parent window.
fn send(kind: &str, id: &JsValue, name: &str, data: JsValue) {
    let message = object(&[
        ("ns", NS.into()),
        ("v", VERSION.into()),
        ("kind", kind.into()),
        ("id", id.clone()),
        ("name", name.into()),
        ("data", data),
    ]);
    if let Ok(Some(parent)) = window().parent() {
        let _ = parent.post_message(&message, "*");
    }
}

/// Tells the host `name` with `data`.
pub fn event(name: &str, data: JsValue) {
    send("evt", &JsValue::UNDEFINED, name, data);
}

/// Simulated seconds now.
fn now_s(pg: Playground) -> f64 {
    pg.snapshot.with_untracked(|s| s.now.as_secs_f64())
}

/// `ready`'s data: what a host needs before its first command.
fn ready(pg: Playground) -> JsValue {
    let sc = pg.scenario.get_untracked();
    object(&[
        ("version", env!("CARGO_PKG_VERSION").into()),
        ("t", now_s(pg).into()),
        ("duration", sc.duration.as_secs_f64().into()),
        ("query", scenario_query(&sc).into()),
        ("paused", (!pg.running.get_untracked()).into()),
    ])
}

/// `get {name}`'s answer.
fn get(pg: Playground, name: &str) -> JsValue {
    match name {
        "counts" => {
            let totals = pg.snapshot.with_untracked(|s| s.main().map(|c| c.totals)).unwrap_or_default();
            object(&[
                ("t", now_s(pg).into()),
                ("requests", (totals.requests as f64).into()),
                ("admitted", (totals.admitted as f64).into()),
                ("rejected", (totals.rejected as f64).into()),
                ("over_admitted", (totals.over_admitted() as f64).into()),
                ("running", pg.running.get_untracked().into()),
            ])
        }
        "query" => scenario_query(&pg.scenario.get_untracked()).into(),
        _ => object(&[
            ("state", if pg.running.get_untracked() { "playing" } else { "paused" }.into()),
            ("t", now_s(pg).into()),
        ]),
    }
}

/// Runs `command`: its result, or why it changed nothing.
fn run(pg: Playground, opened_at: Nanos, command: Command) -> Result<JsValue, String> {
    match command {
        Command::Ping => event("ready", ready(pg)),
        Command::Play => pg.running.set(true),
        Command::Pause => pg.running.set(false),
        Command::Seek(t) => pg.back_to(t),
        Command::Reset => pg.back_to(opened_at),
        Command::Step(n) if n > 0 => (0..n).for_each(|_| pg.step()),
        Command::Step(n) => (0..-n).for_each(|_| pg.step_back()),
        Command::Goto => {
            return Err(
                "goto: this widget shows no tour; a tour's step opens in the playground (?tour=path&step=N)".into()
            )
        }
        Command::Set(query) => {
            let sc = merged(&pg.scenario.get_untracked(), &query, pg.caps)?;
            pg.scenario.set(sc);
            pg.restart();
        }
        Command::Get(name) => return Ok(get(pg, &name)),
    }
    Ok(JsValue::TRUE)
}

/// Takes the host's commands for the frame of `pg`, which opened on `opened_at`, and tells the
/// host what happens.
pub fn use_host_api(pg: Playground, opened_at: Nanos) {
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |ev: MessageEvent| {
        let data = ev.data();
        let from_parent = match (ev.source(), window().parent()) {
            (Some(source), Ok(Some(parent))) => js_sys::Object::is(&source, &parent),
            _ => false,
        };
        if !from_parent || field(&data, "ns").as_string().as_deref() != Some(NS) {
            return;
        }
        if field(&data, "kind").as_string().as_deref() != Some("cmd") {
            return;
        }
        let (id, name) = (field(&data, "id"), field(&data, "name").as_string().unwrap_or_default());
        let args = field(&data, "data");
        let answer = if field(&data, "v").as_f64() != Some(f64::from(VERSION)) {
            Err(format!("v: this frame speaks version {VERSION} of the host API"))
        } else {
            Command::read(&name, |k| field(&args, k).as_f64(), |k| field(&args, k).as_string())
                .and_then(|command| run(pg, opened_at, command))
        };
        let data = match answer {
            Ok(result) => object(&[("result", result)]),
            Err(error) => object(&[("error", error.into())]),
        };
        if !id.is_undefined() {
            send("res", &id, &name, data);
        } else if let Some(error) = field(&data, "error").as_string() {
            event("error", object(&[("name", name.into()), ("error", error.into())]));
        }
    });
    let listener: &js_sys::Function = on_message.as_ref().unchecked_ref();
    let _ = window().add_event_listener_with_callback("message", listener);
    let held = SendWrapper::new(on_message);
    on_cleanup(move || {
        let on_message = held.take();
        let _ = window().remove_event_listener_with_callback("message", on_message.as_ref().unchecked_ref());
    });

    // What changes, unprompted: playing or paused, and the time while playing.
    Effect::new(move |was: Option<bool>| {
        let playing = pg.running.get();
        if was.is_some_and(|w| w != playing) {
            event("state", object(&[("state", if playing { "playing" } else { "paused" }.into())]));
        }
        playing
    });
    let last = StoredValue::new(f64::NEG_INFINITY);
    Effect::new(move |_| {
        let t = pg.snapshot.with(|s| s.now.as_secs_f64());
        let now = window().performance().map_or(0.0, |p| p.now());
        if pg.running.get_untracked() && now - last.get_value() >= TIME_EVERY_MS {
            last.set_value(now);
            event("time", object(&[("t", t.into())]));
        }
    });
    event("ready", ready(pg));
}
