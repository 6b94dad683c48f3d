//! The parameter sliders as one table: each [`Knob`] binds a [`Slider`] (and its number field)
//! to one number of the scenario, so the page's controls and an embed's draw the same slider
//! from the same row, and every slider shares one copy of the binding code instead of a pair of
//! closures of its own. The slider spans the usual values; the field takes the key's whole range.

use leptos::prelude::*;

use super::playground::Playground;
use super::slider::Slider;
use crate::present::units::SliderScale;
use crate::sim::query::{number_range, Range};
use crate::sim::{Nanos, Rate, Scenario};

/// One number of the scenario as a slider.
pub struct Knob {
    /// Element id of the range input.
    pub id: &'static str,
    /// The query key of the value: its number field takes the key's range and precision.
    pub key: &'static str,
    /// Visible label.
    pub label: &'static str,
    /// Unit shown after the value.
    pub unit: &'static str,
    /// How slider positions map to values.
    pub scale: SliderScale,
    /// The value shown, read from the scenario.
    pub get: fn(&Scenario) -> f64,
    /// Puts a value the slider chose into the scenario.
    pub set: fn(&mut Scenario, f64),
}

/// Capacity: whole tokens, 1–100 on the slider.
pub const CAPACITY: Knob = Knob {
    id: "capacity",
    key: "capacity",
    label: "Capacity",
    unit: "tokens",
    scale: SliderScale::Linear { min: 1, max: 100 },
    get: |s| s.capacity as f64,
    set: |s, v| s.capacity = v.round().max(1.0) as u64,
};

/// Refill rate: 0.1–1000 tokens/s, logarithmic.
pub const REFILL: Knob = Knob {
    id: "refill",
    key: "refill",
    label: "Refill rate",
    unit: "tokens/s",
    scale: SliderScale::Log { min: 0.1, max: 1000.0, steps: 1000 },
    get: |s| s.refill.as_per_sec(),
    set: |s, v| s.refill = Rate::from_per_sec(v),
};

/// Limit per window: 1–100 requests on the slider.
pub const LIMIT: Knob = Knob {
    id: "limit",
    key: "limit",
    label: "Limit",
    unit: "requests",
    scale: SliderScale::Linear { min: 1, max: 100 },
    get: |s| s.effective_limit() as f64,
    // Setting one of limit and window pins the other where it is, so it no longer follows the
    // bucket's capacity and refill.
    set: |s, v| (s.window, s.limit) = (Some(s.effective_window()), Some(v.round().max(1.0) as u64)),
};

/// Window: 0.1 s – 1 h, logarithmic.
pub const WINDOW: Knob = Knob {
    id: "window",
    key: "window",
    label: "Window",
    unit: "s",
    scale: SliderScale::Log { min: 0.1, max: 3600.0, steps: 1000 },
    get: |s| s.effective_window().as_secs_f64(),
    set: |s, v| (s.limit, s.window) = (Some(s.effective_limit()), Some(Nanos::from_secs_f64(v))),
};

/// Arrival rate: 0.1–10 000 requests/s, logarithmic.
pub const RATE: Knob = Knob {
    id: "rate",
    key: "rate",
    label: "Arrival rate",
    unit: "requests/s",
    scale: SliderScale::Log { min: 0.1, max: 10_000.0, steps: 1000 },
    get: |s| s.rate.as_per_sec(),
    set: |s, v| s.rate = Rate::from_per_sec(v),
};

/// Burst and pause lengths: 0.1–600 s, logarithmic.
const SPAN: SliderScale = SliderScale::Log { min: 0.1, max: 600.0, steps: 1000 };

/// How long a burst lasts.
pub const BURST_ON: Knob = Knob {
    id: "burst-on",
    key: "burst_on",
    label: "Burst length",
    unit: "s",
    scale: SPAN,
    get: |s| s.burst_on.as_secs_f64(),
    set: |s, v| s.burst_on = Nanos::from_secs_f64(v),
};

/// The pause between bursts.
pub const BURST_OFF: Knob = Knob {
    id: "burst-off",
    key: "burst_off",
    label: "Pause between bursts",
    unit: "s",
    scale: SPAN,
    get: |s| s.burst_off.as_secs_f64(),
    set: |s, v| s.burst_off = Nanos::from_secs_f64(v),
};

/// Clients: 1–10 000, logarithmic.
pub const CLIENTS: Knob = Knob {
    id: "clients",
    key: "clients",
    label: "Clients",
    unit: "clients",
    scale: SliderScale::Log { min: 1.0, max: 10_000.0, steps: 400 },
    get: |s| f64::from(s.clients),
    set: |s, v| s.clients = v.round().max(1.0) as u32,
};

/// Retries per request: 0–20.
pub const MAX_RETRIES: Knob = Knob {
    id: "retries",
    key: "retries",
    label: "Retries per request",
    unit: "retries",
    scale: SliderScale::Linear { min: 0, max: 20 },
    get: |s| f64::from(s.max_retries),
    set: |s, v| s.max_retries = v.round() as u32,
};

impl Knob {
    /// What its number field takes: its query key's range.
    pub fn range(&self) -> Range {
        field_range(self.key)
    }
}

/// The range of query key `key` for a number field (every key a slider names has one: see the
/// test below; a key without one would take any whole number).
pub fn field_range(key: &str) -> Range {
    number_range(key).unwrap_or(Range { min: 0, max: u64::MAX, digits: 0, unit: "" })
}

/// The slider of `knob` on `pg`'s scenario, read-only while `disabled`; every move goes through
/// [`Playground::edit`].
pub fn knob(pg: Playground, knob: &'static Knob, disabled: Signal<bool>) -> AnyView {
    let sc = pg.scenario;
    view! {
        <Slider
            id=knob.id
            range=knob.range()
            label=knob.label
            unit=knob.unit
            scale=knob.scale
            value=Signal::derive(move || sc.with(knob.get))
            on_change=Callback::new(move |v: f64| pg.edit(|s| (knob.set)(s, v)))
            disabled=disabled
        />
    }
    .into_any()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_knob_and_cluster_slider_names_a_numeric_query_key_in_its_unit() {
        let knobs = [&CAPACITY, &REFILL, &LIMIT, &WINDOW, &RATE, &BURST_ON, &BURST_OFF, &CLIENTS, &MAX_RETRIES];
        for k in knobs {
            let r = number_range(k.key).unwrap_or_else(|| panic!("{}: no range", k.key));
            assert!(r.unit.starts_with(k.unit) || k.unit.starts_with(r.unit), "{}: {} vs {}", k.key, r.unit, k.unit);
        }
        for key in ["nodes", "rtt", "timeout"] {
            assert!(number_range(key).is_some(), "{key}");
        }
    }
}
