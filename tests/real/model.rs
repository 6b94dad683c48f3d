//! What the engine decides for a scenario, request by request: the side every real-software
//! check compares against.

use ratelimit_playground::sim::{report, Nanos, Scenario, SimTime, Simulation};

/// One request as the model decided it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decided {
    /// When it arrived.
    pub at: SimTime,
    /// Admitted.
    pub allowed: bool,
    /// For an admission, how long the limiter held it.
    pub delay: Nanos,
}

/// Runs `query` for its duration and returns every decision in arrival order.
pub fn decisions(query: &str) -> Vec<Decided> {
    let sc = Scenario::from_query(query).unwrap_or_else(|e| panic!("{query}: {e}"));
    let sim = report::simulate(&sc, Simulation::record_decisions).unwrap();
    let mut log = sim.decisions().to_vec();
    log.sort_by_key(|d| d.arrived);
    log.iter().map(|d| Decided { at: d.arrived, allowed: d.verdict.allowed, delay: d.verdict.delay() }).collect()
}

/// The model's decisions for requests at exactly `times` (ns from the start), one key.
pub fn replay(query: &str, times: &[u64]) -> Vec<Decided> {
    use ratelimit_playground::sim::Limiter;
    let sc = Scenario::from_query(query).unwrap_or_else(|e| panic!("{query}: {e}"));
    let mut limiter = sc.limiter();
    times
        .iter()
        .map(|&t| {
            let v = limiter.check(SimTime(t));
            Decided { at: SimTime(t), allowed: v.allowed, delay: v.delay() }
        })
        .collect()
}

/// How many of `a` and `b` decide alike, and the indices where they differ.
pub fn agreement(a: &[bool], b: &[bool]) -> (usize, Vec<usize>) {
    assert_eq!(a.len(), b.len(), "both sides decided every request");
    let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    (a.len() - differ.len(), differ)
}

/// The model's decisions for requests at `times`, each taken on the history the real product
/// had (`real`: admitted or not), with each time known only to within `jitter` ns.
pub struct Followed {
    /// One decision per request, at the time the closest history chose for it.
    pub decided: Vec<Decided>,
    /// Requests whose time that history moved by `jitter`.
    pub moved: usize,
}

/// The model's decision for each request at `times`, each taken on the history the real
/// product had: where a decision differs, the model is brought to the real one (a refusal
/// undone, an admission recorded) before the next request. One flipped near-tie then counts
/// once, instead of shifting every decision after it by a request.
///
/// A request stamped within `jitter` of a boundary of the product's clock may have been decided
/// on either side of it, and one such request early on can shift the product's state for the
/// rest of the run (nginx's excess, once floored at 0, remembers the millisecond of that
/// request). So every request is also tried `jitter` earlier and later, and the histories that
/// differ from the real decisions least (then move fewest times) are kept, at most `BEAM`
/// distinct limiter states: the decisions reported are those of the closest one.
pub fn replay_following(query: &str, times: &[u64], real: &[bool], jitter: u64) -> Followed {
    use ratelimit_playground::sim::Limiter;
    const BEAM: usize = 32;
    let sc = Scenario::from_query(query).unwrap_or_else(|e| panic!("{query}: {e}"));
    // Each history: its limiter, its cost (differences, moves), and its last decision in `trail`.
    struct History<L> {
        limiter: L,
        differ: usize,
        moved: usize,
        last: usize,
    }
    // (decision, the previous one's index in `trail`, or usize::MAX for the first)
    let mut trail: Vec<(Decided, usize)> = Vec::new();
    let mut histories = vec![History { limiter: sc.limiter(), differ: 0, moved: 0, last: usize::MAX }];
    for (&t, &theirs) in times.iter().zip(real) {
        let tries = [(t, 0), (t.saturating_sub(jitter), 1), (t.saturating_add(jitter), 1)];
        let mut next = Vec::new();
        for h in &histories {
            for &(at, moved) in &tries[..if jitter == 0 { 1 } else { 3 }] {
                let mut limiter = h.limiter.clone();
                let v = limiter.check(SimTime(at));
                if v.allowed != theirs {
                    limiter = h.limiter.clone();
                    if theirs {
                        limiter.consume(SimTime(at));
                    }
                }
                trail.push((Decided { at: SimTime(at), allowed: v.allowed, delay: v.delay() }, h.last));
                next.push(History {
                    limiter,
                    differ: h.differ + usize::from(v.allowed != theirs),
                    moved: h.moved + moved,
                    last: trail.len() - 1,
                });
            }
        }
        next.sort_by_key(|h| (h.differ, h.moved));
        let mut seen = std::collections::HashSet::new();
        next.retain(|h| seen.insert(format!("{:?}", h.limiter)));
        next.truncate(BEAM);
        histories = next;
    }
    let best = &histories[0];
    let mut decided = Vec::with_capacity(times.len());
    let mut at = best.last;
    while at != usize::MAX {
        decided.push(trail[at].0);
        at = trail[at].1;
    }
    decided.reverse();
    Followed { decided, moved: best.moved }
}
