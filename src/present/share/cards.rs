//! The cards an embed can show (`show=throughput,state`), in the order the author lists them:
//! every card of the page, single-node and multi-node. The names are shared by the embed, the
//! Embed panel's builder and the CLI's SVG fallback (`ratelimit-sim --format svg --show …`).
//! Plain Rust, tested natively.

use crate::chart::server::ServerChart;
use crate::sim::query::{Kind, Problem, Used};
/// One card of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Card {
    /// Admitted and rejected per second against the steady state (the cluster's, in multi-node mode).
    Throughput,
    /// The limiter's inner state (tokens, window counters, the GCRA clock).
    State,
    /// Pass ratio converging to refill ÷ arrival.
    Steady,
    /// The last requests, each a mark.
    Strip,
    /// The last response's status line and headers.
    Response,
    /// The headline counters (requests, admitted, rejected, …).
    Stats,
    /// All algorithms side by side on the same arrivals.
    Compare,
    /// Multi-node: the nodes, the load balancer and the store, with requests flowing.
    Topology,
    /// Multi-node: the store operations of each node over time.
    Swimlane,
    /// Multi-node: the code each node runs against the store.
    Code,
    /// Multi-node: admitted per node.
    Nodes,
    /// Multi-node: each store mode's admitted total and round trips.
    Rtt,
    /// Multi-node: the edge design's overshoot against its sync interval.
    Sweep,
    /// Multi-node: what a store outage let through.
    Outage,
    /// The server behind the limiter: requests offered, goodput, wasted and shed per second.
    ServerLoad,
    /// The server behind the limiter: latency per second against queueing theory.
    ServerLatency,
    /// The server behind the limiter: the requests waiting for a worker.
    ServerQueue,
}

/// Every card with its name in `show=`, single-node cards first, the server's last.
pub const CARDS: [(Card, &str); 17] = [
    (Card::Throughput, "throughput"),
    (Card::State, "state"),
    (Card::Steady, "steady"),
    (Card::Strip, "strip"),
    (Card::Response, "response"),
    (Card::Stats, "stats"),
    (Card::Compare, "compare"),
    (Card::Topology, "topology"),
    (Card::Swimlane, "swimlane"),
    (Card::Code, "code"),
    (Card::Nodes, "nodes"),
    (Card::Rtt, "rtt"),
    (Card::Sweep, "sweep"),
    (Card::Outage, "outage"),
    (Card::ServerLoad, "server_load"),
    (Card::ServerLatency, "server_latency"),
    (Card::ServerQueue, "server_queue"),
];

impl Card {
    /// Its name in `show=`.
    ///
    /// ```
    /// use ratelimit_playground::present::share::cards::Card;
    /// assert_eq!(Card::Steady.key(), "steady");
    /// ```
    pub fn key(self) -> &'static str {
        CARDS.iter().find(|(c, _)| *c == self).map_or("", |(_, k)| k)
    }

    /// The card named `name` in `show=`.
    pub fn from_key(name: &str) -> Option<Card> {
        CARDS.iter().find(|(_, k)| *k == name).map(|&(c, _)| c)
    }

    /// Whether it exists only in multi-node mode.
    pub fn multi_node(self) -> bool {
        matches!(
            self,
            Card::Topology | Card::Swimlane | Card::Code | Card::Nodes | Card::Rtt | Card::Sweep | Card::Outage
        )
    }

    /// Its heading, as the page titles it.
    pub fn title(self) -> &'static str {
        match self {
            Card::Throughput => "Throughput",
            Card::State => "Inner state",
            Card::Steady => "Steady state",
            Card::Strip => "Requests",
            Card::Response => "Last response",
            Card::Stats => "Counters",
            Card::Compare => "Compare all",
            Card::Topology => "Topology",
            Card::Swimlane => "Store operations",
            Card::Code => "Code per node",
            Card::Nodes => "Admitted per node",
            Card::Rtt => "Round trips per mode",
            Card::Sweep => "Edge sweep",
            Card::Outage => "Outage",
            Card::ServerLoad => "Load and goodput",
            Card::ServerLatency => "Latency",
            Card::ServerQueue => "Queue",
        }
    }

    /// Whether it shows the server behind the limiter (`workers` > 0).
    pub fn server(self) -> bool {
        matches!(self, Card::ServerLoad | Card::ServerLatency | Card::ServerQueue)
    }

    /// The chart it draws, if it is one of the server's cards.
    pub fn server_chart(self) -> Option<ServerChart> {
        match self {
            Card::ServerLoad => Some(ServerChart::Load),
            Card::ServerLatency => Some(ServerChart::Latency),
            Card::ServerQueue => Some(ServerChart::Queue),
            _ => None,
        }
    }

    /// Whether it is a wide chart that takes a whole row of the embed's grid.
    pub fn wide(self) -> bool {
        matches!(self, Card::Throughput | Card::Compare | Card::Topology | Card::Swimlane | Card::Strip)
            || self.server()
    }
}

