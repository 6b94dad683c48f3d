//! What the multi-node view quotes from real Redis: the over-admission `ratelimit-sim redis`
//! measured (`make redis-table` writes [`crate::present::cluster::redis_measured`]) beside the engine's figure, for
//! the node count on screen. Plain Rust, so it is tested natively; the page makes no request.

use crate::present::cluster::redis_measured::{Measured, BASE, EDGE_BASE, ROWS, VERSION};
use crate::present::units::format_number;
use crate::sim::Scenario;

/// Admitted beyond the exact limiter as a signed share of what it admits, e.g. "+24.3 %".
///
/// ```
/// use ratelimit_playground::present::cluster::measured::share;
/// assert_eq!(share(243, 1000), "+24.3 %");
/// assert_eq!(share(0, 1000), "0 %");
/// assert_eq!(share(-2, 1000), "−0.2 %");
/// ```
pub fn share(over: i64, reference: u64) -> String {
    let pct = over as f64 * 100.0 / reference.max(1) as f64;
    match over {
        0 => "0 %".into(),
        o if o > 0 => format!("+{pct:.1} %"),
        _ => format!("−{:.1} %", -pct),
    }
}

/// Measured and simulated over-admission, each against its own exact limiter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// On the real server, e.g. "+21.0 %".
    pub measured: String,
    /// In the engine, e.g. "+18.3 %".
    pub simulated: String,
}

fn pair(r: &Measured) -> Pair {
    Pair { measured: share(r.measured, r.reference), simulated: share(r.simulated, r.sim_reference) }
}

/// One round trip's row of the view's small table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// "5 ms".
    pub rtt: String,
    /// GET then SET.
    pub race: Pair,
    /// The atomic script.
    pub atomic: Pair,
    /// The edge design.
    pub edge: Pair,
}

/// The measured rows at `nodes` nodes, by round trip (empty if that count was not measured).
pub fn rows(nodes: u32) -> Vec<Row> {
    let find = |rtt: u32, mode: &str| ROWS.iter().find(|r| r.nodes == nodes && r.rtt_ms == rtt && r.mode == mode);
    ROWS.iter()
        .filter(|r| r.nodes == nodes && r.mode == "race")
        .filter_map(|r| {
            Some(Row {
                rtt: format!("{} ms", r.rtt_ms),
                race: pair(r),
                atomic: pair(find(r.rtt_ms, "atomic")?),
                edge: pair(find(r.rtt_ms, "async")?),
            })
        })
        .collect()
}

/// Node counts with measured rows, ascending.
pub fn measured_nodes() -> Vec<u32> {
    let mut n: Vec<u32> = ROWS.iter().map(|r| r.nodes).collect();
    n.sort_unstable();
    n.dedup();
    n
}

/// The table's heading for `nodes`, or, where that count was not measured, where to look.
pub fn caption(nodes: u32) -> String {
    if rows(nodes).is_empty() {
        let mut counts: Vec<String> = measured_nodes().iter().map(u32::to_string).collect();
        let last = counts.pop().unwrap_or_default();
        let counts = if counts.is_empty() { last } else { format!("{} and {last}", counts.join(", ")) };
        format!(
            "A real Redis {VERSION} was measured at {counts} nodes: the project's README has the table; \
             ratelimit-sim redis measures yours."
        )
    } else {
        format!("Measured on a real Redis {VERSION} with {nodes} nodes (ratelimit-sim redis): over-admitted, and below it the simulated figure.")
    }
}

/// The scenarios the rows ran, in words.
pub fn scenarios() -> String {
    let (Ok(base), Ok(edge)) = (Scenario::from_query(BASE), Scenario::from_query(EDGE_BASE)) else {
        return String::new();
    };
    format!(
        "GET then SET and the script: {} requests/s against a bucket of {} refilled at {}/s. Edge: {} per {} s \
         at {} requests/s.",
        format_number(base.rate.as_per_sec()),
        base.capacity,
        format_number(base.refill.as_per_sec()),
        edge.effective_limit(),
        format_number(edge.effective_window().as_secs_f64()),
        format_number(edge.rate.as_per_sec()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_measured_node_count_has_a_row_per_round_trip_with_all_three_modes() {
        for n in measured_nodes() {
            let race = ROWS.iter().filter(|r| r.nodes == n && r.mode == "race").count();
            assert!(race > 0);
            assert_eq!(rows(n).len(), race, "{n} nodes");
        }
    }

    #[test]
    fn a_row_quotes_the_measured_and_simulated_figures_against_their_own_limiters() {
        let r = ROWS.iter().find(|r| r.mode == "race").unwrap();
        let row = &rows(r.nodes)[0];
        assert_eq!(
            row.race,
            Pair { measured: share(r.measured, r.reference), simulated: share(r.simulated, r.sim_reference) }
        );
        assert!(caption(r.nodes).contains(&format!("{} nodes", r.nodes)));
        assert!(caption(r.nodes).contains(VERSION));
        assert!(scenarios().contains("requests/s against a bucket of"));
    }

    #[test]
    fn an_unmeasured_node_count_points_to_the_readme() {
        let missing = (1..=16).find(|n| !measured_nodes().contains(n)).unwrap();
        assert!(rows(missing).is_empty());
        assert!(caption(missing).contains("README"), "{}", caption(missing));
    }
}
