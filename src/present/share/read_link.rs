//! Reading an address into a [`Link`]: [`Link::read`] (the whole page's) reads it leniently,
//! with a [`Problem`] for every parameter it changed or ignored; the first modules'
//! [`Link::read_page`] and [`Link::read_frame`] are the same reader through [`Clean`], refusing
//! any address with a problem instead and making none. The scenario's keys and the app's are
//! read in one pass ([`read_query`]). Plain Rust, tested natively and by `tests/fuzz_query.rs`.

use crate::present::share::frame::{flag, Frame};
use crate::present::share::link::{Link, LinkView, APP_KEYS, VIEWS};
use crate::present::tour::{step, NAME, STEPS};
use crate::sim::query::{is_key, read_query, Clean, Kind, NumberWhy, OtherKeys, Problem, Problems, Range, Used};
use crate::sim::support::decimal::DecimalError;
use crate::sim::{Capabilities, Scenario, TrafficShape};

/// The app keys a reader of links knows, read in the same pass as the scenario's
/// ([`read_query`]): all of them ([`AppKeys`]), or only `view` ([`PageKeys`], the page's first
/// module, which hands any embed link to another).
trait LinkKeys<P: Problems>: OtherKeys<P> + Default {
    /// What they said: the view, whether it is an embed, what the embed shows, and the tour's
    /// step.
    fn into_parts(self) -> (LinkView, bool, Frame, Option<usize>);
}

/// Every app key.
#[derive(Default)]
struct AppKeys {
    view: LinkView,
    embed: bool,
    frame: Frame,
    /// `tour=path` was given.
    tour: bool,
    /// `step`, as read (from 1).
    step: Option<usize>,
}

/// The steps a `step` may name: 1 to the tour's length.
const STEP_RANGE: Range = Range { min: 1, max: STEPS.len() as u64, digits: 0, unit: "" };

/// Reads `step`: a whole number from 1 to the tour's length, clamped into it; anything else is
/// ignored (the tour opens at its first step).
fn read_step(value: &str, problems: &mut impl Problems) -> Option<usize> {
    let number = |why| Kind::Number { value: value.to_string(), why, range: STEP_RANGE };
    match value.parse::<u64>() {
        Ok(n) => {
            let used = n.clamp(STEP_RANGE.min, STEP_RANGE.max);
            if used != n {
                problems.add(|| {
                    Problem::new("step", number(NumberWhy::OutOfRange), Used::Value { value: used, digits: 0 })
                });
            }
            Some(used as usize)
        }
        Err(_) => {
            problems.add(|| {
                let decimal = !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit() || b == b'.');
                let why = if decimal { DecimalError::TooPrecise(0) } else { DecimalError::NotANumber };
                Problem::new("step", number(NumberWhy::Unreadable(why)), Used::Ignored)
            });
            None
        }
    }
}

/// Reads `view`.
fn read_view(view: &mut LinkView, value: &str, problems: &mut impl Problems) {
    match LinkView::from_key(value) {
        Some(v) => *view = v,
        None => problems.add(|| {
            let names = VIEWS.iter().map(|(name, _)| *name).collect();
            Problem::new("view", Kind::NotOneOf { value: value.to_string(), names }, Used::Ignored)
        }),
    }
}

impl<P: Problems> OtherKeys<P> for AppKeys {
    fn knows(&self, key: &str) -> bool {
        APP_KEYS.contains(&key)
    }

    fn read(&mut self, key: &str, value: &str, problems: &mut P) {
        match key {
            "view" => read_view(&mut self.view, value, problems),
            "embed" => match flag(value) {
                Some(on) => self.embed = on,
                None => problems.add(|| Problem::new(key, Kind::NotAFlag { value: value.to_string() }, Used::Ignored)),
            },
            "tour" if value == NAME => self.tour = true,
            "tour" => problems.add(|| {
                Problem::new(key, Kind::NotOneOf { value: value.to_string(), names: vec![NAME] }, Used::Ignored)
            }),
            "step" => self.step = read_step(value, problems).or(self.step),
            _ => self.frame.read(key, value, problems),
        }
    }
}

