//! The log panel's own markup, kept out of the page's reactive code to keep the page's wasm
//! small: the controls as one static block ([`CONTROLS`], wired by one delegated listener per
//! event type), what the panel's options read as ([`Settings::read`], the outlier rule or a
//! target share, clamping a bad target with a notice that names it), and the status line (progress and Cancel, the error, what was
//! analysed, a stale policy) as a function of what the worker has said ([`status`]).

use super::wire::Phase;
use crate::markup::escape;
use crate::present::units::{format_number, format_secs, group_thousands};
use crate::sim::logs::scope::{Placement, Scope, MAX_INSTANCES};
use crate::sim::logs::sizing::Objective;
use crate::sim::logs::{KeyBy, LogFormat};

/// The controls: file picker and drop zone, the samples, the privacy note, the options and how
/// stamps are read. Ids are what the panel's listeners and the tests look for.
pub const CONTROLS: &str = r#"<p class="hint">Replay your own access log through the policy above, one limiter per client as real limiters keep, and find the smallest policy that leaves your legitimate clients alone.</p>
<div class="log-drop" id="log-drop">
<label class="file"><span>Choose access logs</span><input type="file" id="log-file" multiple></label>
<span class="muted">or drop them here (gzip too; several are merged by time). Or try</span>
<button type="button" class="link-button" id="log-sample-api" data-sample="api">an API with three scrapers and a cron burst</button>
<button type="button" class="link-button" id="log-sample-login" data-sample="login">a login under credential stuffing</button>
</div>
<p class="privacy" id="log-privacy">Nothing is uploaded: the log is read by this page, inside your browser, and never leaves it. It works offline.</p>
<div class="log-options">
<label><span>Limit per</span><select id="log-key" name="key"><option value="ip">client IP</option><option value="path">path</option><option value="field">a field (API key, user id…)</option><option value="global">everyone together (one key)</option></select></label>
<label id="log-field-label" hidden><span>Field</span><input type="text" id="log-field" size="12" value="api_key"></label>
<label><span>Format</span><select id="log-format" name="log_format"><option value="">detect from the first line</option><option value="combined">nginx/Apache combined or common</option><option value="msec">nginx with $msec first</option><option value="json">JSON lines</option><option value="csv">CSV with a header</option><option value="alb">AWS ALB</option><option value="cloudfront">AWS CloudFront</option><option value="times">one time per line (ms)</option></select></label>
<label id="log-time-label" hidden><span>Time field</span><input type="text" id="log-time-field" size="10" placeholder="time, ts, @timestamp…"></label>
<label><span>Recommend</span><select id="log-objective" name="objective"><option value="outliers">the tightest that spares your usual clients</option><option value="target">at most a share of keys throttled</option></select></label>
<label id="log-target-label" hidden><span>At most</span><input type="number" id="log-target" min="0" max="100" step="0.1" value="1"><span>% of keys</span></label>
<label><span>Counters</span><select id="log-scope" name="scope"><option value="global">one per client, shared by all servers</option><option value="instance">one per client on each server</option><option value="field">one per client and value of a field (a POP…)</option></select></label>
<label id="log-instances-label" hidden><span>Servers</span><input type="number" id="log-instances" min="1" max="1024" value="4"><select id="log-placement" aria-label="Placement"><option value="rr">round robin</option><option value="random">at random</option><option value="hash">by a hash of the client</option></select></label>
<label id="log-scope-field-label" hidden><span>Field</span><input type="text" id="log-scope-field" size="10" value="pop"></label>
</div>
<p class="hint">Logs with whole-second stamps (combined, ALB, CloudFront) get each client's n requests of one second spread evenly over it, 1/n apart, from a point fixed by the client's name. Lines up to 5 s out of order are put in order. Gzip files (<code>access.log.2.gz</code>, ALB and CloudFront logs) are read as they are; several files (a rotated set, one log per server) are merged by time. The same report from the command line: <code>ratelimit-sim --log FILE --key K --query Q</code> (repeat <code>--log</code> for each file; add <code>--sweep</code> for the sizing table).</p>"#;

/// How the log is read and judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// `None`: detected from the first line.
    pub format: Option<LogFormat>,
    /// What requests are limited by.
    pub key: KeyBy,
    /// What the recommendation must do.
    pub objective: Objective,
}

