//! The fixed window's seam called out where it happens ("2× the limit — 20 requests admitted
//! within 2.00 s …"), in the words the throughput card shows and the still writes, from the
//! engine's own peak and the two windows' shares of it. Plain Rust, tested natively.

use crate::present::units::format_secs;
use crate::sim::peak::Seam;
use crate::sim::support::decimal::format_f64;
use crate::sim::{Nanos, SimTime};

/// The callout: its bold head ("2× the limit") and the sentence after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeamCallout {
    /// How many times the limit, in bold.
    pub head: String,
    /// What happened, from " — " on.
    pub rest: String,
}

/// The callout for a window algorithm whose most admitted in one window's length, `peak` (and
/// when that interval ended), is over its `limit`, with windows `window` long; `seam` is that
/// interval cut at the window boundary inside it, where the algorithm's windows are fixed.
///
/// ```
/// use ratelimit_playground::present::runner::Runner;
/// use ratelimit_playground::present::seam::seam_callout;
/// use ratelimit_playground::present::snapshot::Column;
/// use ratelimit_playground::sim::{Nanos, Scenario};
/// let sc = Scenario::from_query("algo=fixed_window&limit=10&window=2&traffic=seam").unwrap();
/// let mut runner = Runner::new(&sc, false);
/// runner.jump(Nanos::from_secs(10));
/// let column = Column::of(&runner.sims()[0]);
/// assert!(column.over_limit());
/// let callout = seam_callout(column.peak, column.limit, column.seam, sc.effective_window());
/// assert_eq!(callout.head, "2× the limit");
/// assert!(callout.rest.starts_with(" — 20 requests admitted within 2.00 s (limit 10 per window)"));
/// ```
pub fn seam_callout(peak: (u64, SimTime), limit: u64, seam: Option<Seam>, window: Nanos) -> SeamCallout {
    let (n, at) = peak;
    let window = format_secs(window.as_secs_f64());
    let rest = match seam {
        // The two windows at the seam, each within its limit, as the chart shades them.
        Some(s) => format!(
            " — {n} requests admitted within {window} (limit {limit} per window): {} at the end of the window that closes at t = {b}, {} at the start of the next, each window within its limit.",
            s.before,
            s.after,
            b = format_secs(s.boundary.as_secs_f64()),
        ),
        None => format!(
            " — {n} requests admitted within one {window} window (limit {limit}), across the boundary before t = {}.",
            format_secs(at.as_secs_f64())
        ),
    };
    SeamCallout { head: format!("{}× the limit", format_f64(n as f64 / limit.max(1) as f64, 0)), rest }
}