impl<P: Problems> LinkKeys<P> for AppKeys {
    fn into_parts(self) -> (LinkView, bool, Frame, Option<usize>) {
        // A step opens the tour even without `tour=path`: there is one tour.
        let tour = (self.tour || self.step.is_some()).then(|| self.step.unwrap_or(1));
        (self.view, self.embed, self.frame, tour)
    }
}

/// `view` alone: an embed's keys are unknown to it.
#[derive(Default)]
struct PageKeys(LinkView);

impl<P: Problems> OtherKeys<P> for PageKeys {
    fn knows(&self, key: &str) -> bool {
        key == "view"
    }

    fn read(&mut self, _: &str, value: &str, problems: &mut P) {
        read_view(&mut self.0, value, problems);
    }
}

impl<P: Problems> LinkKeys<P> for PageKeys {
    fn into_parts(self) -> (LinkView, bool, Frame, Option<usize>) {
        (self.0, false, Frame::default(), None)
    }
}

impl Link {
    /// Reads an address's query (with or without the leading `?`). Without any scenario key the
    /// page opens on `base`; with some, the scenario is read exactly as the CLI reads it
    /// (missing keys take the engine's defaults), except that problems are clamped or ignored and
    /// reported: every parameter that was not used as given, the app keys' and unknown keys'
    /// first, then the scenario's, each in the address's order. A `traffic=trace` link cannot
    /// carry its trace: it opens on constant traffic.
    ///
    /// ```
    /// use ratelimit_playground::present::share::link::{Link, LinkView};
    /// use ratelimit_playground::sim::Scenario;
    /// let (link, problems) = Link::read("?algo=gcra&view=compare&nodes=99&bogus=1", &Scenario::default());
    /// assert_eq!(link.view, LinkView::Compare);
    /// assert_eq!(link.scenario.nodes, 16);
    /// let named: Vec<&str> = problems.iter().map(|p| p.key.as_str()).collect();
    /// assert_eq!(named, ["bogus", "nodes"]);
    /// ```
    pub fn read(query: &str, base: &Scenario) -> (Link, Vec<Problem>) {
        let mut problems = Vec::new();
        let (scenario, view, embed, frame, tour) = read_link::<_, AppKeys>(query, &mut problems);
        // The app's keys' and unknown keys' problems first, then the scenario's, as the notice
        // has always listed them (a partition: a stable sort would bring a sort routine).
        let (scenario_keys, mut problems): (Vec<Problem>, Vec<Problem>) =
            problems.into_iter().partition(|p| is_key(&p.key));
        problems.extend(scenario_keys);
        let scenario = match (scenario, tour.and_then(step)) {
            // A tour's step sets the scenario (not an embed's: a frame shows no tour).
            (_, Some(step)) if !embed => step.scenario(),
            (None, _) => base.clone(),
            (Some(mut sc), _) => {
                if let Some(p) = problems.iter_mut().find(|p| p.kind == Kind::TraceWithoutTimes) {
                    sc.traffic = TrafficShape::Constant;
                    p.used = Used::Constant;
                }
                // A rate the link could not give takes the page's (which is why every link
                // states `rate`: the page's differs from the engine's default).
                if let Some(p) = problems.iter_mut().find(|p| p.key == "rate" && matches!(p.used, Used::Default(_))) {
                    sc.rate = base.rate;
                    p.used = Used::Default(Some((base.rate.milli(), 3)));
                }
                match sc.check() {
                    None => sc,
                    Some(invalid) => {
                        problems.push(invalid.problem(Used::Base));
                        base.clone()
                    }
                }
            }
        };
        let tour = tour.filter(|_| !embed);
        (Link { scenario, view, embed, frame, tour }, problems)
    }

