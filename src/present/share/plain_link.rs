//! The first modules' readers of an address: [`Link::parse_plain`] (the page's) and
//! [`Link::parse_plain_embed`] (a frame's) read a link only if [`Link::parse`] would read it
//! without a notice, and refuse any other without saying why, so the modules that use only them
//! carry none of the messages; the whole page's module, which a refused link is handed to,
//! explains it. Plain Rust, tested natively and by the fuzz test (`tests/fuzz_query.rs`).

use crate::present::share::frame::{flag, Refused};
use crate::present::share::link::{Frame, Link, LinkView, APP_KEYS};
use crate::sim::query::{percent_decode, KEYS};
use crate::sim::Scenario;

impl Link {
    /// Reads an address only if [`Link::parse`] would read it without a notice, as the page (not
    /// an embed, not Compare all or the multi-node view) on a valid scenario, and it holds no
    /// embed key (not even at its default: `embed=0`); `None` for anything else, without saying
    /// why. The page's first module reads its address this way and hands any
    /// other to the whole page, whose [`Link::parse`] explains what it changed: so the first module
    /// carries none of the messages, nor the embed keys' parsing.
    ///
    /// ```
    /// use ratelimit_playground::present::share::link::Link;
    /// use ratelimit_playground::sim::Scenario;
    /// let base = Scenario::default();
    /// for q in ["", "?algo=gcra&rate=3&view=single", "?nodes=99", "?embed=1", "?view=compare", "?rate=3&rate=4"] {
    ///     let full = Link::parse(q, &base);
    ///     let clean = full.notices.is_empty() && full.view == Default::default() && !full.embed
    ///         && full.frame == Default::default();
    ///     assert_eq!(Link::parse_plain(q, &base), clean.then_some(full));
    /// }
    /// ```
    pub fn parse_plain(query: &str, base: &Scenario) -> Option<Link> {
        let query = query.strip_prefix('?').unwrap_or(query);
        let mut scenario_pairs = Vec::new();
        let mut view_seen = false;
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let key = percent_decode(k);
            if KEYS.contains(&key.as_str()) {
                scenario_pairs.push(pair);
            } else if key != "view" || view_seen || LinkView::from_key(&percent_decode(v)) != Some(LinkView::Single) {
                return None;
            } else {
                view_seen = true;
            }
        }
        let scenario = if scenario_pairs.is_empty() {
            base.clone()
        } else {
            Scenario::from_query_plain(&scenario_pairs.join("&"))?
        };
        scenario.validate().is_ok().then(|| Link {
            scenario,
            view: LinkView::Single,
            embed: false,
            frame: Frame::default(),
            notices: Vec::new(),
        })
    }

    /// Reads an embed link (`embed=1`) only if [`Link::parse`] would read it without a notice, as
    /// one server's frame (no other view) on a valid scenario; `None` for anything else, without
    /// saying why. A frame's first module reads its address this way and hands any other to the
    /// whole page's module, whose [`Link::parse`] explains what it changed: so the frame's module,
    /// as the page's, carries none of the messages.
    ///
    /// ```
    /// use ratelimit_playground::present::share::link::Link;
    /// use ratelimit_playground::sim::Scenario;
    /// let base = Scenario::default();
    /// for q in ["?embed=1", "?embed=1&show=state,throughput&t=30&controls=rate&theme=dark&caption=Hi",
    ///           "?embed=1&algo=gcra&rate=3", "?embed=1&t=9999", "?embed=1&show=bogus", "?embed=1&theme=blue",
    ///           "?embed=1&controls=rate,nope", "?embed=1&autoplay=2", "?embed=1&t=1&t=2", "?embed=1&embed=1",
    ///           "?embed=1&view=compare", "?embed=1&view=single", "?embed=0", "", "?embed=1&nodes=99"] {
    ///     let full = Link::parse(q, &base);
    ///     let clean = full.notices.is_empty() && full.view == Default::default() && full.embed;
    ///     assert_eq!(Link::parse_plain_embed(q, &base), clean.then_some(full), "{q}");
    /// }
    /// ```
    pub fn parse_plain_embed(query: &str, base: &Scenario) -> Option<Link> {
        // Not shared with `parse_plain`: the page's module keeps its own, smaller loop (sharing
        // one through a closure cost the page 0.3 KB of brotli).
        let query = query.strip_prefix('?').unwrap_or(query);
        let (mut scenario_pairs, mut seen) = (Vec::new(), Vec::<String>::new());
        let (mut frame, mut refused) = (Frame::default(), Refused::default());
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let key = percent_decode(k);
            if KEYS.contains(&key.as_str()) {
                scenario_pairs.push(pair);
                continue;
            }
            let value = percent_decode(v);
            let read = !seen.contains(&key)
                && match key.as_str() {
                    "view" => LinkView::from_key(&value) == Some(LinkView::Single),
                    "embed" => flag(&value) == Some(true),
                    k if APP_KEYS.contains(&k) => {
                        frame.read(k, &value, &mut refused);
                        !refused.0
                    }
                    _ => false,
                };
            if !read {
                return None;
            }
            seen.push(key);
        }
        let scenario = if scenario_pairs.is_empty() {
            base.clone()
        } else {
            Scenario::from_query_plain(&scenario_pairs.join("&"))?
        };
        let embed = seen.iter().any(|k| k == "embed");
        (embed && scenario.validate().is_ok()).then(|| Link {
            scenario,
            view: LinkView::Single,
            embed,
            frame,
            notices: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Rate;

    fn page_start() -> Scenario {
        Scenario { rate: Rate::per_sec(8), ..Scenario::default() }
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
            assert_eq!(Link::parse_plain(q, &page_start()), None, "{q}");
            let full = Link::parse(q, &page_start());
            let whole_pages = !full.notices.is_empty() || full.embed || full.frame != Frame::default();
            assert!(whole_pages, "{q}: the whole page has nothing to explain or read here");
        }
    }
}
