//! The animation's fixed-step clock. Real milliseconds × speed accumulate into simulated time,
//! which is released to the engine in whole fixed steps, at most [`MAX_STEPS`] per frame; what
//! exceeds that is dropped, so a slow frame (or a slow device at 100×) can never make the next
//! frame do more work than the last: no spiral of death.

use crate::sim::support::within::within;
use crate::sim::Nanos;

/// One simulation step: 10 ms of simulated time.
pub const STEP: Nanos = Nanos::from_millis(10);

/// Most real time a single frame may count, so a frame after a long stall is not a burst.
pub const MAX_FRAME_MS: f64 = 100.0;

/// Most steps one frame may release: 2.5 s simulated, enough for 100× at 40 frames per second.
pub const MAX_STEPS: u32 = 250;

/// Slowest and fastest speed offered (simulated seconds per real second).
pub const SPEED_RANGE: (f64, f64) = (0.25, 100.0);

/// The accumulator between frames: simulated nanoseconds owed but not yet a whole step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FixedStep {
    owed_ns: f64,
}

impl FixedStep {
    /// A clock with nothing owed.
    pub fn new() -> Self {
        FixedStep::default()
    }

    /// Accounts for one frame of `real_ms` (clamped to [`MAX_FRAME_MS`]) at `speed` (clamped to
    /// [`SPEED_RANGE`]) and returns how many [`STEP`]s to run now. Anything owed beyond
    /// [`MAX_STEPS`] is dropped, not carried into the next frame.
    ///
    /// ```
    /// use ratelimit_playground::present::clock::{FixedStep, MAX_STEPS};
    /// let mut clock = FixedStep::new();
    /// assert_eq!(clock.tick(16.0, 1.0), 1); // 16 ms: one 10 ms step, 6 ms carried
    /// assert_eq!(clock.tick(16.0, 1.0), 2); // 22 ms owed: two steps
    /// assert_eq!(clock.tick(100.0, 100.0), MAX_STEPS); // 10 s owed: capped
    /// assert_eq!(clock.tick(0.0, 100.0), 0); // ... and the excess is gone
    /// ```
    pub fn tick(&mut self, real_ms: f64, speed: f64) -> u32 {
        let real_ms = if real_ms.is_finite() { within(real_ms, 0.0, MAX_FRAME_MS) } else { 0.0 };
        let speed = if speed.is_finite() { within(speed, SPEED_RANGE.0, SPEED_RANGE.1) } else { 1.0 };
        self.owed_ns += real_ms * 1e6 * speed;
        let step = STEP.as_nanos() as f64;
        let whole = (self.owed_ns / step).floor();
        if whole > f64::from(MAX_STEPS) {
            self.owed_ns = 0.0;
            return MAX_STEPS;
        }
        self.owed_ns -= whole * step;
        whole as u32
    }

    /// Forgets whatever is owed (after a pause, a reset or a jump).
    pub fn reset(&mut self) {
        self.owed_ns = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_real_second_at_each_speed_releases_that_many_simulated_seconds() {
        for speed in [0.25, 1.0, 10.0, 100.0] {
            let mut clock = FixedStep::new();
            let steps: u32 = (0..60).map(|_| clock.tick(1000.0 / 60.0, speed)).sum();
            let simulated = f64::from(steps) * STEP.as_secs_f64();
            assert!((simulated - speed).abs() <= STEP.as_secs_f64() + 1e-9, "{speed}×: {simulated} s");
        }
    }

    #[test]
    fn a_stalled_frame_counts_at_most_max_frame_ms() {
        let mut clock = FixedStep::new();
        assert_eq!(clock.tick(60_000.0, 1.0), 10, "a minute-long stall counts as 100 ms");
    }

    #[test]
    fn excess_beyond_the_cap_is_dropped_not_carried() {
        let mut clock = FixedStep::new();
        assert_eq!(clock.tick(100.0, 100.0), MAX_STEPS);
        assert_eq!(clock.tick(5.0, 1.0), 0, "nothing carried over from the capped frame");
    }

    #[test]
    fn nonsense_inputs_release_nothing() {
        let mut clock = FixedStep::new();
        assert_eq!(clock.tick(f64::NAN, 1.0), 0);
        assert_eq!(clock.tick(-50.0, 1.0), 0);
        assert_eq!(clock.tick(f64::INFINITY, 1.0), 0);
    }
}
