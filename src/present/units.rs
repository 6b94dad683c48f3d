//! Presentation arithmetic for the web app, kept free of web crates so it is tested natively:
//! slider positions ↔ values (linear or logarithmic), and how numbers are written on screen
//! (through [`format_f64`], never core's float printing: kept for the first module's size, see
//! docs/size.md).

use crate::sim::support::decimal::{format_f64, format_f64_trimmed};
use crate::sim::support::within::within;

/// How a range input's integer positions map to parameter values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SliderScale {
    /// Position = value, integers from `min` to `max`.
    Linear {
        /// Smallest value.
        min: u32,
        /// Largest value.
        max: u32,
    },
    /// `steps + 1` positions spread evenly over `log(min)..=log(max)`; each position's value is
    /// the roundest number that is still nearest that position (`4`, `4.9`, `12.6`, never
    /// `4.8977`), so every step of the slider moves the value.
    Log {
        /// Smallest value (> 0).
        min: f64,
        /// Largest value.
        max: f64,
        /// Number of intervals between `min` and `max`.
        steps: u32,
    },
}

impl SliderScale {
    /// The range input's `min` and `max` attributes.
    pub fn positions(self) -> (u32, u32) {
        match self {
            SliderScale::Linear { min, max } => (min, max),
            SliderScale::Log { steps, .. } => (0, steps),
        }
    }

    /// The value at slider position `pos` (clamped to the range).
    ///
    /// ```
    /// use ratelimit_playground::present::units::SliderScale;
    /// let s = SliderScale::Log { min: 0.1, max: 1000.0, steps: 1000 };
    /// assert_eq!(s.value_at(0), 0.1);
    /// assert_eq!(s.value_at(500), 10.0);
    /// assert_eq!(s.value_at(1000), 1000.0);
    /// ```
    pub fn value_at(self, pos: u32) -> f64 {
        match self {
            SliderScale::Linear { min, max } => f64::from(pos.clamp(min, max)),
            SliderScale::Log { min, max, steps } => {
                let pos = pos.min(steps);
                let f = f64::from(pos) / f64::from(steps.max(1));
                let raw = (min.ln() + f * (max.ln() - min.ln())).exp();
                (1..=3)
                    .map(|digits| within(round_significant(raw, digits), min, max))
                    .find(|&v| self.position_of(v) == pos)
                    .unwrap_or_else(|| within(round_significant(raw, 4), min, max))
            }
        }
    }

    /// This scale widened, if need be, to reach `value`: a link's `capacity=500` on a slider that
    /// ends at 100 sits at a new end, and a nudge moves it to 499, not to 99.
    ///
    /// ```
    /// use ratelimit_playground::present::units::SliderScale;
    /// let s = SliderScale::Linear { min: 1, max: 100 }.covering(500.0);
    /// assert_eq!((s.position_of(500.0), s.value_at(499)), (500, 499.0));
    /// let s = SliderScale::Log { min: 0.1, max: 1000.0, steps: 1000 }.covering(12.5);
    /// assert_eq!(s.value_at(s.position_of(12.5) + 1), 12.6);
    /// ```
    pub fn covering(self, value: f64) -> SliderScale {
        if !value.is_finite() {
            return self;
        }
        match self {
            SliderScale::Linear { min, max } => {
                let v = value.round().clamp(0.0, f64::from(u32::MAX)) as u32;
                SliderScale::Linear { min: min.min(v), max: max.max(v) }
            }
            SliderScale::Log { min, max, steps } if value > 0.0 => {
                SliderScale::Log { min: min.min(value), max: max.max(value), steps }
            }
            log => log,
        }
    }

    /// The slider position closest to `value` (clamped to the range).
    ///
    /// ```
    /// use ratelimit_playground::present::units::SliderScale;
    /// let s = SliderScale::Log { min: 0.1, max: 10_000.0, steps: 1000 };
    /// assert_eq!(s.position_of(1.0), 200);
    /// assert_eq!(s.value_at(s.position_of(4.0)), 4.0);
    /// ```
    pub fn position_of(self, value: f64) -> u32 {
        match self {
            SliderScale::Linear { min, max } => (value.round().max(0.0) as u32).clamp(min, max),
            SliderScale::Log { min, max, steps } => {
                let v = within(value, min, max);
                let f = (v.ln() - min.ln()) / (max.ln() - min.ln());
                (f * f64::from(steps)).round() as u32
            }
        }
    }
}

