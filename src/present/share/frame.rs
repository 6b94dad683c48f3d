//! What an embed shows besides the scenario (`embed=1` links): the author's controls and cards,
//! the moment it opens on, whether it plays, a caption and the theme — read from an address's
//! keys and written back by the same code. Plain Rust, tested natively (through [`crate::present::share::link`]).

use crate::present::share::cards::{cards_value, read_cards, unknown_cards, Card};
use crate::sim::query::{Kind, Problem, Problems, Used};
use crate::sim::Nanos;

/// The latest moment `t=` may open an embed on, s (a jump there is computed at load).
pub const MAX_MOMENT_SECS: u64 = 600;
/// The longest caption, in characters.
pub const MAX_CAPTION: usize = 200;

/// The colours an embed uses (`theme=`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// The reader's system setting (`prefers-color-scheme`).
    #[default]
    Auto,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

/// `theme` values.
pub const THEMES: [(Theme, &str); 3] = [(Theme::Auto, "auto"), (Theme::Light, "light"), (Theme::Dark, "dark")];

impl Theme {
    /// Its name in `theme=`.
    pub fn key(self) -> &'static str {
        THEMES.iter().find(|(t, _)| *t == self).map_or("auto", |(_, k)| k)
    }
}

/// What an embed shows besides the scenario: the author's controls and cards, the moment it
/// opens on, whether it plays, a caption and the theme.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// The controls shown, in [`EMBED_CONTROLS`] order.
    pub controls: Vec<EmbedControl>,
    /// The cards shown, in the author's order (empty: [`crate::present::share::cards::DEFAULT_CARDS`]).
    pub cards: Vec<Card>,
    /// The simulated time it opens on (`t=`, seconds).
    pub at: Nanos,
    /// Whether it starts playing once in view (`autoplay=0` opens paused).
    pub autoplay: bool,
    /// Plain text under the cards (shown as text, never as markup).
    pub caption: String,
    /// Light, dark or the reader's.
    pub theme: Theme,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            controls: Vec::new(),
            cards: Vec::new(),
            at: Nanos(0),
            autoplay: true,
            caption: String::new(),
            theme: Theme::Auto,
        }
    }
}

/// Percent-encodes `s` for a query value: everything but unreserved characters.
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `t` in whole milliseconds as seconds, without trailing zeros (`12.5`, `30`).
fn seconds_text(t: Nanos) -> String {
    let ms = t.as_nanos() / 1_000_000;
    let (s, frac) = (ms / 1000, ms % 1000);
    if frac == 0 {
        s.to_string()
    } else {
        format!("{s}.{frac:03}").trim_end_matches('0').to_string()
    }
}

/// A control an embed can show (`controls=rate,capacity`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbedControl {
    /// The algorithm select.
    Algo,
    /// How many nodes (a multi-node widget's).
    Nodes,
    /// Where the count lives: the race against the atomic script (a multi-node widget's).
    Store,
    /// The round trip to the store (a multi-node widget's).
    Rtt,
    /// Token bucket capacity.
    Capacity,
    /// Token bucket refill rate.
    Refill,
    /// Window limit.
    Limit,
    /// Window length.
    Window,
    /// Arrival rate.
    Rate,
    /// Arrival process.
    Traffic,
    /// The seed.
    Seed,
    /// Playback speed.
    Speed,
}

/// Every embed control with its name in `controls=`, in the order an embed shows them.
pub const EMBED_CONTROLS: [(EmbedControl, &str); 12] = [
    (EmbedControl::Algo, "algo"),
    (EmbedControl::Nodes, "nodes"),
    (EmbedControl::Store, "store"),
    (EmbedControl::Rtt, "rtt"),
    (EmbedControl::Capacity, "capacity"),
    (EmbedControl::Refill, "refill"),
    (EmbedControl::Limit, "limit"),
    (EmbedControl::Window, "window"),
    (EmbedControl::Rate, "rate"),
    (EmbedControl::Traffic, "traffic"),
    (EmbedControl::Seed, "seed"),
    (EmbedControl::Speed, "speed"),
];

impl EmbedControl {
    /// Its name in `controls=`.
    ///
    /// ```
    /// use ratelimit_playground::present::share::link::EmbedControl;
    /// assert_eq!(EmbedControl::Rate.key(), "rate");
    /// ```
    pub fn key(self) -> &'static str {
        EMBED_CONTROLS.iter().find(|(c, _)| *c == self).map_or("", |(_, k)| k)
    }

    /// Whether it is a multi-node widget's: the nodes, the store and its round trip.
    pub fn multi_node(self) -> bool {
        matches!(self, EmbedControl::Nodes | EmbedControl::Store | EmbedControl::Rtt)
    }
}

/// `controls` fitted to a scenario: a one-node widget leaves the multi-node controls out (a
/// reader raising its nodes would need cards it does not draw). Returns the kept ones and a
/// sentence naming those left out, if any.
///
/// ```
/// use ratelimit_playground::present::share::frame::{fit_controls, EmbedControl};
/// let (kept, why) = fit_controls(&[EmbedControl::Nodes, EmbedControl::Rate], false);
/// assert_eq!(kept, [EmbedControl::Rate]);
/// assert!(why.unwrap().starts_with("'nodes' is a multi-node widget's control"));
/// assert_eq!(fit_controls(&[EmbedControl::Store], true), (vec![EmbedControl::Store], None));
/// ```
pub fn fit_controls(controls: &[EmbedControl], multi_node: bool) -> (Vec<EmbedControl>, Option<String>) {
    let (kept, out): (Vec<EmbedControl>, Vec<EmbedControl>) =
        controls.iter().partition(|c| multi_node || !c.multi_node());
    let why = (!out.is_empty()).then(|| {
        let names: Vec<String> = out.iter().map(|c| format!("'{}'", c.key())).collect();
        let (noun, verb) = if out.len() == 1 { ("control", "is") } else { ("controls", "are") };
        format!(
            "{} {verb} a multi-node widget's {noun} and this scenario runs one node (set nodes=2 or more); not shown",
            names.join(", ")
        )
    });
    (kept, why)
}

