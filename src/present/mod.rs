//! What is shown, in plain Rust: the engine's runs turned into what the page, an embed, the CLI
//! and the log worker show — the runner that drives the engine frame by frame and the snapshots
//! it reads out, chart data, labels and explanations, the link and its cards, the still pictures,
//! exports and snippets, the multi-node view's readouts and the log report. No Leptos and no
//! web APIs: it compiles natively and is tested without a browser; [`crate::app`] renders it in
//! the browser, `ratelimit-sim` prints it, the log worker sends it to the page.

pub mod chart_data;
pub mod clock;
pub mod cluster;
pub mod differences;
pub mod every_product;
pub mod explain;
pub mod explain_products;
pub mod folds;
pub mod handover;
pub mod log_report;
pub mod modules;
pub mod options;
pub mod runner;
pub mod seam;
pub mod server;
pub mod share;
pub mod snapshot;
pub mod story;
pub mod tour;
pub mod units;
