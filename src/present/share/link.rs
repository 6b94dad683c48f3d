//! The page's address as typed state: the scenario in the engine's query format (the same keys
//! as the CLI) plus the app keys the engine does not know: `view`, and for an embed `embed`,
//! `controls`, `show`, `t`, `autoplay`, `caption` and `theme` ([`Frame`], in `frame.rs`).
//! [`Link::parse`] reads an address leniently, naming every parameter it changed or ignored (the
//! first modules' readers, which refuse instead, are in `plain_link.rs`);
//! [`share_query`] and [`embed_query`] write the state back with the same code, so a link round
//! trips exactly. Plain Rust, tested natively.

use crate::present::share::frame::{flag, notice};
pub use crate::present::share::frame::{
    EmbedControl, Frame, Theme, EMBED_CONTROLS, MAX_CAPTION, MAX_MOMENT_SECS, THEMES,
};
use crate::sim::query::{percent_decode, KEYS};
use crate::sim::{ParamError, Scenario, TrafficShape};

/// The keys the app reads besides the scenario's.
pub const APP_KEYS: [&str; 8] = ["view", "embed", "controls", "show", "t", "autoplay", "caption", "theme"];

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

impl LinkView {
    /// The `view` value naming it.
    ///
    /// ```
    /// use ratelimit_playground::present::share::link::LinkView;
    /// assert_eq!(LinkView::Cluster.key(), "cluster");
    /// assert_eq!(LinkView::from_key("compare"), Some(LinkView::Compare));
    /// assert_eq!(LinkView::from_key("grid"), None);
    /// ```
    pub fn key(self) -> &'static str {
        VIEWS.iter().find(|(_, v)| *v == self).map_or("single", |(name, _)| name)
    }

    /// The view a `view` value names, if any.
    pub fn from_key(key: &str) -> Option<LinkView> {
        VIEWS.iter().find(|(name, _)| *name == key).map(|&(_, v)| v)
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
            "view" => match LinkView::from_key(value) {
                Some(v) => self.view = v,
                None => {
                    notices.push(notice(key, format!("'{value}' is not one of single | compare | cluster; ignored")))
                }
            },
            "embed" => match flag(value) {
                Some(on) => self.embed = on,
                None => notices.push(notice(key, format!("'{value}' is not 0 or 1; ignored"))),
            },
            _ => self.frame.read(key, value, notices),
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
    /// use ratelimit_playground::present::share::link::{Link, LinkView};
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
                    .filter(|n| !(trace_without_times && n.message == crate::sim::query::TRACE_WITHOUT_TIMES)),
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
/// use ratelimit_playground::present::share::link::scenario_query;
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
    if view != LinkView::Single {
        q.push_str(&format!("&view={}", view.key()));
    }
    q
}

/// The query of an embed of `sc` in `view` as `frame` says: only the keys that differ from an
/// embed's defaults.
///
/// ```
/// use ratelimit_playground::present::share::link::{embed_query, EmbedControl, Frame, LinkView};
/// use ratelimit_playground::sim::Scenario;
/// let frame = Frame { controls: vec![EmbedControl::Rate, EmbedControl::Capacity], ..Frame::default() };
/// let q = embed_query(&Scenario::default(), LinkView::Single, &frame);
/// assert_eq!(q, "rate=4&embed=1&controls=rate,capacity");
/// ```
pub fn embed_query(sc: &Scenario, view: LinkView, frame: &Frame) -> String {
    let mut q = share_query(sc, view);
    q.push_str("&embed=1");
    q.push_str(&frame.query());
    q
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::share::cards::Card;
    use crate::sim::Nanos;
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
                let plain = Link::parse_plain(&written, &page_start());
                assert_eq!(plain, (view == LinkView::Single).then_some(again), "{written}");
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
    fn a_moment_is_read_as_a_plain_decimal_and_anything_else_gets_a_notice() {
        let at = |t: &str| {
            let link = Link::parse(&format!("embed=1&t={t}"), &page_start());
            (link.frame.at, link.notices.iter().map(|n| n.to_string()).collect::<Vec<_>>())
        };
        assert_eq!(at("12.25"), (Nanos::from_millis(12_250), vec![]));
        for bad in ["1e3", "inf", "NaN", "12.5.1", "0x10", "1,5"] {
            let (moment, notices) = at(bad);
            assert_eq!(moment, Nanos(0), "t={bad}");
            assert!(notices[0].contains(&format!("'{bad}' is not a time in seconds from 0 to 600")), "{notices:?}");
        }
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
