//! The user's own traffic: access logs read as arrivals per client ([`reader`], fed by [`chunks`], in the formats
//! of [`format`], with the timestamps of [`stamp`]) and replayed through one limiter per key in
//! shadow mode ([`shadow`]): who would have got a 429 under a policy; the sizing assistant
//! ([`sizing`]) sweeps the policy's two numbers ([`policy`]) over the same arrivals. [`job`] is
//! one analysis as the page's worker runs it. Pure and streaming: a log of any size is read line
//! by line, holding a few seconds of it and the per-key counts. [`watch`] makes the heaviest keys
//! traces the live playground replays. [`per_key`] replays one key's requests on their own, in
//! any order: what a cluster runs per group. [`dry_run`] checks the nginx model against nginx's
//! own `limit_req_dry_run` log. [`scope`] keeps the counters where a product keeps them: per
//! instance or per value of a log field.

pub mod chunks;
pub mod csv;
pub mod dry_run;
pub mod entry;
pub mod error;
pub mod fields;
pub mod format;
pub mod job;
pub mod keys;
pub mod merge;
pub mod order;
pub mod output;
pub mod per_key;
pub mod policy;
pub mod reader;
pub mod samples;
pub mod scope;
pub mod shadow;
pub mod sizing;
pub mod stamp;
pub mod watch;

pub use error::LogError;
pub use format::LogFormat;
pub use reader::KeyBy;
pub use shadow::{shadow, ShadowReport};