    /// The address read as [`Link::read`] reads it, only if it has no problem, is the page (not
    /// an embed, not Compare all or the multi-node view) holding no embed key (not even at its
    /// default: `embed=0`), and its scenario runs with `caps`; `None` for anything else, without
    /// saying why. The page's first module reads its address this way and hands any other to the
    /// whole page, whose [`Link::read`] says what it changed: so the first module makes no
    /// [`Problem`] and reads no embed key.
    ///
    /// ```
    /// use ratelimit_playground::present::share::link::Link;
    /// use ratelimit_playground::sim::{Capabilities, Scenario};
    /// let (base, caps) = (Scenario::default(), Capabilities::ONE_LIMITER);
    /// for q in ["", "?algo=gcra&rate=3&view=single", "?nodes=99", "?embed=1", "?view=compare", "?rate=3&rate=4",
    ///           "?algo=nginx", "?workers=4", "?algo=leaky_bucket"] {
    ///     let (full, problems) = Link::read(q, &base);
    ///     let clean = problems.is_empty() && full.view == Default::default() && !full.embed
    ///         && full.frame == Default::default() && caps.check(&full.scenario).is_ok();
    ///     assert_eq!(Link::read_page(q, &base, caps), clean.then_some(full), "{q}");
    /// }
    /// ```
    pub fn read_page(query: &str, base: &Scenario, caps: Capabilities) -> Option<Link> {
        Link::read_clean::<PageKeys>(query, base)
            .filter(|link| link.view == LinkView::Single && caps.check(&link.scenario).is_ok())
    }

    /// The address read as [`Link::read`] reads it, only if it has no problem, is one server's
    /// embed (`embed=1`, no other view) and its scenario runs with `caps`; `None` for anything
    /// else, without saying why.
    /// A frame's first module reads its address this way and hands any other to the whole
    /// page's module, whose [`Link::read`] says what it changed.
    ///
    /// ```
    /// use ratelimit_playground::present::share::link::Link;
    /// use ratelimit_playground::sim::{Capabilities, Scenario};
    /// let (base, caps) = (Scenario::default(), Capabilities::ONE_LIMITER);
    /// for q in ["?embed=1", "?embed=1&algo=envoy", "?embed=1&show=state,throughput&t=30&controls=rate&theme=dark&caption=Hi",
    ///           "?embed=1&algo=gcra&rate=3", "?embed=1&t=9999", "?embed=1&show=bogus", "?embed=1&theme=blue",
    ///           "?embed=1&controls=rate,nope", "?embed=1&autoplay=2", "?embed=1&t=1&t=2", "?embed=1&embed=1",
    ///           "?embed=1&view=compare", "?embed=1&view=single", "?embed=0", "", "?embed=1&nodes=99"] {
    ///     let (full, problems) = Link::read(q, &base);
    ///     let clean = problems.is_empty() && full.view == Default::default() && full.embed
    ///         && caps.check(&full.scenario).is_ok();
    ///     assert_eq!(Link::read_frame(q, &base, caps), clean.then_some(full), "{q}");
    /// }
    /// ```
    pub fn read_frame(query: &str, base: &Scenario, caps: Capabilities) -> Option<Link> {
        Link::read_clean::<AppKeys>(query, base)
            .filter(|link| link.embed && link.view == LinkView::Single && caps.check(&link.scenario).is_ok())
    }

    /// The address read with `K`'s app keys, if it has no problem.
    fn read_clean<K: LinkKeys<Clean>>(query: &str, base: &Scenario) -> Option<Link> {
        let mut clean = Clean::default();
        let (scenario, view, embed, frame, tour) = read_link::<_, K>(query, &mut clean);
        let scenario = scenario.unwrap_or_else(|| base.clone());
        // A clean read is a valid scenario: every number in range, no field against another;
        // and no tour (the readers of clean links draw none; a frame ignores one).
        (clean.is_clean() && (embed || tour.is_none())).then_some(Link { scenario, view, embed, frame, tour: None })
    }
}

