//! The page's address as typed state: the scenario in the engine's query format (the same keys
//! as the CLI) plus the app keys the engine does not know: `view`, and for an embed `embed`,
//! `controls`, `show`, `t`, `autoplay`, `caption` and `theme` ([`Frame`]). [`Link::parse`] reads an address leniently, naming every parameter it changed or ignored;
//! [`share_query`] and [`embed_query`] write the state back with the same code, so a link round
//! trips exactly. Plain Rust, tested natively.

use super::cards::{cards_value, parse_cards, Card};
use crate::sim::query::{percent_decode, KEYS};
use crate::sim::{Nanos, ParamError, Scenario, TrafficShape};

/// The keys the app reads besides the scenario's.
pub const APP_KEYS: [&str; 8] = ["view", "embed", "controls", "show", "t", "autoplay", "caption", "theme"];

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
    /// The cards shown, in the author's order (empty: [`super::cards::DEFAULT_CARDS`]).
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

/// What the page shows, as the `view` key spells it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LinkView {
    /// One algorithm (`view` absent, or `view=single`).
    #[default]
    Single,
    /// All five side by side (`view=compare`).
    Compare,
    /// The multi-node view (`view=cluster`).
    Cluster,
}

/// `view` values, in the order listed in notices.
const VIEWS: [(&str, LinkView); 3] =
    [("single", LinkView::Single), ("compare", LinkView::Compare), ("cluster", LinkView::Cluster)];

/// A control an embed can show (`controls=rate,capacity`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbedControl {
    /// The algorithm select.
    Algo,
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
pub const EMBED_CONTROLS: [(EmbedControl, &str); 9] = [
    (EmbedControl::Algo, "algo"),
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
    /// use ratelimit_playground::app::share::link::EmbedControl;
    /// assert_eq!(EmbedControl::Rate.key(), "rate");
    /// ```
    pub fn key(self) -> &'static str {
        EMBED_CONTROLS.iter().find(|(c, _)| *c == self).map_or("", |(_, k)| k)
    }
}

/// Everything an address says.
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// The scenario to run: valid, whatever the address held.
    pub scenario: Scenario,
    /// What to show.
    pub view: LinkView,
    /// Whether to show the compact embed layout.
    pub embed: bool,
    /// What an embed shows.
    pub frame: Frame,
    /// Every parameter that was not used as given, each naming its key.
    pub notices: Vec<ParamError>,
}

fn notice(param: &str, message: impl Into<String>) -> ParamError {
    ParamError { param: param.to_string(), message: message.into() }
}

/// The app keys of one address, before the scenario is read.
#[derive(Default)]
struct AppKeys {
    view: LinkView,
    embed: bool,
    frame: Frame,
}

impl AppKeys {
    fn read(&mut self, key: &str, value: &str, notices: &mut Vec<ParamError>) {
        match key {
            "view" => match VIEWS.iter().find(|(name, _)| *name == value) {
                Some(&(_, v)) => self.view = v,
                None => {
                    notices.push(notice(key, format!("'{value}' is not one of single | compare | cluster; ignored")))
                }
            },
            "embed" => match value {
                "1" | "true" => self.embed = true,
                "0" | "false" => self.embed = false,
                _ => notices.push(notice(key, format!("'{value}' is not 0 or 1; ignored"))),
            },
            "show" => {
                let (cards, error) = parse_cards(value);
                self.frame.cards = cards;
                if let Some(e) = error {
                    notices.push(notice(key, e));
                }
            }
            "t" => match value.parse::<f64>() {
                Ok(t) if t.is_finite() && t >= 0.0 => {
                    let max = MAX_MOMENT_SECS as f64;
                    if t > max {
                        notices.push(notice(
                            key,
                            format!(
                                "{value} s is past the latest moment, {MAX_MOMENT_SECS} s; using {MAX_MOMENT_SECS}"
                            ),
                        ));
                    }
                    self.frame.at = Nanos((t.min(max) * 1000.0).round() as u64 * 1_000_000);
                }
                _ => notices.push(notice(
                    key,
                    format!("'{value}' is not a time in seconds from 0 to {MAX_MOMENT_SECS}; opening at 0"),
                )),
            },
            "autoplay" => match value {
                "1" | "true" => self.frame.autoplay = true,
                "0" | "false" => self.frame.autoplay = false,
                _ => notices.push(notice(key, format!("'{value}' is not 0 or 1; ignored"))),
            },
            "caption" => {
                let clean: String = value.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
                let clean = clean.trim();
                if clean.chars().count() > MAX_CAPTION {
                    notices.push(notice(key, format!("is longer than {MAX_CAPTION} characters; cut there")));
                }
                self.frame.caption = clean.chars().take(MAX_CAPTION).collect();
            }
            "theme" => match THEMES.iter().find(|(_, k)| *k == value) {
                Some(&(t, _)) => self.frame.theme = t,
                None => notices.push(notice(key, format!("'{value}' is not one of auto | light | dark; ignored"))),
            },
            _ => {
                let controls = &mut self.frame.controls;
                let mut unknown = Vec::new();
                for name in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    match EMBED_CONTROLS.iter().find(|(_, k)| *k == name) {
                        Some(&(c, _)) if !controls.contains(&c) => controls.push(c),
                        Some(_) => {}
                        None => unknown.push(format!("'{name}'")),
                    }
                }
                if !unknown.is_empty() {
                    let known: Vec<&str> = EMBED_CONTROLS.iter().map(|(_, k)| *k).collect();
                    let what = if unknown.len() == 1 { "is not a control" } else { "are not controls" };
                    notices.push(notice(
                        key,
                        format!("{} {what}; known: {}; ignored", unknown.join(", "), known.join(", ")),
                    ));
                }
                controls.sort_by_key(|c| EMBED_CONTROLS.iter().position(|(e, _)| e == c));
            }
        }
    }
}