/// Which of `cards` take a whole row of the embed's grid: the wide charts, and any other card
/// left without a neighbour (the others go two to a row, in order). The still lays out the same.
///
/// ```
/// use ratelimit_playground::present::share::cards::{full_rows, Card};
/// let cards = [Card::State, Card::Steady, Card::Throughput, Card::Response];
/// assert_eq!(full_rows(&cards), [false, false, true, true]);
/// ```
pub fn full_rows(cards: &[Card]) -> Vec<bool> {
    let mut full: Vec<bool> = cards.iter().map(|c| c.wide()).collect();
    let mut i = 0;
    while i < cards.len() {
        if full[i] {
            i += 1;
        } else if i + 1 < cards.len() && !full[i + 1] {
            i += 2;
        } else {
            full[i] = true;
            i += 1;
        }
    }
    full
}

/// The cards an embed shows when `show` is absent: the throughput chart, as before `show` existed.
pub const DEFAULT_CARDS: [Card; 1] = [Card::Throughput];

/// A card [`fit`] left out: the scenario cannot show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unfit {
    /// The card.
    pub card: Card,
    /// Whether the scenario is multi-node.
    pub multi_node: bool,
}

impl Unfit {
    /// Why it is left out, in a sentence (made only where it is shown: a frame's first module,
    /// which hands such a link over, carries none of these words).
    pub fn message(self) -> String {
        let key = self.card.key();
        if self.card.server() {
            format!("'{key}' shows the server behind the limiter and this scenario has none (set workers=1 or more); not shown")
        } else if self.card.multi_node() && !self.multi_node {
            format!("'{key}' is a multi-node card and this scenario runs one node (set nodes=2 or more); not shown")
        } else {
            "'compare' runs the algorithms on one node and this scenario is multi-node; not shown".to_string()
        }
    }
}

/// `cards` fitted to a scenario: multi-node cards need a multi-node scenario, the server's cards
/// a server (`server`: `workers` > 0), and compare mode runs single-node limiters only, so those
/// that cannot be shown are left out, each an [`Unfit`]; nothing left means [`DEFAULT_CARDS`].
///
/// ```
/// use ratelimit_playground::present::share::cards::{fit, Card};
/// let (cards, unfit) = fit(&[Card::Topology, Card::State], false, false);
/// assert_eq!(cards, [Card::State]);
/// assert!(unfit[0].message().starts_with("'topology' is a multi-node card"));
/// let (cards, unfit) = fit(&[Card::ServerLoad], false, false);
/// assert_eq!(cards, [Card::Throughput]);
/// assert!(unfit[0].message().starts_with("'server_load' shows the server behind the limiter"));
/// ```
pub fn fit(cards: &[Card], multi_node: bool, server: bool) -> (Vec<Card>, Vec<Unfit>) {
    let mut unfit = Vec::new();
    let mut kept = Vec::new();
    for &card in cards {
        let shown = if card.server() {
            server
        } else if card.multi_node() {
            multi_node
        } else {
            !(card == Card::Compare && multi_node)
        };
        if shown {
            kept.push(card);
        } else {
            unfit.push(Unfit { card, multi_node });
        }
    }
    if kept.is_empty() {
        kept = DEFAULT_CARDS.to_vec();
    }
    (kept, unfit)
}

