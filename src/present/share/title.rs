//! What a widget shows, in words: the frame's title (what a screen reader announces), the
//! still's alt text and heading, and the still's default file name — each naming the algorithm
//! with its limit, the traffic, and for a multi-node widget its nodes and store. Two widgets of
//! different scenarios or moments never share a file name. Plain Rust, tested natively.

use crate::present::cluster::choices::short_name;
use crate::present::cluster::presets::is_cluster;
use crate::present::options::{algorithm_label, is_windowed};
use crate::present::units::format_number;
use crate::sim::products::ALGO_NAMES;
use crate::sim::support::decimal::format_f64_trimmed;
use crate::sim::{Nanos, Scenario, TrafficShape};

/// The algorithm and its limit: "Token bucket (10 burst, 5/s)", "Fixed window (100 per 60 s)".
fn limiter(sc: &Scenario) -> String {
    let textbook = sc.algo.textbook(&sc.product);
    let limit = if is_windowed(textbook) {
        format!("{} per {}", sc.effective_limit(), window_text(sc.effective_window()))
    } else {
        format!("{} burst, {}/s", sc.capacity, format_number(sc.refill.as_per_sec()))
    };
    format!("{} ({limit})", algorithm_label(sc.algo))
}

/// A window's length as a writer would put it: "2 s", "1.5 s", "250 ms".
fn window_text(window: Nanos) -> String {
    let secs = window.as_secs_f64();
    if secs < 1.0 {
        format!("{} ms", format_f64_trimmed(secs * 1000.0, 3))
    } else {
        format!("{} s", format_f64_trimmed(secs, 3))
    }
}

/// The traffic: "Poisson arrivals at 8 requests/s", "the seam attack" (which sets its own times).
fn traffic(sc: &Scenario) -> String {
    let rate = format_number(sc.rate.as_per_sec());
    match sc.traffic {
        TrafficShape::Constant => format!("steady arrivals at {rate} requests/s"),
        TrafficShape::Poisson => format!("random (Poisson) arrivals at {rate} requests/s"),
        TrafficShape::Bursts => format!("bursts averaging {rate} requests/s"),
        TrafficShape::Seam => "the seam attack at a window's edges".to_string(),
        TrafficShape::Clients => format!("{} clients sending {rate} requests/s in all", sc.clients),
        TrafficShape::Trace => "a replayed trace".to_string(),
    }
}

/// What a widget of `sc` shows, in one line: the limiter, the traffic and, for a multi-node
/// scenario, its nodes and where they count.
///
/// ```
/// use ratelimit_playground::present::share::title::scenario_line;
/// use ratelimit_playground::sim::Scenario;
/// let sc = Scenario::from_query("rate=8&capacity=10&refill=5").unwrap();
/// assert_eq!(scenario_line(&sc), "Token bucket (10 burst, 5/s), steady arrivals at 8 requests/s");
/// let race = Scenario::from_query("nodes=4&store=race&rate=40&traffic=poisson").unwrap();
/// assert!(scenario_line(&race).ends_with("(Poisson) arrivals at 40 requests/s, on 4 nodes sharing a store: GET, then SET"));
/// ```
pub fn scenario_line(sc: &Scenario) -> String {
    let mut line = format!("{}, {}", limiter(sc), traffic(sc));
    if is_cluster(sc) {
        let nodes = if sc.nodes == 1 { "1 node".to_string() } else { format!("{} nodes", sc.nodes) };
        let store = match sc.store {
            crate::sim::StoreMode::Local => "each counting alone".to_string(),
            mode => format!("sharing a store: {}", short_name(mode)),
        };
        line.push_str(&format!(", on {nodes} {store}"));
    }
    line
}

/// The frame's title: what a screen reader announces for it.
///
/// ```
/// use ratelimit_playground::present::share::title::frame_title;
/// use ratelimit_playground::sim::Scenario;
/// let sc = Scenario::from_query("algo=fixed_window&limit=5&window=1&traffic=seam").unwrap();
/// assert_eq!(frame_title(&sc), "Rate limiter playground: Fixed window (5 per 1 s), the seam attack at a window's edges");
/// ```
pub fn frame_title(sc: &Scenario) -> String {
    format!("Rate limiter playground: {}", scenario_line(sc))
}

/// The still's alt text for a widget titled `title`.
pub fn still_alt(title: &str) -> String {
    format!("{title} (a still; open the live playground)")
}

/// The still's default file name: the algorithm, the traffic, a multi-node widget's nodes and
/// store, and the moment, so that two widgets of one post do not overwrite each other's image.
///
/// ```
/// use ratelimit_playground::present::share::title::still_name;
/// use ratelimit_playground::sim::{Nanos, Scenario};
/// let seam = Scenario::from_query("algo=fixed_window&traffic=seam").unwrap();
/// assert_eq!(still_name(&seam, Nanos::from_millis(10_500)), "rlp-fixed_window-seam-t10.5.svg");
/// let race = Scenario::from_query("nodes=4&store=race").unwrap();
/// assert_eq!(still_name(&race, Nanos(0)), "rlp-token_bucket-constant-4-nodes-race.svg");
/// ```
pub fn still_name(sc: &Scenario, at: Nanos) -> String {
    let algo = ALGO_NAMES.iter().find(|(_, a)| *a == sc.algo).map_or("limiter", |(k, _)| k);
    let traffic = crate::present::options::entry(&crate::present::options::TRAFFIC, sc.traffic).map_or("", |t| t.key);
    let mut name = format!("rlp-{algo}-{traffic}");
    if is_cluster(sc) {
        let store = crate::present::cluster::choices::STORES
            .iter()
            .chain(crate::present::cluster::choices::KONG_STORES.iter())
            .find(|s| s.value == sc.store)
            .map_or("store", |s| s.key);
        name.push_str(&format!("-{}-nodes-{store}", sc.nodes));
    }
    let ms = at.as_nanos() / 1_000_000;
    if ms > 0 {
        let secs = format_f64_trimmed(ms as f64 / 1000.0, 3);
        name.push_str(&format!("-t{secs}"));
    }
    name.push_str(".svg");
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seam_title_does_not_name_a_rate_the_traffic_ignores() {
        let sc = Scenario::from_query("algo=fixed_window&traffic=seam&rate=8").unwrap();
        assert!(!frame_title(&sc).contains("8 requests/s"), "{}", frame_title(&sc));
    }

    #[test]
    fn a_multi_node_title_names_its_nodes_and_store() {
        for (store, words) in [
            ("local", "each counting alone"),
            ("race", "GET, then SET"),
            ("atomic", "Atomic script"),
            ("async", "Edge (async)"),
        ] {
            let sc = Scenario::from_query(&format!("nodes=4&store={store}")).unwrap();
            let title = frame_title(&sc);
            assert!(title.contains("4 nodes") && title.contains(words), "{title}");
        }
    }

    #[test]
    fn widgets_of_different_scenarios_or_moments_get_different_stills() {
        let names: Vec<String> = [
            ("algo=fixed_window&traffic=seam", 0),
            ("algo=fixed_window&traffic=seam", 10_000),
            ("nodes=4&store=race", 0),
            ("nodes=4&store=atomic", 0),
            ("", 0),
        ]
        .iter()
        .map(|(q, ms)| still_name(&Scenario::from_query(q).unwrap(), Nanos::from_millis(*ms)))
        .collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        assert!(names.iter().all(|n| n.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b))), "{names:?}");
    }
}
