//! [`Product`]: everything the playground knows about one real limiter, in one value — its
//! name in links, its model (which also says what the product sends on the wire:
//! [`crate::sim::Limiter::reject_status`] and [`crate::sim::Limiter::headers`]), its exported
//! configuration and its explanation. Each product's module defines one; [`super::REGISTRY`]
//! lists them.

use super::key::ProductKey;
use super::options::ProductOptions;
use super::policy::{Policy, Shape};
use crate::sim::algorithm::Algorithm;
use crate::sim::limiter::Model;

/// One real limiter, as the playground models, exports, explains and answers for it.
pub struct Product {
    /// Its `algo=` value in links and the CLI, e.g. `nginx`.
    pub key: &'static str,
    /// Its label in the product picker, e.g. "nginx limit_req".
    pub label: &'static str,
    /// Its name in prose, e.g. "nginx", "Upstash".
    pub name: &'static str,
    /// The production panel's tab that exports its configuration, as `--export` names it. Several
    /// products may share a tab (Upstash's three limiters): [`Product::runs`] says which runs it.
    pub export: &'static str,
    /// The policy shapes for which the tab's configuration is this product (every shape when
    /// the tab is this product's alone).
    pub runs: &'static [Shape],
    /// The textbook algorithm it implements.
    pub textbook: Textbook,
    /// The real software, at the version `make test` runs against its model (tests/real/;
    /// `tests/real/versions.rs` checks it is the one installed); `None` for a model read from
    /// source or documentation only (Envoy, Kong, managed services), which says so where it appears.
    pub checked: Option<&'static str>,
    /// Its own query keys (nginx's `nodelay`, …), read and written through
    /// [`ProductOptions`]; a key may be shared with another entry of the same product.
    pub keys: &'static [ProductKey],
    /// Builds its model running the configuration [`Product::config`] exports for the policy.
    pub model: Build,
    /// The configuration to paste, for the policy.
    pub config: fn(&Policy, &ProductOptions) -> Config,
    /// Why it decides differently from its textbook algorithm under this configuration: the
    /// roundings and clocks its model applies, in words.
    pub reason: fn(&Policy, &ProductOptions) -> String,
    /// What it does, in a few plain sentences, shown under the charts.
    pub explanation: Explanation,
    /// Its own on/off knobs, shown while it runs.
    pub toggles: &'static [Toggle],
    /// A choice among a key's names, shown as a menu while it runs (the Lua script's).
    pub choice: Option<Choice>,
    /// How it differs where engineers ask before choosing one: the table in docs/products.md and on
    /// the page ([`crate::present::differences`]).
    pub traits: Traits,
}

/// What a product does where limiters differ most, each in a few words: the columns of the
/// differences table, one row per product.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Traits {
    /// The clock it decides on: "ms", "whole s", "float s".
    pub clock: &'static str,
    /// Where its windows start: "the client's first request", "the Unix epoch", or what it has
    /// instead ("no window: a token bucket").
    pub starts: &'static str,
    /// Whether refused requests count against the client.
    pub refused: &'static str,
    /// What a 429 (or its refusal) says about when to retry.
    pub retry_after: &'static str,
    /// Where the counts live, so what a restart loses.
    pub state: &'static str,
}

/// The textbook algorithm a product implements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Textbook {
    /// Always this one.
    Is(Algorithm),
    /// The one this key of its own names: its values are textbook algorithms (`Algorithm as u64`).
    ChosenBy(&'static ProductKey),
}

/// How a product's model is built for a policy.
pub type Build = fn(&Policy, &ProductOptions) -> Box<dyn Model>;

/// A product's on/off knob (nginx's `nodelay`, Envoy's timer bucket), drawn as a checkbox: it
/// is on while its key has the value `on`, and turning it off sets `off`.
pub struct Toggle {
    /// The checkbox's element id.
    pub id: &'static str,
    /// What it says.
    pub label: &'static str,
    /// The key it sets.
    pub key: &'static ProductKey,
    /// The key's value when on.
    pub on: u64,
    /// The key's value when off.
    pub off: u64,
}

/// A menu of a key's names (the Lua script the Redis Lua model runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The `<select>`'s element id.
    pub id: &'static str,
    /// Its label.
    pub label: &'static str,
    /// The key it sets: one option per name of [`super::key::KeyKind::Names`].
    pub key: &'static ProductKey,
    /// What each option says, in the order of the key's names.
    pub labels: &'static [&'static str],
}

/// One target's configuration for a policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The product, e.g. "nginx limit_req".
    pub target: &'static str,
    /// The snippet's language, for highlighting: "nginx", "yaml", "rust", "js", "lua",
    /// "go", "redis" (a redis.conf line and a command).
    pub language: &'static str,
    /// The configuration to paste.
    pub snippet: String,
    /// Units, burst semantics, and anything rounded or approximated.
    pub notes: Vec<String>,
}

/// A short explanation: a heading and two to four sentences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// Heading, e.g. "How the token bucket behaves".
    pub title: &'static str,
    /// The sentences, each ending in a full stop.
    pub sentences: &'static [&'static str],
}

/// [`Product::runs`] for a product that is its tab's only one.
pub const EVERY_SHAPE: &[Shape] = &[Shape::Bucket, Shape::FixedWindow, Shape::SlidingWindow, Shape::SlidingLog];