/// Reads `show=` (comma-separated names): the cards in the order given, repeats dropped, and an
/// error message naming the unknown ones, if any (those are ignored).
///
/// ```
/// use ratelimit_playground::present::share::cards::{parse_cards, Card};
/// let (cards, error) = parse_cards("state,throughput,state,bogus");
/// assert_eq!(cards, [Card::State, Card::Throughput]);
/// assert!(error.unwrap().starts_with("'bogus' is not a card; known: throughput, state"));
/// ```
pub fn parse_cards(value: &str) -> (Vec<Card>, Option<String>) {
    let (cards, unknown) = read_cards(value);
    (
        cards,
        (!unknown.is_empty()).then(|| Problem::new("show", unknown_cards(&unknown), Used::Ignored).notice().message),
    )
}

/// `show=`'s cards in the order given, repeats dropped, and the names that are not cards: what
/// [`parse_cards`] reads, without its message (a frame's first module builds none).
pub fn read_cards(value: &str) -> (Vec<Card>, Vec<&str>) {
    let mut cards = Vec::new();
    let mut unknown = Vec::new();
    for name in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        match Card::from_key(name) {
            Some(c) if !cards.contains(&c) => cards.push(c),
            Some(_) => {}
            None => unknown.push(name),
        }
    }
    (cards, unknown)
}

/// What is wrong with `show=` names that are not cards.
pub fn unknown_cards(unknown: &[&str]) -> Kind {
    let items = unknown.iter().map(|n| n.to_string()).collect();
    Kind::UnknownItems { items, item: "card", known: CARDS.iter().map(|(_, k)| *k).collect() }
}

/// The names of `cards`, as `show=` spells them.
pub fn cards_value(cards: &[Card]) -> String {
    cards.iter().map(|c| c.key()).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_reads_back_from_its_name() {
        for (card, key) in CARDS {
            assert_eq!(Card::from_key(key), Some(card));
            assert_eq!(card.key(), key);
        }
        let all: Vec<Card> = CARDS.iter().map(|(c, _)| *c).collect();
        assert_eq!(parse_cards(&cards_value(&all)), (all, None));
    }

    #[test]
    fn the_order_given_is_kept_and_blanks_are_skipped() {
        let (cards, error) = parse_cards(" swimlane, ,topology,");
        assert_eq!(cards, [Card::Swimlane, Card::Topology]);
        assert_eq!(error, None);
        assert!(Card::Swimlane.multi_node() && !Card::Compare.multi_node());
    }

    #[test]
    fn cards_that_cannot_be_shown_are_dropped_with_a_reason_and_none_left_means_throughput() {
        let (cards, unfit) = fit(&[Card::Compare, Card::Swimlane], true, false);
        assert_eq!(cards, [Card::Swimlane]);
        assert_eq!(
            unfit.iter().map(|u| u.message()).collect::<Vec<_>>(),
            ["'compare' runs the algorithms on one node and this scenario is multi-node; not shown"]
        );
        let (cards, unfit) = fit(&[Card::Outage], false, false);
        assert_eq!(cards, DEFAULT_CARDS);
        assert_eq!(unfit.len(), 1);
        assert_eq!(fit(&[], false, false), (DEFAULT_CARDS.to_vec(), vec![]));
        assert_eq!(fit(&[Card::ServerQueue], true, true), (vec![Card::ServerQueue], vec![]));
    }
}