impl Link {
    /// Reads an address's query (with or without the leading `?`). Without any scenario key the
    /// page opens on `base`; with some, the scenario is read exactly as the CLI reads it
    /// (missing keys take the engine's defaults), except that problems are clamped or ignored and
    /// reported. A `traffic=trace` link cannot carry its trace: it opens on constant traffic.
    ///
    /// ```
    /// use ratelimit_playground::app::share::link::{Link, LinkView};
    /// use ratelimit_playground::sim::Scenario;
    /// let link = Link::parse("?algo=gcra&view=compare&nodes=99&bogus=1", &Scenario::default());
    /// assert_eq!(link.view, LinkView::Compare);
    /// assert_eq!(link.scenario.nodes, 16);
    /// let named: Vec<&str> = link.notices.iter().map(|n| n.param.as_str()).collect();
    /// assert_eq!(named, ["bogus", "nodes"]);
    /// ```
    pub fn parse(query: &str, base: &Scenario) -> Link {
        let query = query.strip_prefix('?').unwrap_or(query);
        let mut notices = Vec::new();
        let mut app = AppKeys::default();
        let mut seen: Vec<String> = Vec::new();
        let mut scenario_pairs = Vec::new();
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let key = percent_decode(k);
            if KEYS.contains(&key.as_str()) {
                scenario_pairs.push(pair);
            } else if APP_KEYS.contains(&key.as_str()) {
                if seen.contains(&key) {
                    notices.push(notice(&key, "is given more than once; the last value is used"));
                }
                seen.push(key.clone());
                app.read(&key, &percent_decode(v), &mut notices);
            } else {
                notices.push(notice(&key, "is not a known parameter (see the query keys in the README); ignored"));
            }
        }
        let scenario = if scenario_pairs.is_empty() {
            base.clone()
        } else {
            let (sc, engine_notices) = Scenario::from_query_lenient(&scenario_pairs.join("&"));
            // A trace link gets one notice of ours (in `usable`) instead of the engine's.
            let trace_without_times = sc.traffic == TrafficShape::Trace && sc.trace.is_none();
            notices.extend(
                engine_notices
                    .into_iter()
                    .filter(|n| !(trace_without_times && n.param == "traffic" && n.message.contains("trace"))),
            );
            sc
        };
        let scenario = usable(scenario, base, &mut notices);
        Link { scenario, view: app.view, embed: app.embed, frame: app.frame, notices }
    }
}

/// The scenario made runnable: a trace the link cannot carry becomes constant traffic, and
/// anything the engine still refuses falls back to `base`.
fn usable(mut sc: Scenario, base: &Scenario, notices: &mut Vec<ParamError>) -> Scenario {
    if sc.traffic == TrafficShape::Trace && sc.trace.is_none() {
        sc.traffic = TrafficShape::Constant;
        notices.push(notice(
            "traffic",
            "a replayed trace is not part of a link (its arrival times are not in the address): showing constant \
             traffic; paste the trace again under Traffic → Replay my traffic",
        ));
    }
    match sc.validate() {
        Ok(()) => sc,
        Err(e) => {
            notices.push(notice(&e.param, format!("{}; the page's starting scenario is used", e.message)));
            base.clone()
        }
    }
}

