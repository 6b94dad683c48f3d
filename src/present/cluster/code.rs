//! The code each store mode runs on a node — short JavaScript-like sketches written for this page,
//! narrow enough for a phone — and which of its lines the most recent engine event corresponds to, so the page can
//! highlight the line being executed. The atomic mode's Lua script itself comes from
//! [`crate::production`].

use crate::sim::{Event, EventKind, SimTime, StoreMode};

/// A step of a node's code that an engine event stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// A request reached the node.
    Receive,
    /// The GET reached the store.
    Get,
    /// The SET reached the store.
    Set,
    /// The script ran at the store.
    Script,
    /// The increment reached the store.
    Increment,
    /// The node answered the client.
    Respond,
    /// The node gave up waiting for the store and answered by its fail mode.
    FailOver,
}

/// One line of code and the step it carries out, if any.
pub type Line = (Option<Step>, &'static str);

const LOCAL: &[Line] = &[
    (None, "const limiter = newLimiter(policy);"),
    (Some(Step::Receive), "function limit(req) {"),
    (None, "  const ok = limiter.check(req.time);"),
    (Some(Step::Respond), "  return ok ? 200 : 429;"),
    (None, "}"),
];

const RACE: &[Line] = &[
    (Some(Step::Receive), "async function limit(req) {"),
    (None, "  try {"),
    (Some(Step::Get), "    const s = await redis.get(key);"),
    (None, "    const ok = check(s, req.time);"),
    (Some(Step::Set), "    if (ok) await redis.set(key, s);"),
    (Some(Step::Respond), "    return ok ? 200 : 429;"),
    (None, "  } catch (timeout) {"),
    (Some(Step::FailOver), "    return FAIL_OPEN ? 200 : 429;"),
    (None, "  }"),
    (None, "}"),
];

const ATOMIC: &[Line] = &[
    (Some(Step::Receive), "async function limit(req) {"),
    (None, "  try {"),
    (Some(Step::Script), "    const [ok] = await redis.evalsha("),
    (Some(Step::Script), "      SHA, 1, key, ...args, req.time);"),
    (Some(Step::Respond), "    return ok ? 200 : 429;"),
    (None, "  } catch (timeout) {"),
    (Some(Step::FailOver), "    return FAIL_OPEN ? 200 : 429;"),
    (None, "  }"),
    (None, "}"),
];

const ASYNC: &[Line] = &[
    (None, "let view = newLimiter(policy);"),
    (Some(Step::Receive), "function limit(req) {"),
    (None, "  const ok = view.check(req.time);"),
    (Some(Step::Increment), "  if (ok) redis.incr(key).then(s =>"),
    (None, "    view = s.plus(unacked));"),
    (Some(Step::Respond), "  return ok ? 200 : 429;"),
    (None, "}"),
];

const REPLICA: &[Line] = &[
    (Some(Step::Receive), "async function limit(req) {"),
    (None, "  try {"),
    (Some(Step::Get), "    const s = await replica.get(key);"),
    (None, "    const ok = check(s, req.time);"),
    (Some(Step::Increment), "    if (ok) primary.incr(key); // no wait"),
    (Some(Step::Respond), "    return ok ? 200 : 429;"),
    (None, "  } catch (timeout) {"),
    (Some(Step::FailOver), "    return FAIL_OPEN ? 200 : 429;"),
    (None, "  }"),
    (None, "}"),
];

/// Kong's handler with `policy: redis`, as its Lua does it (with sync_rate −1 nothing is cached,
/// so every request takes the first branch).
const KONG: &[Line] = &[
    (Some(Step::Receive), "async function limit(req) {"),
    (None, "  let used = usage[win]; // -1: none"),
    (None, "  if (used === undefined) {"),
    (Some(Step::Script), "    used = await redis.incr(key) - 1;"),
    (None, "    usage[win] = used;"),
    (None, "    delta[win] = -1;"),
    (None, "  } else used += delta[win];"),
    (None, "  if (used < LIMIT) delta[win] += 1;"),
    (Some(Step::Respond), "  return used < LIMIT ? 200 : 429;"),
    (None, "}"),
    (None, "every(SYNC_RATE, async () => {"),
    (Some(Step::Increment), "  await redis.incrby(key, delta[win]);"),
    (None, "  usage = {}; delta = {};"),
    (None, "});"),
];

/// The node's code in `mode`.
pub fn node_code(mode: StoreMode) -> &'static [Line] {
    match mode {
        StoreMode::Local => LOCAL,
        StoreMode::Race => RACE,
        StoreMode::Atomic => ATOMIC,
        StoreMode::Async => ASYNC,
        StoreMode::Sync => KONG,
        StoreMode::ReplicaRead => REPLICA,
    }
}

