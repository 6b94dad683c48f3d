//! [`Clock`]: the run's one clock, mapping the wall clock to the scenario's time (scaled by
//! `--speed`) in integer nanoseconds since the start.

use std::time::{Duration, Instant};

/// Wall time since the run started, times `speed`.
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    origin: Instant,
    speed: f64,
}

impl Clock {
    /// A clock starting now; `speed` > 0 scenario seconds per wall second.
    pub fn start(speed: f64) -> Clock {
        Clock { origin: Instant::now(), speed }
    }

    /// Scenario nanoseconds now.
    pub fn now(&self) -> u64 {
        self.scenario(self.origin.elapsed())
    }

    /// A wall duration in scenario nanoseconds.
    pub fn scenario(&self, wall: Duration) -> u64 {
        (wall.as_nanos() as f64 * self.speed) as u64
    }

    /// A scenario duration in wall time.
    pub fn wall(&self, scenario_ns: u64) -> Duration {
        Duration::from_nanos((scenario_ns as f64 / self.speed) as u64)
    }

    /// The wall instant of scenario time `t`.
    pub fn instant(&self, t: u64) -> Instant {
        self.origin + self.wall(t)
    }
}