/// The scenario keys of a link: every key that differs from the engine's default, and always
/// `rate` (the page opens on another rate than the CLI's default, so a link states it).
///
/// ```
/// use ratelimit_playground::app::share::link::scenario_query;
/// use ratelimit_playground::sim::Scenario;
/// assert_eq!(scenario_query(&Scenario::default()), "rate=4");
/// let sc = Scenario::from_query("seed=7&algo=gcra").unwrap();
/// assert_eq!(scenario_query(&sc), "algo=gcra&rate=4&seed=7");
/// ```
pub fn scenario_query(sc: &Scenario) -> String {
    let short = sc.to_query();
    let differs: Vec<&str> = short.split('&').filter_map(|p| p.split('=').next()).collect();
    let full = sc.to_query_full();
    let pairs: Vec<&str> =
        full.split('&').filter(|p| p.split('=').next().is_some_and(|k| k == "rate" || differs.contains(&k))).collect();
    pairs.join("&")
}

/// The query of the full page showing `sc` in `view`.
pub fn share_query(sc: &Scenario, view: LinkView) -> String {
    let mut q = scenario_query(sc);
    if let Some((name, _)) = VIEWS.iter().find(|(_, v)| *v == view && view != LinkView::Single) {
        q.push_str(&format!("&view={name}"));
    }
    q
}