impl Settings {
    /// The settings from the controls' values (`time`: the time field of a JSON or CSV log, empty
    /// to find it; `objective`: `target` for the `target` share, anything else the outlier
    /// rule), and a notice for each value not used as given.
    ///
    /// ```
    /// use ratelimit_playground::present::log_report::panel::Settings;
    /// use ratelimit_playground::sim::logs::sizing::Objective;
    /// let (s, notices) = Settings::read("field", "user_id", "", "", "target", "250");
    /// assert_eq!((s.objective, notices[0].as_str()), (Objective::Target(1.0), "target: 250 is above 100 %; using 100 %"));
    /// assert_eq!(Settings::read("ip", "", "", "", "outliers", "250"), (Settings::read("ip", "", "", "", "", "").0, vec![]));
    /// ```
    pub fn read(
        key: &str,
        field: &str,
        format: &str,
        time: &str,
        objective: &str,
        target: &str,
    ) -> (Settings, Vec<String>) {
        let mut notices = Vec::new();
        let key = match (key, field.trim()) {
            ("field", "") => {
                notices.push("field: no field name given; limiting per client IP".to_string());
                KeyBy::Ip
            }
            ("field", name) => KeyBy::Field(name.to_string()),
            (other, _) => KeyBy::named(other).unwrap_or(KeyBy::Ip),
        };
        let format = match (format, time.trim()) {
            ("", _) => None,
            ("json" | "csv", t) if !t.is_empty() => LogFormat::named(&format!("{format}:{t}")).ok(),
            (f, _) => LogFormat::named(f).ok(),
        };
        if objective != "target" {
            return (Settings { format, key, objective: Objective::Outliers }, notices);
        }
        let target = match crate::sim::support::nearest::nearest_f64(target.trim()).ok_or(()) {
            Ok(p) if (0.0..=100.0).contains(&p) => p / 100.0,
            Ok(p) if p > 100.0 => {
                notices.push(format!("target: {p} is above 100 %; using 100 %"));
                1.0
            }
            Ok(p) if p < 0.0 => {
                notices.push(format!("target: {p} is below 0 %; using 0 %"));
                0.0
            }
            _ => {
                notices.push(format!("target: '{}' is not a percentage from 0 to 100; using 1 %", target.trim()));
                0.01
            }
        };
        (Settings { format, key, objective: Objective::Target(target) }, notices)
    }
}

/// Where the counters are kept, from the Counters controls (`scope`: `global`, `instance` or
/// `field`; `instances`, `placement` and `field` beside it), and a notice for a value not used as
/// given: an instance count is clamped to 1–1024.
///
/// ```
/// use ratelimit_playground::present::log_report::panel::read_scope;
/// use ratelimit_playground::sim::logs::scope::{Placement, Scope};
/// assert_eq!(read_scope("instance", "4", "hash", ""), (Scope::Instances { n: 4, placement: Placement::Hash }, vec![]));
/// assert_eq!(read_scope("instance", "0", "rr", "").1, ["instances: 0 is below 1; using 1"]);
/// assert_eq!(read_scope("field", "", "", " pop ").0, Scope::Field("pop".into()));
/// ```
pub fn read_scope(scope: &str, instances: &str, placement: &str, field: &str) -> (Scope, Vec<String>) {
    let mut notices = Vec::new();
    let scope = match scope {
        "instance" => {
            let n = match crate::sim::support::nearest::nearest_f64(instances.trim()) {
                Some(n) if n < 1.0 => {
                    notices.push(format!("instances: {n} is below 1; using 1"));
                    1
                }
                Some(n) if n > f64::from(MAX_INSTANCES) => {
                    notices.push(format!("instances: {n} is above {MAX_INSTANCES}; using {MAX_INSTANCES}"));
                    MAX_INSTANCES
                }
                Some(n) => n.round() as u32,
                None => {
                    notices.push(format!(
                        "instances: '{}' is not a whole number from 1 to {MAX_INSTANCES}; using 4",
                        instances.trim()
                    ));
                    4
                }
            };
            let placement = match placement {
                "random" => Placement::Random,
                "hash" => Placement::Hash,
                _ => Placement::RoundRobin,
            };
            Scope::Instances { n, placement }
        }
        "field" if field.trim().is_empty() => {
            notices.push("scope field: no field name given; one counter per client".to_string());
            Scope::Global
        }
        "field" => Scope::Field(field.trim().to_string()),
        _ => Scope::Global,
    };
    (scope, notices)
}

/// What the status line shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Status {
    /// The worker's progress, while it runs.
    pub progress: Option<(Phase, u64, u64)>,
    /// Why the last analysis failed or stopped.
    pub error: Option<String>,
    /// What was analysed, once reported.
    pub source: Option<String>,
    /// Notices about the options.
    pub notices: Vec<String>,
    /// Whether the playground's policy changed since the report.
    pub stale: bool,
}

/// What the page says under the Apply button once it has applied `policy` (in words): done, that
/// the report above is still the one before, and the next steps.
///
/// ```
/// use ratelimit_playground::present::log_report::panel::applied;
/// assert!(applied("burst 12 at 6/s").contains("now run <strong>burst 12 at 6/s</strong>"));
/// ```
pub fn applied(policy: &str) -> String {
    format!(
        "<p class=\"ok\" id=\"log-applied\" role=\"status\">Applied: the playground and the production panel now run <strong>{}</strong>. The report above is still the replay under the policy before (<button type=\"button\" class=\"link-button\" id=\"log-again\">replay the log under this one</button>). Next: <a href=\"#production\">its production config ↓</a>, or watch one of your clients under it just below.</p>",
        escape(policy)
    )
}