/// The one pass over an address: the scenario (if it holds any of its keys) and `K`'s app keys.
#[allow(clippy::type_complexity)]
fn read_link<P: Problems, K: LinkKeys<P>>(
    query: &str,
    problems: &mut P,
) -> (Option<Scenario>, LinkView, bool, Frame, Option<usize>) {
    let mut keys = K::default();
    let scenario = read_query(query, &mut keys, problems);
    let (view, embed, frame, tour) = keys.into_parts();
    (scenario, view, embed, frame, tour)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::share::cards::Card;
    use crate::present::share::link::MAX_CAPTION;
    use crate::present::share::link::{EmbedControl, MAX_MOMENT_SECS};
    use crate::sim::{Algorithm, Nanos, Rate};

    fn page_start() -> Scenario {
        Scenario { rate: Rate::per_sec(8), ..Scenario::default() }
    }

    #[test]
    fn an_address_without_scenario_keys_opens_the_pages_own_scenario() {
        for q in ["", "?", "?view=compare", "embed=1&controls=rate"] {
            let (link, problems) = Link::read(q, &page_start());
            assert_eq!(link.scenario, page_start(), "{q}");
            assert!(problems.is_empty(), "{q}: {:?}", problems);
        }
    }

    #[test]
    fn bad_parameters_are_clamped_or_ignored_and_each_is_named() {
        let (link, problems) =
            Link::read("?nodes=99&rate=abc&bogus=1&view=sideways&controls=rate,knob&embed=2", &page_start());
        let named: Vec<&str> = problems.iter().map(|n| n.key.as_str()).collect();
        assert_eq!(named, ["bogus", "view", "controls", "embed", "nodes", "rate"]);
        assert_eq!(link.scenario.nodes, 16);
        assert_eq!(link.scenario.rate, page_start().rate, "a bad rate takes the page's");
        assert!(problems[5].notice().message.ends_with("; using the default, 8"), "{:?}", problems[5]);
        assert_eq!(link.frame.controls, [EmbedControl::Rate]);
        assert!(!link.embed);
        let controls = &problems[2].notice().to_string();
        assert!(
            controls.starts_with("controls: 'knob' is not a control; known: algo, nodes, store, rtt, capacity"),
            "{controls}"
        );
        assert!(problems[4].notice().message.ends_with("; using 16"), "{:?}", problems[4]);
    }

    #[test]
    fn a_trace_link_opens_on_constant_traffic_and_says_why() {
        let (link, problems) = Link::read("traffic=trace&algo=fixed_window", &page_start());
        assert_eq!(link.scenario.traffic, TrafficShape::Constant);
        assert_eq!(link.scenario.algo, Algorithm::FixedWindow);
        assert_eq!(problems.len(), 1, "{:?}", problems);
        assert_eq!(problems[0].key, "traffic");
        assert!(problems[0].notice().message.contains("trace is not part of a link"));
    }

    #[test]
    fn a_moment_is_read_as_a_plain_decimal_and_anything_else_gets_a_notice() {
        let at = |t: &str| {
            let (link, problems) = Link::read(&format!("embed=1&t={t}"), &page_start());
            (link.frame.at, problems.iter().map(|n| n.notice().to_string()).collect::<Vec<_>>())
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
        let (link, problems) = Link::read(&q, &page_start());
        let messages: Vec<String> = problems.iter().map(|n| n.notice().to_string()).collect();
        assert!(messages[0].starts_with("show: 'chart' is not a card; known: throughput, state"), "{messages:?}");
        assert!(messages[1].contains("not a time in seconds from 0 to 600"), "{messages:?}");
        assert!(messages[2].starts_with("autoplay: 'maybe' is not 0 or 1"), "{messages:?}");
        assert!(messages[3].starts_with("theme: 'sepia' is not one of auto | light | dark"), "{messages:?}");
        assert!(messages[4].starts_with("caption: is longer than 200"), "{messages:?}");
        assert_eq!(link.frame.cards, [Card::State]);
        assert_eq!(link.frame.caption.chars().count(), MAX_CAPTION);
        assert_eq!(Link::read("t=9999", &page_start()).0.frame.at, Nanos::from_secs(MAX_MOMENT_SECS));
        assert_eq!(Link::read("caption=a%0Ab", &page_start()).0.frame.caption, "a b");
    }

    #[test]
    fn repeated_app_keys_are_named() {
        let (link, problems) = Link::read("view=compare&view=single", &page_start());
        assert_eq!(link.view, LinkView::Single);
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].key, "view");
    }

    #[test]
    fn the_first_modules_reader_refuses_what_the_whole_page_would_explain() {
        for q in [
            "rate=abc",
            "nodes=99",
            "bogus=1",
            "view=sideways",
            "embed=1",
            "theme=dark",
            "rate=3&rate=4",
            "view=single&view=single",
            "traffic=trace",
            "backoff_base=5&backoff_cap=1",
            "outage=20-10",
            "view=single&?capacity=1",
        ] {
            assert_eq!(Link::read_page(q, &page_start(), Capabilities::ONE_LIMITER), None, "{q}");
            let (full, problems) = Link::read(q, &page_start());
            let whole_pages = !problems.is_empty() || full.embed || full.frame != Frame::default();
            assert!(whole_pages, "{q}: the whole page has nothing to explain or read here");
        }
    }
}