/// The query of an embed of `sc` in `view` as `frame` says: only the keys that differ from an
/// embed's defaults.
///
/// ```
/// use ratelimit_playground::app::share::link::{embed_query, EmbedControl, Frame, LinkView};
/// use ratelimit_playground::sim::Scenario;
/// let frame = Frame { controls: vec![EmbedControl::Rate, EmbedControl::Capacity], ..Frame::default() };
/// let q = embed_query(&Scenario::default(), LinkView::Single, &frame);
/// assert_eq!(q, "rate=4&embed=1&controls=rate,capacity");
/// ```
pub fn embed_query(sc: &Scenario, view: LinkView, frame: &Frame) -> String {
    let mut q = share_query(sc, view);
    q.push_str("&embed=1");
    if !frame.controls.is_empty() {
        let names: Vec<&str> = frame.controls.iter().map(|c| c.key()).collect();
        q.push_str(&format!("&controls={}", names.join(",")));
    }
    if !frame.cards.is_empty() {
        q.push_str(&format!("&show={}", cards_value(&frame.cards)));
    }
    if frame.at.as_nanos() >= 1_000_000 {
        q.push_str(&format!("&t={}", seconds_text(frame.at)));
    }
    if !frame.autoplay {
        q.push_str("&autoplay=0");
    }
    if !frame.caption.is_empty() {
        q.push_str(&format!("&caption={}", encode(&frame.caption)));
    }
    if frame.theme != Theme::Auto {
        q.push_str(&format!("&theme={}", frame.theme.key()));
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Algorithm, Rate};

    fn page_start() -> Scenario {
        Scenario { rate: Rate::per_sec(8), ..Scenario::default() }
    }

    #[test]
    fn an_address_without_scenario_keys_opens_the_pages_own_scenario() {
        for q in ["", "?", "?view=compare", "embed=1&controls=rate"] {
            let link = Link::parse(q, &page_start());
            assert_eq!(link.scenario, page_start(), "{q}");
            assert!(link.notices.is_empty(), "{q}: {:?}", link.notices);
        }
    }

    #[test]
    fn every_link_written_reads_back_to_the_same_state() {
        let queries = [
            "",
            "algo=gcra&rate=12&seed=42&traffic=poisson",
            "algo=sliding_window&limit=7&window=1.5&rate=0.25&retry=jitter&headroom=5",
            "capacity=3&refill=0.5&count_rejected=1&traffic=bursts&burst_on=0.2&burst_off=3",
            "nodes=4&store=race&rtt=5&outage=10-20&fail=closed",
            "rate=4",
        ];
        for q in queries {
            for view in [LinkView::Single, LinkView::Compare, LinkView::Cluster] {
                let first = Link::parse(q, &page_start());
                let written = share_query(&first.scenario, view);
                let again = Link::parse(&written, &page_start());
                assert_eq!(again.scenario, first.scenario, "{q} → {written}");
                assert_eq!(again.view, view, "{written}");
                assert!(again.notices.is_empty(), "{written}: {:?}", again.notices);
            }
        }
    }

    #[test]
    fn the_pages_starting_rate_survives_a_round_trip() {
        let written = share_query(&page_start(), LinkView::Single);
        assert_eq!(written, "rate=8");
        assert_eq!(Link::parse(&written, &Scenario::default()).scenario, page_start());
    }

    #[test]
    fn bad_parameters_are_clamped_or_ignored_and_each_is_named() {
        let link = Link::parse("?nodes=99&rate=abc&bogus=1&view=sideways&controls=rate,knob&embed=2", &page_start());
        let named: Vec<&str> = link.notices.iter().map(|n| n.param.as_str()).collect();
        assert_eq!(named, ["bogus", "view", "controls", "embed", "nodes", "rate"]);
        assert_eq!(link.scenario.nodes, 16);
        assert_eq!(link.scenario.rate, Scenario::default().rate, "a bad rate takes the engine default");
        assert_eq!(link.frame.controls, [EmbedControl::Rate]);
        assert!(!link.embed);
        let controls = &link.notices[2].to_string();
        assert!(controls.starts_with("controls: 'knob' is not a control; known: algo, capacity"), "{controls}");
        assert!(link.notices[4].to_string().contains("using 16"), "{}", link.notices[4]);
    }

    #[test]
    fn a_trace_link_opens_on_constant_traffic_and_says_why() {
        let link = Link::parse("traffic=trace&algo=fixed_window", &page_start());
        assert_eq!(link.scenario.traffic, TrafficShape::Constant);
        assert_eq!(link.scenario.algo, Algorithm::FixedWindow);
        assert_eq!(link.notices.len(), 1, "{:?}", link.notices);
        assert_eq!(link.notices[0].param, "traffic");
        assert!(link.notices[0].message.contains("trace is not part of a link"));
    }

    #[test]
    fn embed_keys_are_read_decoded_and_in_a_fixed_order() {
        let link = Link::parse("embed=1&controls=capacity%2Crate%2Ccapacity&rate=3", &page_start());
        assert!(link.embed);
        assert_eq!(link.frame.controls, [EmbedControl::Capacity, EmbedControl::Rate]);
        assert_eq!(link.scenario.rate, Rate::per_sec(3));
        let q = embed_query(&link.scenario, LinkView::Single, &link.frame);
        assert_eq!(q, "rate=3&embed=1&controls=capacity,rate");
        assert_eq!(Link::parse(&q, &page_start()).frame, link.frame);
    }

    #[test]
    fn an_embeds_cards_moment_caption_and_theme_round_trip() {
        let frame = Frame {
            controls: vec![EmbedControl::Rate],
            cards: vec![Card::Strip, Card::Throughput, Card::Compare],
            at: Nanos::from_millis(12_500),
            autoplay: false,
            caption: "100/min let 200 through: <b>why</b> & how?".into(),
            theme: Theme::Dark,
        };
        let q = embed_query(&page_start(), LinkView::Single, &frame);
        assert!(q.contains("&show=strip,throughput,compare&t=12.5&autoplay=0&caption=100%2Fmin%20let"), "{q}");
        assert!(q.ends_with("&theme=dark"), "{q}");
        let link = Link::parse(&q, &page_start());
        assert_eq!(link.frame, frame);
        assert!(link.notices.is_empty(), "{:?}", link.notices);
    }

    #[test]
    fn bad_embed_keys_are_named_with_their_allowed_values() {
        let long = "x".repeat(MAX_CAPTION + 5);
        let q = format!("show=state,chart&t=-3&autoplay=maybe&theme=sepia&caption={long}");
        let link = Link::parse(&q, &page_start());
        let messages: Vec<String> = link.notices.iter().map(|n| n.to_string()).collect();
        assert!(messages[0].starts_with("show: 'chart' is not a card; known: throughput, state"), "{messages:?}");
        assert!(messages[1].contains("not a time in seconds from 0 to 600"), "{messages:?}");
        assert!(messages[2].starts_with("autoplay: 'maybe' is not 0 or 1"), "{messages:?}");
        assert!(messages[3].starts_with("theme: 'sepia' is not one of auto | light | dark"), "{messages:?}");
        assert!(messages[4].starts_with("caption: is longer than 200"), "{messages:?}");
        assert_eq!(link.frame.cards, [Card::State]);
        assert_eq!(link.frame.caption.chars().count(), MAX_CAPTION);
        assert_eq!(Link::parse("t=9999", &page_start()).frame.at, Nanos::from_secs(MAX_MOMENT_SECS));
        assert_eq!(Link::parse("caption=a%0Ab", &page_start()).frame.caption, "a b");
    }

    #[test]
    fn repeated_app_keys_are_named() {
        let link = Link::parse("view=compare&view=single", &page_start());
        assert_eq!(link.view, LinkView::Single);
        assert_eq!(link.notices.len(), 1);
        assert_eq!(link.notices[0].param, "view");
    }
}