/// What the page says under the watch button once it replays `key`'s `requests` live under
/// `policy` (in words).
///
/// ```
/// use ratelimit_playground::present::log_report::panel::watching;
/// assert_eq!(
///     watching("10.0.0.<1>", 1200, "Token bucket, burst 10 at 5/s", 0.0),
///     "<p class=\"hint\" id=\"log-watching\" role=\"status\">↑ The playground above replays 10.0.0.&lt;1&gt;'s 1,200 requests under Token bucket, burst 10 at 5/s.</p>"
/// );
/// assert!(watching("k", 3, "p", 17.5).contains("from t = 17.5 s: a second before its first request"));
/// ```
pub fn watching(key: &str, requests: u64, policy: &str, from_s: f64) -> String {
    let from = if from_s > 0.0 {
        format!(
            ", from t = {}: a second before its first request (the replay keeps the window that request falls in; \
             the quiet time before it is computed at once)",
            format_secs(from_s)
        )
    } else {
        String::new()
    };
    format!(
        "<p class=\"hint\" id=\"log-watching\" role=\"status\">↑ The playground above replays {}'s {} requests under {}{from}.</p>",
        escape(key),
        group_thousands(requests),
        escape(policy)
    )
}

/// The status line's markup.
pub fn status(s: &Status) -> String {
    let mut out = String::new();
    for n in &s.notices {
        out.push_str(&format!("<p class=\"error\" role=\"status\">{}</p>", escape(n)));
    }
    if let Some((phase, done, total)) = s.progress {
        let (name, text) = match phase {
            Phase::Read => (
                "read",
                format!(
                    "Reading and replaying: {} of {} MB",
                    format_number(done as f64 / 1e6),
                    format_number(total as f64 / 1e6)
                ),
            ),
            Phase::Sweep => ("sweep", format!("Sizing: policy {done} of {total}")),
        };
        out.push_str(&format!(
            "<div class=\"log-progress\" id=\"log-progress\" data-phase=\"{name}\"><progress max=\"{}\" value=\"{done}\"></progress><span role=\"status\">{text}</span><button type=\"button\" id=\"log-cancel\">Cancel</button></div>",
            total.max(1)
        ));
    }
    if let Some(e) = &s.error {
        out.push_str(&format!("<p class=\"error\" id=\"log-error\" role=\"alert\">{}</p>", escape(e)));
    }
    if let Some(src) = &s.source {
        out.push_str(&format!("<p class=\"hint\" id=\"log-source\">Analysed: {}</p>", escape(src)));
    }
    if s.stale {
        out.push_str("<p class=\"hint stale\" id=\"log-stale\">The playground's policy has changed since this analysis. <button type=\"button\" class=\"link-button\" id=\"log-again\">Analyse again</button></p>");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_read_as_given_or_are_named() {
        let (s, n) = Settings::read("path", "", "json", "", "target", "2.5");
        assert_eq!(
            (s.key, s.format, s.objective, n.len()),
            (KeyBy::Path, Some(LogFormat::Json(None)), Objective::Target(0.025), 0)
        );
        let (s, _) = Settings::read("ip", "", "csv", "when", "outliers", "1");
        assert_eq!(s.format, Some(LogFormat::Csv(Some("when".into()))), "a CSV log's time column, named");
        let (s, n) = Settings::read("field", " ", "", "", "target", "-3");
        assert_eq!((s.key, s.objective), (KeyBy::Ip, Objective::Target(0.0)));
        assert!(n[0].starts_with("field: ") && n[1].starts_with("target: -3 is below 0"), "{n:?}");
        assert_eq!(
            Settings::read("ip", "", "", "", "target", "lots").1,
            ["target: 'lots' is not a percentage from 0 to 100; using 1 %"]
        );
    }

    #[test]
    fn the_status_shows_progress_with_cancel_and_escapes_errors() {
        let running = status(&Status { progress: Some((Phase::Read, 5_000_000, 20_000_000)), ..Status::default() });
        assert!(
            running.contains("value=\"5000000\"")
                && running.contains("5 of 20 MB")
                && running.contains("id=\"log-cancel\"")
        );
        let failed = status(&Status { error: Some("log line 3: <script>".into()), stale: true, ..Status::default() });
        assert!(
            failed.contains("log line 3: &lt;script&gt;")
                && failed.contains("id=\"log-again\"")
                && !failed.contains("log-cancel")
        );
    }
}
