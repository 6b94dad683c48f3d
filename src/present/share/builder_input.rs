//! What the embed builder needs from the page, as the text the page hands to the builder's own
//! wasm module (see [`super::builder_host`]): the view, the simulated time now, and the scenario as
//! its full query. The two modules share no memory, so the page sends this again whenever one of
//! them changes. Plain Rust, tested natively.

use crate::present::share::link::LinkView;
use crate::sim::{Nanos, Scenario};

/// The page's state as the embed builder sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct BuilderInput {
    /// The scenario to embed.
    pub scenario: Scenario,
    /// The view the page shows.
    pub view: LinkView,
    /// Simulated time now (the builder's "Use now").
    pub now: Nanos,
}

impl BuilderInput {
    /// One line each: the view's key, the time in nanoseconds, the scenario's full query.
    ///
    /// ```
    /// use ratelimit_playground::present::share::builder_input::BuilderInput;
    /// use ratelimit_playground::present::share::link::LinkView;
    /// use ratelimit_playground::sim::{Nanos, Scenario};
    /// let input = BuilderInput { scenario: Scenario::default(), view: LinkView::Compare, now: Nanos(1_500_000_000) };
    /// assert!(input.encode().starts_with("compare\n1500000000\nalgo="));
    /// ```
    pub fn encode(&self) -> String {
        format!("{}\n{}\n{}", self.view.key(), self.now.as_nanos(), self.scenario.to_query_full())
    }

    /// The input [`encode`](Self::encode) wrote, or `None` for anything else. The scenario is
    /// read leniently, as the page read it: it is the page's own, already clamped.
    pub fn decode(text: &str) -> Option<BuilderInput> {
        let mut lines = text.splitn(3, '\n');
        let view = LinkView::from_key(lines.next()?)?;
        let now = Nanos(lines.next()?.parse().ok()?);
        let (scenario, _) = Scenario::read(lines.next()?);
        Some(BuilderInput { scenario, view, now })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builder_reads_back_what_the_page_wrote() {
        for query in ["", "algo=sliding_window&limit=7&window=3.5&rate=12", "nodes=16&store=race&rtt=5&rate=1000"] {
            let scenario = Scenario::from_query(query).unwrap();
            for view in [LinkView::Single, LinkView::Compare, LinkView::Cluster] {
                let input = BuilderInput { scenario: scenario.clone(), view, now: Nanos(12_345_678_901) };
                assert_eq!(BuilderInput::decode(&input.encode()), Some(input));
            }
        }
    }

    #[test]
    fn anything_else_is_refused() {
        for text in ["", "single", "single\nsoon\nalgo=gcra", "grid\n0\nalgo=gcra"] {
            assert_eq!(BuilderInput::decode(text), None, "{text:?}");
        }
    }
}
