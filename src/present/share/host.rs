//! The host API's rules, pure (the frame's listener is `crate::app::share::host_api`): what the
//! page around a frame may ask it by `postMessage`, and the checks each command's data must pass
//! before anything changes. A message is an object `{ns: "rlp", v: 1, kind: "cmd" | "res" |
//! "evt", id, name, data}`, as Vimeo's player.js and reveal.js shape theirs.

use crate::present::share::frame::MAX_MOMENT_SECS;
use crate::sim::query::{is_key, pairs};
use crate::sim::{Capabilities, Nanos, Scenario};

/// The namespace every message carries (`ns`): anything else is some other script's.
pub const NS: &str = "rlp";
/// The protocol's version (`v`).
pub const VERSION: u32 = 1;
/// The most events `step {n}` runs in one command.
pub const MAX_STEPS: i64 = 1000;
/// The most events `step {n}` undoes in one command: each is a replay from t = 0, as Step back's
/// is, so a long way back is a `seek`.
pub const MAX_STEPS_BACK: i64 = 20;

/// A command the frame takes, by `name`.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Answers, and says `ready` again.
    Ping,
    /// Plays.
    Play,
    /// Pauses.
    Pause,
    /// Goes to simulated second `t`, paused, computed at once as the link's `t=` is.
    Seek(Nanos),
    /// Runs `n` events (undoes `−n`), paused.
    Step(i64),
    /// Back to the moment the frame opened on, paused (its Reset).
    Reset,
    /// A tour's step (frames show no tour: refused in words).
    Goto,
    /// The scenario with these keys merged in ([`merged`]).
    Set(String),
    /// `counts`, `query` or `state`.
    Get(String),
}

impl Command {
    /// The command `name` with `data`'s fields (`field(name)`: a number or a string, if given);
    /// the error names what is wrong, in the words the answer carries.
    pub fn read(
        name: &str,
        number: impl Fn(&str) -> Option<f64>,
        text: impl Fn(&str) -> Option<String>,
    ) -> Result<Command, String> {
        Ok(match name {
            "ping" => Command::Ping,
            "play" => Command::Play,
            "pause" => Command::Pause,
            "reset" => Command::Reset,
            "goto" => Command::Goto,
            "seek" => match number("t") {
                Some(t) if (0.0..=MAX_MOMENT_SECS as f64).contains(&t) => Command::Seek(Nanos::from_secs_f64(t)),
                _ => return Err(format!("seek: t is simulated seconds from 0 to {MAX_MOMENT_SECS}")),
            },
            "step" => match number("n") {
                Some(n) if n.fract() == 0.0 && n != 0.0 && (-(MAX_STEPS_BACK as f64)..=MAX_STEPS as f64).contains(&n) => {
                    Command::Step(n as i64)
                }
                _ => {
                    return Err(format!(
                        "step: n is a whole number of events from −{MAX_STEPS_BACK} to {MAX_STEPS}, not 0 (further back: seek)"
                    ))
                }
            },
            "set" => match text("query") {
                Some(q) => Command::Set(q),
                None => return Err("set: query is a link's scenario keys, e.g. \"store=atomic&nodes=4\"".into()),
            },
            "get" => match text("name").as_deref() {
                Some(n @ ("counts" | "query" | "state")) => Command::Get(n.to_string()),
                _ => return Err("get: name is counts, query or state".into()),
            },
            other => {
                return Err(format!(
                    "'{other}' is not a command; known: ping, play, pause, seek, step, reset, goto, set, get"
                ))
            }
        })
    }
}

