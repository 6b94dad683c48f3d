//! The multi-node view's plain-Rust parts: its presets and choices, the readouts of a run
//! (admissions against one exact limiter, decision latency, what an outage lets through), the
//! stories of a failing store, the edge design's sweep, the code each store mode executes and the
//! table measured on a real Redis. As everywhere, every number comes from the engine in [`crate::sim`].

pub mod choices;
pub mod code;
pub mod failures;
pub mod keys;
pub mod measured;
pub mod modes;
pub mod outage;
pub mod pictures;
pub mod presets;
pub mod readout;
pub mod redis_measured;
pub mod sweep;
