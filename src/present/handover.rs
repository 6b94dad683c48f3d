//! What the page's first module hands the whole page's module when it gives way to it (see
//! `app::whole_page`): what the address does not say. The scenario and the view travel in the
//! address, as for any link; whether the user had paused, the speed they chose, the simulated
//! moment reached, how far the page was scrolled, which control had the keyboard focus, and which
//! button the visitor pressed or option they chose to ask for the whole page travel in a short
//! text the whole page reads once as it mounts. (A replayed trace, which no address holds, is
//! never handed over: the light page has no trace tools, and choosing "Replay my traffic" is
//! what it hands over.)

use crate::present::folds::Folds;
use crate::present::options::SPEEDS;
use crate::sim::query::raw_pairs;

/// The longest element id the handover carries for the focus.
const MAX_ID: usize = 40;

/// The playback state and focus of the page that is handing over.
#[derive(Clone, Debug, PartialEq)]
pub struct Handover {
    /// Whether the user wanted the simulation to play.
    pub running: bool,
    /// Simulated seconds per real second: one of [`SPEEDS`].
    pub speed: f64,
    /// The simulated time the light page had reached, in nanoseconds: the whole page computes
    /// up to it at once, so the run goes on where it was (the engine is deterministic).
    pub at_ns: u64,
    /// How far the page was scrolled, in whole CSS pixels.
    pub scroll: u32,
    /// The id of the element that had the keyboard focus, if it had one.
    pub focus: Option<String>,
    /// The id of the button the whole page presses once mounted: the one the visitor pressed on
    /// the light page's stand-in (an export, Embed).
    pub click: Option<String>,
    /// A `<select>` (its id) and the option (its value) the whole page chooses once mounted: the
    /// choice the visitor made on the light page that it cannot show ("Replay my traffic").
    pub choose: Option<(String, String)>,
    /// The panels the visitor had opened, per view: the whole page opens the same ones.
    pub folds: Folds,
}

impl Handover {
    /// The text form: `running=1&speed=2&at=1500000000&scroll=0&focus=mode-cluster` (the speed
    /// as its index in [`SPEEDS`], so no float is printed or parsed).
    pub fn encode(&self) -> String {
        let speed = SPEEDS.iter().position(|&s| s == self.speed).unwrap_or(2);
        let mut text =
            format!("running={}&speed={speed}&at={}&scroll={}", u8::from(self.running), self.at_ns, self.scroll);
        let plain = |id: &Option<String>| id.clone().filter(|id| plain_id(id));
        let choose = self.choose.as_ref().filter(|(id, value)| plain_id(id) && plain_id(value));
        let choose = choose.map(|(id, value)| format!("{id}.{value}"));
        let folds = Some(self.folds.encode()).filter(|text| !text.is_empty());
        for (key, value) in
            [("focus", plain(&self.focus)), ("click", plain(&self.click)), ("choose", choose), ("panels", folds)]
        {
            if let Some(id) = value {
                text.push('&');
                text.push_str(key);
                text.push('=');
                text.push_str(&id);
            }
        }
        text
    }

    /// Opening on a moment of a run, playing or paused, at normal speed, at the top of the
    /// page: what a link with `t=` asks of the whole page (an embed's "Open in the playground ↗").
    pub fn at_moment(at_ns: u64, running: bool) -> Handover {
        Handover {
            running,
            speed: 1.0,
            at_ns,
            scroll: 0,
            focus: None,
            click: None,
            choose: None,
            folds: Folds::default(),
        }
    }