/// `current` with `query`'s scenario keys set, as a link sets them, for a module with `caps`.
/// Where a link would clamp or ignore a value, nothing is set: the error names the key and its
/// range in the words the CLI and the link notice use; so does a key that is not the scenario's,
/// a key given twice, and a scenario this frame's module cannot run.
///
/// ```
/// use ratelimit_playground::present::share::host::merged;
/// use ratelimit_playground::sim::{Capabilities, Scenario};
/// let base = Scenario::from_query("capacity=10&refill=5&rate=8").unwrap();
/// let sc = merged(&base, "rate=20", Capabilities::ONE_LIMITER).unwrap();
/// assert_eq!((sc.capacity, sc.rate.as_per_sec()), (10, 20.0));
/// assert!(merged(&base, "capacity=0", Capabilities::ONE_LIMITER).unwrap_err().starts_with("capacity:"));
/// ```
pub fn merged(current: &Scenario, query: &str, caps: Capabilities) -> Result<Scenario, String> {
    let given: Vec<(String, String)> = pairs(query.trim_start_matches('?')).collect();
    if given.is_empty() {
        return Err("set: query names no key".into());
    }
    for (i, (key, _)) in given.iter().enumerate() {
        if !is_key(key) {
            return Err(format!(
                "{key}: not a scenario key (the playground's query keys are listed in docs/query-keys.md)"
            ));
        }
        if given[..i].iter().any(|(k, _)| k == key) {
            return Err(format!("{key}: given twice"));
        }
        if key == "traffic" && given[i].1 == "trace" {
            return Err("traffic: a link cannot carry a trace's times; choose another traffic".into());
        }
    }
    let full = current.to_query_full();
    let mut merged: Vec<(String, String)> = pairs(&full).collect();
    for (key, value) in given {
        match merged.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => merged.push((key, value)),
        }
    }
    let text = merged.iter().map(|(k, v)| format!("{k}={}", encode(v))).collect::<Vec<_>>().join("&");
    let sc = Scenario::from_query(&text).map_err(|e| e.to_string())?;
    caps.check(&sc).map_err(|_| {
        format!("set: {query} needs the whole playground, which this widget's module does not load; make the widget with it in its link")
    })?;
    Ok(sc)
}

/// `v` percent-encoded where a query value needs it (the keys' values are plain: names and
/// numbers; a stray `&` or `=` must not split them).
fn encode(v: &str) -> String {
    v.replace('%', "%25").replace('&', "%26").replace('=', "%3D").replace('+', "%2B").replace(' ', "%20")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Scenario {
        Scenario::from_query("nodes=4&store=race&rate=20&capacity=10&refill=5").unwrap()
    }

    #[test]
    fn set_merges_keys_into_the_run_as_a_link_would() {
        let all = Capabilities::ALL;
        let sc = merged(&base(), "store=atomic", all).unwrap();
        assert_eq!(sc.to_query(), base().to_query().replace("store=race", "store=atomic"));
        let sc = merged(&base(), "?nodes=2&rtt=5", all).unwrap();
        assert_eq!((sc.nodes, sc.capacity), (2, 10));
    }

    #[test]
    fn a_value_a_link_would_clamp_or_ignore_is_refused_with_its_range() {
        let all = Capabilities::ALL;
        let e = merged(&base(), "nodes=99", all).unwrap_err();
        assert!(e.starts_with("nodes:") && e.contains("16"), "{e}");
        assert!(merged(&base(), "store=bogus", all).unwrap_err().starts_with("store:"));
        assert_eq!(
            merged(&base(), "bogus=1", all).unwrap_err(),
            "bogus: not a scenario key (the playground's query keys are listed in docs/query-keys.md)"
        );
        assert_eq!(merged(&base(), "rate=3&rate=4", all).unwrap_err(), "rate: given twice");
        assert!(merged(&base(), "traffic=trace", all).unwrap_err().starts_with("traffic:"));
        assert_eq!(merged(&base(), "", all).unwrap_err(), "set: query names no key");
        let one = Scenario::from_query("capacity=10").unwrap();
        assert!(merged(&one, "nodes=4&store=race", Capabilities::ONE_LIMITER)
            .unwrap_err()
            .contains("needs the whole playground"));
    }

    #[test]
    fn commands_are_read_with_their_data_checked() {
        let none = |_: &str| None;
        let t = |v: f64| move |k: &str| (k == "t" || k == "n").then_some(v);
        assert_eq!(Command::read("seek", t(12.5), |_| None), Ok(Command::Seek(Nanos::from_millis(12_500))));
        assert!(Command::read("seek", t(601.0), |_| None).unwrap_err().contains("from 0 to 600"));
        assert!(Command::read("seek", none, |_| None).is_err());
        assert_eq!(Command::read("step", t(-3.0), |_| None), Ok(Command::Step(-3)));
        assert!(Command::read("step", t(0.5), |_| None).is_err());
        assert!(Command::read("step", t(0.0), |_| None).is_err());
        assert!(Command::read("step", t(-21.0), |_| None).unwrap_err().contains("from −20 to 1000"));
        let name = |v: &'static str| move |k: &str| (k == "name").then(|| v.to_string());
        assert_eq!(Command::read("get", none, name("counts")), Ok(Command::Get("counts".into())));
        assert!(Command::read("get", none, name("secrets")).unwrap_err().starts_with("get: name is"));
        assert!(Command::read("dance", none, |_| None).unwrap_err().starts_with("'dance' is not a command"));
    }
}