/// The most recent event and the step of the node's code it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Current {
    /// When it happened.
    pub at: SimTime,
    /// The node.
    pub node: u8,
    /// The step.
    pub step: Step,
    /// Whether the request was admitted (for [`Step::Respond`] and [`Step::FailOver`]).
    pub allowed: bool,
    /// A SET that overwrote an update it had not read.
    pub lost_update: bool,
}

/// The step of the newest of `events` (oldest first), if any.
pub fn current<'a>(events: impl Iterator<Item = &'a Event>) -> Option<Current> {
    let (mut last, mut before) = (None::<&Event>, None::<&Event>);
    for e in events {
        before = last;
        last = Some(e);
    }
    let e = last?;
    let timed_out = before.is_some_and(|b| b.request == e.request && b.kind == EventKind::TimedOut);
    let (step, allowed, lost_update) = match e.kind {
        EventKind::Arrived { .. } => (Step::Receive, false, false),
        EventKind::Get { .. } => (Step::Get, false, false),
        EventKind::Set { lost_update } => (Step::Set, true, lost_update),
        EventKind::Script { allowed } => (Step::Script, allowed, false),
        EventKind::Increment => (Step::Increment, true, false),
        EventKind::TimedOut => (Step::FailOver, false, false),
        EventKind::Decided { allowed, .. } if timed_out => (Step::FailOver, allowed, false),
        EventKind::Decided { allowed, .. } => (Step::Respond, allowed, false),
    };
    Some(Current { at: e.at, node: e.node, step, allowed, lost_update })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Scenario, Simulation};

    #[test]
    fn every_step_an_event_can_stand_for_has_a_line_in_its_mode() {
        let steps = |mode| node_code(mode).iter().filter_map(|l| l.0).collect::<Vec<_>>();
        assert!(steps(StoreMode::Race).contains(&Step::Get) && steps(StoreMode::Race).contains(&Step::Set));
        assert!(steps(StoreMode::Atomic).contains(&Step::Script));
        assert!(steps(StoreMode::Async).contains(&Step::Increment));
        assert!(steps(StoreMode::Sync).contains(&Step::Script) && steps(StoreMode::Sync).contains(&Step::Increment));
        for mode in crate::present::cluster::modes::KONG_MODES {
            assert!(steps(mode).contains(&Step::Receive) && steps(mode).contains(&Step::Respond), "{mode:?}");
        }
    }

    #[test]
    fn a_timed_out_request_points_at_the_fail_over_line() {
        // Arrivals every 143 ms; the first one's GET is lost and it times out at 100 ms.
        let sc = Scenario::from_query("nodes=2&store=race&rtt=1&rate=7&outage=0-10&fail=closed").unwrap();
        let mut sim = Simulation::new(&sc);
        sim.step_until(SimTime::from_nanos(120_000_000));
        let c = current(sim.metrics().events()).unwrap();
        assert_eq!((c.step, c.allowed), (Step::FailOver, false));
    }

    #[test]
    fn a_racing_run_reaches_the_set_line_with_lost_updates() {
        let sc = Scenario::from_query("nodes=4&store=race&rtt=50&rate=200").unwrap();
        let mut sim = Simulation::new(&sc);
        let mut lost = false;
        while !lost && sim.now() < SimTime::from_secs(5) {
            sim.step_event();
            lost = current(sim.metrics().events()).is_some_and(|c| c.step == Step::Set && c.lost_update);
        }
        assert!(lost, "no lost update seen in 5 s of overlapping GETs and SETs");
    }
}
