//! What the page's log worker and the page say to each other, as plain text: the page asks with
//! an [`Ask`] (the scenario, the log's format, the key, the sizing objective, the charts' width), and
//! the worker answers with [`Message`]s: progress, the shadow report and the sizing table as the
//! markup the page shows (drawn in the worker, so the page's own wasm carries none of it), or the
//! error. Fields are separated by tabs; both ends (and the tests) share this one module, which
//! writes and reads every message. The sizing table's Apply button carries its policy in
//! `data-policy`, as [`crate::sim::logs::policy::PolicyKeys`] writes and reads it.

use crate::sim::logs::format::LogFormat;
use crate::sim::logs::keys::KeyBy;
use crate::sim::logs::scope::Scope;
use crate::sim::logs::sizing::Objective;
use crate::sim::Scenario;

/// What the page asks the worker to analyse the log with.
#[derive(Clone, Debug, PartialEq)]
pub struct Ask {
    /// The playground's scenario: the log is replayed through its limiter, and a sample
    /// generated from its seed. It travels as its full query.
    pub scenario: Scenario,
    /// The log's format, or `None` to detect it.
    pub format: Option<LogFormat>,
    /// What requests are limited by.
    pub key: KeyBy,
    /// What the recommended policy must do: spare the bulk and throttle the outliers, or
    /// throttle at most a share of the keys.
    pub objective: Objective,
    /// How wide the charts are drawn, CSS pixels (the panel's width).
    pub width: u32,
    /// Where the counters are kept.
    pub scope: Scope,
}

impl Ask {
    /// One line: the scenario's full query, format (empty: detect), key, objective (`outliers`,
    /// or the target share), width, scope ([`Scope::name`]).
    pub fn encode(&self) -> String {
        let format = self.format.as_ref().map(LogFormat::name).unwrap_or_default();
        let key = match &self.key {
            KeyBy::Ip => "ip".to_string(),
            KeyBy::Path => "path".into(),
            KeyBy::Global => "global".into(),
            KeyBy::Field(f) => format!("field:{f}"),
        };
        let query = self.scenario.to_query_full();
        let objective = match self.objective {
            Objective::Outliers => "outliers".to_string(),
            Objective::Target(share) => share.to_string(),
        };
        let scope = clean(&self.scope.name());
        [query.as_str(), &clean(&format), &clean(&key), &objective, &self.width.to_string(), &scope].join("\t")
    }

    /// Reads [`Ask::encode`]'s line; the message names what is wrong. The page writes the scenario
    /// with the query format of the same build, so the worker reads it without the problems' words
    /// ([`Scenario::read_clean`]).
    pub fn decode(line: &str) -> Result<Ask, String> {
        let f: Vec<&str> = line.split('\t').collect();
        let [query, format, key, objective, width, scope] = f[..] else {
            return Err("the request to the log worker is malformed".into());
        };
        let format = if format.is_empty() { None } else { Some(LogFormat::named(format)?) };
        let objective = match objective {
            "outliers" => Objective::Outliers,
            t => Objective::Target(
                t.parse::<f64>().ok().filter(|t| (0.0..=1.0).contains(t)).ok_or("the target is not 0–1")?,
            ),
        };
        let width = width.parse::<u32>().map_err(|_| "the chart width is not a number")?.clamp(280, 2000);
        let key = KeyBy::named(key)?;
        let scenario =
            Scenario::read_clean(query).ok_or("the policy is not a scenario of this build's query format")?;
        let scope = Scope::parse(scope)?;
        Ok(Ask { scenario, format, key, objective, width, scope })
    }
}

/// What the worker is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Reading and replaying the log: `done` and `total` are bytes.
    Read,
    /// Sweeping policies: `done` and `total` are policies.
    Sweep,
}

/// How long the samples the page loads in one click are, minutes (the CLI's `--minutes`).
pub const SAMPLE_MINUTES: u64 = 10;

/// One message from the worker.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// The worker has started and takes a request.
    Ready,
    /// How far it got.
    Progress {
        /// Reading or sweeping.
        phase: Phase,
        /// Bytes or policies done.
        done: u64,
        /// Of how many.
        total: u64,
    },
    /// The shadow report, as the page shows it (markup).
    Report(String),
    /// The sizing table, as the page shows it (markup).
    Sizing(String),
    /// Why the log could not be analysed: the line (0: the log as a whole) and the message.
    Failed(u64, String),
}