/// Rounds `v` to `digits` significant digits.
///
/// ```
/// use ratelimit_playground::present::units::round_significant;
/// assert_eq!(round_significant(4.8977, 2), 4.9);
/// assert_eq!(round_significant(1234.0, 2), 1200.0);
/// ```
pub fn round_significant(v: f64, digits: i32) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let scale = 10f64.powi(digits - 1 - v.abs().log10().floor() as i32);
    (v * scale).round() / scale
}

/// A parameter value for display: thousands separated; below 100, three significant digits
/// (down to a millionth: a refill of 0.001/s is not "0").
///
/// ```
/// use ratelimit_playground::present::units::format_number;
/// assert_eq!(format_number(0.1), "0.1");
/// assert_eq!(format_number(0.001), "0.001");
/// assert_eq!(format_number(0.01234), "0.0123");
/// assert_eq!(format_number(7.5), "7.5");
/// assert_eq!(format_number(12.345), "12.3");
/// assert_eq!(format_number(10_000.0), "10,000");
/// assert_eq!(format_number(1234567.0), "1,234,567");
/// ```
pub fn format_number(v: f64) -> String {
    if v.abs() < 100.0 && v.fract() != 0.0 {
        let decimals = (2 - v.abs().log10().floor() as i32).clamp(2, 6);
        return format_f64_trimmed(round_significant(v, 3), decimals as u32);
    }
    group_thousands(v.round() as u64)
}

/// `unit` as it reads after a value shown as `shown`: singular for "1" ("1 token/s", "1 request",
/// "1 node"; "1 s" and "1 ms" stay as they are).
///
/// ```
/// use ratelimit_playground::present::units::unit_for;
/// assert_eq!(unit_for("1", "tokens/s"), "token/s");
/// assert_eq!(unit_for("1", "requests"), "request");
/// assert_eq!(unit_for("1", "s"), "s");
/// assert_eq!(unit_for("1.5", "tokens/s"), "tokens/s");
/// assert_eq!(unit_for("10", "nodes"), "nodes");
/// ```
pub fn unit_for(shown: &str, unit: &str) -> String {
    if shown != "1" {
        return unit.to_string();
    }
    let (word, per) = unit.split_once('/').unwrap_or((unit, ""));
    let word = if word.len() > 2 { word.strip_suffix('s').unwrap_or(word) } else { word };
    if per.is_empty() {
        word.to_string()
    } else {
        format!("{word}/{per}")
    }
}

/// An integer with `,` between groups of three digits.
///
/// ```
/// use ratelimit_playground::present::units::group_thousands;
/// assert_eq!(group_thousands(999), "999");
/// assert_eq!(group_thousands(12_345), "12,345");
/// ```
pub fn group_thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A ratio in 0..=1 as a percentage with one decimal, e.g. `71.4 %`.
///
/// ```
/// use ratelimit_playground::present::units::format_percent;
/// assert_eq!(format_percent(0.714_28), "71.4 %");
/// assert_eq!(format_percent(1.0), "100.0 %");
/// ```
pub fn format_percent(ratio: f64) -> String {
    format!("{} %", format_f64(ratio * 100.0, 1))
}

/// A simulated duration for display: milliseconds below one second, then seconds with fewer
/// decimals as they grow.
///
/// ```
/// use ratelimit_playground::present::units::format_secs;
/// assert_eq!(format_secs(0.65), "650 ms");
/// assert_eq!(format_secs(2.018), "2.02 s");
/// assert_eq!(format_secs(42.26), "42.3 s");
/// assert_eq!(format_secs(3725.0), "3,725 s");
/// ```
pub fn format_secs(secs: f64) -> String {
    if secs < 1.0 {
        format!("{} ms", format_f64(secs * 1000.0, 0))
    } else if secs < 10.0 {
        format!("{} s", format_f64(secs, 2))
    } else if secs < 100.0 {
        format!("{} s", format_f64(secs, 1))
    } else {
        format!("{} s", group_thousands(secs.round() as u64))
    }
}

/// The simulated clock as the playback bar shows it: tenths of a second while running, so its
/// text (and the page's layout) changes at most ten times per simulated second instead of every
/// frame; milliseconds while paused, where single steps move it by less.
///
/// ```
/// use ratelimit_playground::present::units::clock_text;
/// assert_eq!(clock_text(5.8123, true), "t = 5.8 s");
/// assert_eq!(clock_text(5.8123, false), "t = 5.812 s");
/// ```
pub fn clock_text(secs: f64, running: bool) -> String {
    if running {
        format!("t = {} s", format_f64(secs, 1))
    } else {
        format!("t = {} s", format_f64(secs, 3))
    }
}