/// The keys that open the full page on the moment `at`, paused or playing (`&t=12.5&autoplay=0`):
/// what an embed's "Open in the playground ↗" adds to its link. A moment past
/// [`MAX_MOMENT_SECS`] opens on that.
///
/// ```
/// use ratelimit_playground::present::share::frame::moment_keys;
/// use ratelimit_playground::sim::Nanos;
/// assert_eq!(moment_keys(Nanos(12_345_678_901), false), "&t=12.345&autoplay=0");
/// assert_eq!(moment_keys(Nanos(3_000_000_000), true), "&t=3");
/// assert_eq!(moment_keys(Nanos(0), false), "&autoplay=0");
/// ```
pub fn moment_keys(at: Nanos, playing: bool) -> String {
    let at = Nanos(at.as_nanos().min(MAX_MOMENT_SECS * 1_000_000_000));
    Frame { at, autoplay: playing, ..Frame::default() }.query()
}

/// `1`/`true` or `0`/`false`.
pub(super) fn flag(value: &str) -> Option<bool> {
    match value {
        "1" | "true" => Some(true),
        "0" | "false" => Some(false),
        _ => None,
    }
}

impl Frame {
    /// Reads one of its keys (`controls`, `show`, `t`, `autoplay`, `caption`, `theme`), adding a
    /// problem for what it could not use as given.
    pub(super) fn read(&mut self, key: &str, value: &str, problems: &mut impl Problems) {
        match key {
            "show" => {
                let (cards, unknown) = read_cards(value);
                self.cards = cards;
                if !unknown.is_empty() {
                    problems.add(|| Problem::new(key, unknown_cards(&unknown), Used::Ignored));
                }
            }
            "t" => {
                let moment = |late| Kind::Moment { value: value.to_string(), max: MAX_MOMENT_SECS, late };
                match crate::sim::support::nearest::nearest_f64(value).ok_or(()) {
                    Ok(t) if t.is_finite() && t >= 0.0 => {
                        let max = MAX_MOMENT_SECS as f64;
                        if t > max {
                            problems.add(|| Problem::new(key, moment(true), Used::Nearest));
                        }
                        self.at = Nanos((t.min(max) * 1000.0).round() as u64 * 1_000_000);
                    }
                    _ => problems.add(|| Problem::new(key, moment(false), Used::Nearest)),
                }
            }
            "autoplay" => match flag(value) {
                Some(on) => self.autoplay = on,
                None => problems.add(|| Problem::new(key, Kind::NotAFlag { value: value.to_string() }, Used::Ignored)),
            },
            "caption" => {
                let clean: String = value.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
                let clean = clean.trim();
                if clean.chars().count() > MAX_CAPTION {
                    problems.add(|| Problem::new(key, Kind::TooLong { max: MAX_CAPTION }, Used::Nearest));
                }
                self.caption = clean.chars().take(MAX_CAPTION).collect();
            }
            "theme" => match THEMES.iter().find(|(_, k)| *k == value) {
                Some(&(t, _)) => self.theme = t,
                None => problems.add(|| {
                    let names = THEMES.iter().map(|(_, k)| *k).collect();
                    Problem::new(key, Kind::NotOneOf { value: value.to_string(), names }, Used::Ignored)
                }),
            },
            _ => {
                let controls = &mut self.controls;
                let mut unknown = Vec::new();
                for name in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    match EMBED_CONTROLS.iter().find(|(_, k)| *k == name) {
                        Some(&(c, _)) if !controls.contains(&c) => controls.push(c),
                        Some(_) => {}
                        None => unknown.push(name),
                    }
                }
                if !unknown.is_empty() {
                    problems.add(|| {
                        let items = unknown.iter().map(|n| n.to_string()).collect();
                        let known = EMBED_CONTROLS.iter().map(|(_, k)| *k).collect();
                        Problem::new(key, Kind::UnknownItems { items, item: "control", known }, Used::Ignored)
                    });
                }
                // In EMBED_CONTROLS' order (a filter, not a sort: a sort would bring a sort routine
                // of its own into every first module).
                *controls = EMBED_CONTROLS.iter().map(|&(c, _)| c).filter(|c| controls.contains(c)).collect();
            }
        }
    }

    /// Its keys that differ from an embed's defaults, each as `&key=value`.
    pub(super) fn query(&self) -> String {
        let mut q = String::new();
        if !self.controls.is_empty() {
            let names: Vec<&str> = self.controls.iter().map(|c| c.key()).collect();
            q.push_str(&format!("&controls={}", names.join(",")));
        }
        if !self.cards.is_empty() {
            q.push_str(&format!("&show={}", cards_value(&self.cards)));
        }
        if self.at.as_nanos() >= 1_000_000 {
            q.push_str(&format!("&t={}", seconds_text(self.at)));
        }
        if !self.autoplay {
            q.push_str("&autoplay=0");
        }
        if !self.caption.is_empty() {
            q.push_str(&format!("&caption={}", encode(&self.caption)));
        }
        if self.theme != Theme::Auto {
            q.push_str(&format!("&theme={}", self.theme.key()));
        }
        q
    }
}
