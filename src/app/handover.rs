//! What the page's first module hands the whole page's module when it gives way to it (see
//! `app::whole_page`): what the address does not say. The scenario and the view travel in the
//! address, as for any link; whether the user had paused, the speed they chose, and which control
//! had the keyboard focus travel in a short text the whole page reads once as it mounts.

use super::options::SPEEDS;

/// The longest element id the handover carries for the focus.
const MAX_ID: usize = 40;

/// The playback state and focus of the page that is handing over.
#[derive(Clone, Debug, PartialEq)]
pub struct Handover {
    /// Whether the user wanted the simulation to play.
    pub running: bool,
    /// Simulated seconds per real second: one of [`SPEEDS`].
    pub speed: f64,
    /// The id of the element that had the keyboard focus, if it had one.
    pub focus: Option<String>,
}

impl Handover {
    /// The text form: `running=1&speed=2&focus=mode-cluster` (the speed as its index in
    /// [`SPEEDS`], so no float is printed or parsed).
    pub fn encode(&self) -> String {
        let speed = SPEEDS.iter().position(|&s| s == self.speed).unwrap_or(2);
        let mut text = format!("running={}&speed={speed}", u8::from(self.running));
        if let Some(id) = self.focus.as_deref().filter(|id| plain_id(id)) {
            text.push_str("&focus=");
            text.push_str(id);
        }
        text
    }

    /// Reads [`encode`](Self::encode)'s text; `None` if it is anything else.
    pub fn decode(text: &str) -> Option<Handover> {
        let mut handover = Handover { running: true, speed: 1.0, focus: None };
        let (mut running, mut speed) = (false, false);
        for pair in text.split('&') {
            match pair.split_once('=')? {
                ("running", "0") => (handover.running, running) = (false, true),
                ("running", "1") => (handover.running, running) = (true, true),
                ("speed", i) => {
                    handover.speed = *SPEEDS.get(i.parse::<usize>().ok()?)?;
                    speed = true;
                }
                ("focus", id) if plain_id(id) => handover.focus = Some(id.to_string()),
                _ => return None,
            }
        }
        (running && speed).then_some(handover)
    }
}

/// An id of the page's own kind: short, lower-case letters, digits and dashes.
fn plain_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID
        && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_handover_reads_back_as_it_was_written() {
        for (running, speed, focus) in
            [(false, 100.0, Some("mode-cluster")), (true, 0.25, None), (true, 1.0, Some("nodes"))]
        {
            let h = Handover { running, speed, focus: focus.map(str::to_string) };
            assert_eq!(Handover::decode(&h.encode()), Some(h.clone()), "{}", h.encode());
        }
    }

    #[test]
    fn a_focus_that_is_not_a_plain_id_is_left_out() {
        let h = Handover { running: true, speed: 1.0, focus: Some("x\"><script>".to_string()) };
        assert_eq!(h.encode(), "running=1&speed=2");
    }

    #[test]
    fn anything_but_a_handover_is_refused() {
        for text in [
            "",
            "running=1",
            "speed=2",
            "running=2&speed=2",
            "running=1&speed=9",
            "running=1&speed=2&x=1",
            "running=1&speed=2&focus=A",
            "running=1&speed=-1",
            "running",
        ] {
            assert_eq!(Handover::decode(text), None, "{text}");
        }
    }
}
