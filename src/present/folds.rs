//! Which panels a reader has opened. Every panel below the charts starts folded to its title, so
//! a view opens on its controls and the chart that answers; each view (one algorithm, Compare
//! all, Multi-node) remembers its own, so a panel opened in one view does not open in the next.
//! The page keeps this in the browser's storage and hands it to the whole page's module with
//! the rest of the [`Handover`](super::handover::Handover), in the text form [`Folds::encode`]
//! writes.

use crate::present::share::link::LinkView;

/// The panels that fold, by element id: the page's and the multi-node view's.
pub const PANELS: [&str; 9] =
    ["explanation", "server", "logs", "production", "failures", "code-card", "nodes-card", "modes-card", "sweep-card"];

/// The most entries a stored text is read for (every panel in every view).
const MOST: usize = PANELS.len() * 3;

/// The open panels, per view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Folds {
    /// `(view, panel)` for each panel the reader opened, panels named as in [`PANELS`]; in
    /// order, each once (a few entries: a sorted `Vec` is all the set this needs).
    open: Vec<(&'static str, &'static str)>,
}

impl Folds {
    /// Whether `panel` is open in `view`.
    pub fn is_open(&self, view: LinkView, panel: &str) -> bool {
        self.open.iter().any(|&(v, p)| v == view.key() && p == panel)
    }

    /// Opens or folds `panel` in `view`; a panel not in [`PANELS`] is left as it is (folded).
    pub fn set(&mut self, view: LinkView, panel: &str, open: bool) {
        let Some(&panel) = PANELS.iter().find(|&&p| p == panel) else { return };
        match (self.open.binary_search(&(view.key(), panel)), open) {
            (Err(at), true) => self.open.insert(at, (view.key(), panel)),
            (Ok(at), false) => _ = self.open.remove(at),
            _ => {}
        }
    }

    /// The text form: `single.server,cluster.modes-card` (empty when every panel is folded).
    ///
    /// ```
    /// use ratelimit_playground::present::folds::Folds;
    /// use ratelimit_playground::present::share::link::LinkView;
    /// let mut folds = Folds::default();
    /// folds.set(LinkView::Cluster, "sweep-card", true);
    /// folds.set(LinkView::Single, "server", true);
    /// assert_eq!(folds.encode(), "cluster.sweep-card,single.server");
    /// assert_eq!(Folds::decode(&folds.encode()), folds);
    /// ```
    pub fn encode(&self) -> String {
        self.open.iter().map(|(view, panel)| format!("{view}.{panel}")).collect::<Vec<_>>().join(",")
    }

    /// Reads [`encode`](Self::encode)'s text, keeping the entries that name a view and a panel
    /// and ignoring the rest: what is stored may come from another version of the page.
    pub fn decode(text: &str) -> Folds {
        let mut folds = Folds::default();
        for entry in text.split(',').take(MOST) {
            if let Some(view) = entry.split_once('.').and_then(|(view, _)| LinkView::from_key(view)) {
                folds.set(view, &entry[view.key().len() + 1..], true);
            }
        }
        folds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_panel_starts_folded_in_every_view() {
        let folds = Folds::default();
        for view in [LinkView::Single, LinkView::Compare, LinkView::Cluster] {
            assert!(PANELS.iter().all(|p| !folds.is_open(view, p)));
        }
    }

    #[test]
    fn a_panel_opened_in_one_view_stays_folded_in_the_others() {
        let mut folds = Folds::default();
        folds.set(LinkView::Compare, "production", true);
        assert!(folds.is_open(LinkView::Compare, "production"));
        assert!(!folds.is_open(LinkView::Single, "production"));
        assert!(!folds.is_open(LinkView::Cluster, "production"));
        folds.set(LinkView::Compare, "production", false);
        assert_eq!(folds, Folds::default());
    }

    #[test]
    fn stored_text_from_elsewhere_opens_only_known_panels_of_known_views() {
        let folds = Folds::decode("single.server,grid.server,single.nope,single,.,cluster.modes-card.x,,compare.logs");
        assert_eq!(folds.encode(), "compare.logs,single.server");
        let long = vec!["single.server"; 10_000].join(",");
        assert_eq!(Folds::decode(&long).encode(), "single.server");
        assert_eq!(Folds::decode(""), Folds::default());
    }

    #[test]
    fn an_unknown_panel_is_never_remembered() {
        let mut folds = Folds::default();
        folds.set(LinkView::Single, "<script>", true);
        assert_eq!(folds.encode(), "");
    }
}