    /// Reads [`encode`](Self::encode)'s text; `None` if it is anything else.
    pub fn decode(text: &str) -> Option<Handover> {
        let mut handover = Handover::at_moment(0, true);
        let (mut running, mut speed, mut at, mut scroll) = (false, false, false, false);
        for pair in raw_pairs(text) {
            match pair {
                ("running", "0") => (handover.running, running) = (false, true),
                ("running", "1") => (handover.running, running) = (true, true),
                ("speed", i) => {
                    handover.speed = *SPEEDS.get(i.parse::<usize>().ok()?)?;
                    speed = true;
                }
                ("at", ns) => (handover.at_ns, at) = (ns.parse().ok()?, true),
                ("scroll", px) => (handover.scroll, scroll) = (px.parse().ok()?, true),
                ("focus", id) if plain_id(id) => handover.focus = Some(id.to_string()),
                ("click", id) if plain_id(id) => handover.click = Some(id.to_string()),
                ("panels", text) => handover.folds = Folds::decode(text),
                ("choose", choice) => {
                    let (id, value) = choice.split_once('.').filter(|(id, value)| plain_id(id) && plain_id(value))?;
                    handover.choose = Some((id.to_string(), value.to_string()));
                }
                _ => return None,
            }
        }
        (running && speed && at && scroll).then_some(handover)
    }
}

/// An id of the page's own kind: short, lower-case letters, digits, dashes and underscores (the
/// algorithm picker's `algo-leaky_bucket`).
fn plain_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID
        && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::share::link::LinkView;

    #[test]
    fn a_handover_reads_back_as_it_was_written() {
        for (running, speed, at_ns, scroll, focus, click, choose) in [
            (false, 100.0, 0, 0, Some("mode-cluster"), None, None),
            (true, 0.25, 1_500_000_001, 912, None, Some("export-png"), None),
            (true, 1.0, u64::MAX, u32::MAX, Some("nodes"), Some("embed"), None),
            (true, 1.0, 5, 0, Some("traffic"), None, Some(("traffic", "trace"))),
            (true, 1.0, 0, 40, Some("algo-leaky_bucket"), None, None),
        ] {
            let (focus, click) = (focus.map(str::to_string), click.map(str::to_string));
            let choose = choose.map(|(id, value): (&str, &str)| (id.to_string(), value.to_string()));
            let mut folds = Folds::default();
            folds.set(LinkView::Cluster, "modes-card", running);
            folds.set(LinkView::Single, "server", true);
            let h = Handover { running, speed, at_ns, scroll, focus, click, choose, folds };
            assert_eq!(Handover::decode(&h.encode()), Some(h.clone()), "{}", h.encode());
        }
    }

    #[test]
    fn a_focus_that_is_not_a_plain_id_is_left_out() {
        let odd = Some("x\"><script>".to_string());
        let choose = Some(("traffic".to_string(), "a.b".to_string()));
        let folds = Folds::default();
        let h =
            Handover { running: true, speed: 1.0, at_ns: 7, scroll: 0, focus: odd.clone(), click: odd, choose, folds };
        assert_eq!(h.encode(), "running=1&speed=2&at=7&scroll=0");
    }

    #[test]
    fn anything_but_a_handover_is_refused() {
        for text in [
            "",
            "running=1",
            "speed=2",
            "running=1&speed=2",
            "running=1&speed=2&at=0",
            "running=2&speed=2&at=0&scroll=0",
            "running=1&speed=9&at=0&scroll=0",
            "running=1&speed=2&at=0&scroll=0&x=1",
            "running=1&speed=2&at=0&scroll=0&focus=A",
            "running=1&speed=2&at=0&scroll=0&click=a b",
            "running=1&speed=2&at=0&scroll=0&choose=traffic",
            "running=1&speed=2&at=0&scroll=0&choose=traffic.Trace",
            "running=1&speed=2&at=0&scroll=0&choose=.trace",
            "running=1&speed=2&at=-1&scroll=0",
            "running=1&speed=2&at=0&scroll=1.5",
            "running=1&speed=2&at=18446744073709551616&scroll=0",
            "running=1&speed=-1&at=0&scroll=0",
            "running",
        ] {
            assert_eq!(Handover::decode(text), None, "{text}");
        }
    }
}
