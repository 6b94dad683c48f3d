//! The page's address as typed state: the scenario in the engine's query format (the same keys
//! as the CLI) plus the app keys the engine does not know: `view`, for an embed `embed`,
//! `controls`, `show`, `t`, `autoplay`, `caption` and `theme` ([`Frame`], in `frame.rs`), and for
//! the learner's tour `tour` and `step` ([`crate::present::tour`]).
//! [`Link::read`] reads an address (in `read_link.rs`); [`share_query`] and [`embed_query`] write
//! the state back with the same keys, so a link round trips exactly. Plain Rust, tested natively.

pub use crate::present::share::frame::{
    EmbedControl, Frame, Theme, EMBED_CONTROLS, MAX_CAPTION, MAX_MOMENT_SECS, THEMES,
};
use crate::sim::Scenario;

/// The keys the app reads besides the scenario's.
pub const APP_KEYS: [&str; 10] =
    ["view", "embed", "controls", "show", "t", "autoplay", "caption", "theme", "tour", "step"];

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
pub(super) const VIEWS: [(&str, LinkView); 3] =
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
    /// The step of the learner's tour the link opens (from 1), if it opens the tour: its
    /// scenario is then the step's.
    pub tour: Option<usize>,
}

/// The query of the learner's tour at `step` (from 1).
///
/// ```
/// use ratelimit_playground::present::share::link::tour_query;
/// assert_eq!(tour_query(3), "tour=path&step=3");
/// ```
pub fn tour_query(step: usize) -> String {
    format!("tour={}&step={step}", crate::present::tour::NAME)
}

/// The scenario keys of a link: every key that differs from the engine's default, and always
/// `rate`, the one number every run is about (and so every link made before the page and the
/// engine shared their default rate opens as it did).
///
/// ```
/// use ratelimit_playground::present::share::link::scenario_query;
/// use ratelimit_playground::sim::Scenario;
/// assert_eq!(scenario_query(&Scenario::default()), "rate=8");
/// let sc = Scenario::from_query("seed=7&algo=gcra").unwrap();
/// assert_eq!(scenario_query(&sc), "algo=gcra&rate=8&seed=7");
/// ```
pub fn scenario_query(sc: &Scenario) -> String {
    sc.to_query_with("rate")
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
/// assert_eq!(q, "rate=8&embed=1&controls=rate,capacity");
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
    use crate::sim::Rate;

    fn page_start() -> Scenario {
        Scenario { rate: Rate::per_sec(8), ..Scenario::default() }
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
                let (first, _) = Link::read(q, &page_start());
                let written = share_query(&first.scenario, view);
                let (again, again_problems) = Link::read(&written, &page_start());
                assert_eq!(again.scenario, first.scenario, "{q} → {written}");
                assert_eq!(again.view, view, "{written}");
                assert!(again_problems.is_empty(), "{written}: {:?}", again_problems);
                // The page's first module reads it if it is the page and runs its scenario.
                let page = crate::present::modules::PAGE;
                let plain = Link::read_page(&written, &page_start(), page);
                let runs = page.check(&again.scenario).is_ok();
                assert_eq!(plain, (view == LinkView::Single && runs).then_some(again), "{written}");
            }
        }
    }

    #[test]
    fn the_pages_starting_rate_survives_a_round_trip() {
        let written = share_query(&page_start(), LinkView::Single);
        assert_eq!(written, "rate=8");
        assert_eq!(Link::read(&written, &Scenario::default()).0.scenario, page_start());
    }

    #[test]
    fn embed_keys_are_read_decoded_and_in_a_fixed_order() {
        let (link, _) = Link::read("embed=1&controls=capacity%2Crate%2Ccapacity&rate=3", &page_start());
        assert!(link.embed);
        assert_eq!(link.frame.controls, [EmbedControl::Capacity, EmbedControl::Rate]);
        assert_eq!(link.scenario.rate, Rate::per_sec(3));
        let q = embed_query(&link.scenario, LinkView::Single, &link.frame);
        assert_eq!(q, "rate=3&embed=1&controls=capacity,rate");
        assert_eq!(Link::read(&q, &page_start()).0.frame, link.frame);
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
        let (link, problems) = Link::read(&q, &page_start());
        assert_eq!(link.frame, frame);
        assert!(problems.is_empty(), "{:?}", problems);
    }
}
