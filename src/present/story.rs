//! [`Story`]: a one-click scenario with what to watch in it — the server view's stories of what
//! a limiter protects ([`super::server::presets`]) and the multi-node view's of a failing store
//! ([`super::cluster::failures`]). Each set is held to what it claims by a test of its own.

/// One story: a scenario and how to read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Story {
    /// Its button's element id.
    pub id: &'static str,
    /// What its button says.
    pub label: &'static str,
    /// The scenario, as a query.
    pub query: &'static str,
    /// What to watch, in a sentence or two.
    pub watch: &'static str,
}