/// `s` with tabs and line breaks as spaces.
fn clean(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

impl Message {
    /// The message as text.
    pub fn encode(&self) -> String {
        match self {
            Message::Ready => "ready".into(),
            Message::Progress { phase, done, total } => {
                let p = if *phase == Phase::Read { "read" } else { "sweep" };
                format!("progress\t{p}\t{done}\t{total}")
            }
            Message::Failed(line, message) => format!("failed\t{line}\t{}", clean(message)),
            Message::Report(markup) => format!("report\n{markup}"),
            Message::Sizing(markup) => format!("sizing\n{markup}"),
        }
    }

    /// Reads [`Message::encode`]'s text; `None` if it is not one.
    pub fn decode(text: &str) -> Option<Message> {
        let head: Vec<&str> = text.split('\n').next()?.split('\t').collect();
        let n = |i: usize| head.get(i).and_then(|v| v.parse::<u64>().ok());
        match head[0] {
            "ready" => Some(Message::Ready),
            "progress" => Some(Message::Progress {
                phase: if head.get(1) == Some(&"read") { Phase::Read } else { Phase::Sweep },
                done: n(2)?,
                total: n(3)?,
            }),
            "failed" => Some(Message::Failed(n(1)?, head.get(2)?.to_string())),
            "report" => Some(Message::Report(text.split_once('\n').map_or("", |(_, m)| m).to_string())),
            "sizing" => Some(Message::Sizing(text.split_once('\n').map_or("", |(_, m)| m).to_string())),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_message_reads_back_as_written() {
        for m in [
            Message::Ready,
            Message::Progress { phase: Phase::Read, done: 10, total: 20 },
            Message::Progress { phase: Phase::Sweep, done: 1, total: 100 },
            Message::Failed(3, "is not UTF-8 text".into()),
            Message::Report("<p>two\nlines</p>".into()),
            Message::Sizing(String::new()),
        ] {
            assert_eq!(Message::decode(&m.encode()), Some(m));
        }
        assert_eq!(Message::decode("failed\t1\ta\tb"), Some(Message::Failed(1, "a".into())));
        assert_eq!(Message::decode("nonsense\t1"), None);
        assert_eq!(Message::decode("progress\tread\tx\t1"), None);
    }

    #[test]
    fn asks_read_back_and_bad_ones_are_named() {
        let scenario = |q: &str| Scenario::from_query(q).unwrap();
        let ask = Ask {
            scenario: scenario("capacity=5&refill=2"),
            format: Some(LogFormat::Combined),
            key: KeyBy::Field("api_key".into()),
            objective: Objective::Target(0.02),
            width: 640,
            scope: Scope::parse("instance:4:random").unwrap(),
        };
        assert_eq!(Ask::decode(&ask.encode()), Ok(ask));
        for query in ["", "algo=sliding_log&limit=30&window=0.5&seed=9", "algo=nginx&capacity=4&refill=0.25&nodelay=1"]
        {
            let detect = Ask {
                scenario: scenario(query),
                format: None,
                key: KeyBy::Ip,
                objective: Objective::Outliers,
                width: 375,
                scope: Scope::Field("pop".into()),
            };
            assert_eq!(Ask::decode(&detect.encode()), Ok(detect), "{query}");
        }
        assert!(Ask::decode("capacity=5\t\tip\t2\t600\tglobal").unwrap_err().contains("target"));
        assert!(Ask::decode("capacity=5\t\thost\t0.1\t600\tglobal").unwrap_err().contains("not a key"));
        assert_eq!(Ask::decode("capacity=5\t\tip\t0.1\t9\tglobal").map(|a| a.width), Ok(280), "the width is clamped");
        assert_eq!(
            Ask::decode("capacity=0\t\tip\t0.1\t600\tglobal").unwrap_err(),
            "the policy is not a scenario of this build's query format"
        );
        assert!(Ask::decode("just one field").is_err());
        assert!(Ask::decode("capacity=5\t\tip\t0.1\t600\tinstance:0:rr").unwrap_err().contains("from 1 to 1024"));
    }
}
