//! [`Capabilities`]: what a build of the engine can run, as a value its entry point hands in.
//!
//! Three parts of the engine are optional: the products' models (with the leaky bucket's queue,
//! which is built as theirs), the shared store (its modes, the replica, sharded keys, Kong's
//! sync), and what stands behind and around a limiter (the server, the clients' retry gate, a
//! spike). The engine reaches each only through a field of the [`Capabilities`] it was made
//! with, so a browser module whose entry leaves a field empty links none of that part's code.
//!
//! A scenario that needs a part its capabilities lack is refused with [`Lacking`] before
//! anything runs ([`Capabilities::check`], which [`Simulation::try_new`](crate::sim::Simulation::try_new)
//! calls): a module runs a scenario exactly as every other module does, or not at all, and its
//! caller hands the scenario to a module that has the part. Native builds (the CLI, the tests)
//! use [`Capabilities::ALL`]; `tests/capabilities.rs` runs every module's set over the golden
//! scenarios and finds the same bytes as [`Capabilities::ALL`] or a refusal.

use std::fmt;

use super::{server, shared};
use crate::sim::limiter::Model;
use crate::sim::products::{Policy, ProductOptions};
use crate::sim::scenario::{Scenario, StoreMode};

/// Builds the model of the registry's product at an index (one past the registry: the leaky
/// bucket's queue) for a policy and the product's options.
pub type BuildModel = fn(usize, &Policy, &ProductOptions) -> Box<dyn Model>;

/// An optional part of the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The products' models and the leaky bucket's queue (`algo=nginx`, `algo=leaky_bucket`).
    Models,
    /// A store shared by several nodes (`store=` anything but `local`).
    SharedStore,
    /// A server behind the limiter, the clients' retry gate, a spike (`workers`, `retry_budget`,
    /// `retry_breaker`, `spike`).
    Server,
}

impl Part {
    /// Every part, in the order [`Capabilities::check`] looks for them.
    pub const ALL: [Part; 3] = [Part::Models, Part::SharedStore, Part::Server];

    /// The part in words, for a message.
    pub fn words(self) -> &'static str {
        match self {
            Part::Models => "the products' models",
            Part::SharedStore => "the shared store",
            Part::Server => "the server behind the limiter",
        }
    }
}

/// A scenario needs a part of the engine that this build was not given: it is refused, never
/// run without it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lacking(pub Part);

impl fmt::Display for Lacking {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "this scenario needs {}, which this module does not have", self.0.words())
    }
}

impl std::error::Error for Lacking {}

/// What an engine can run: the optional parts it was given. Cheap to copy.
///
/// ```
/// use ratelimit_playground::sim::engine::capabilities::{Capabilities, Lacking, Part};
/// use ratelimit_playground::sim::Scenario;
/// let nginx = Scenario::from_query("algo=nginx").unwrap();
/// assert_eq!(Capabilities::ONE_LIMITER.check(&nginx), Err(Lacking(Part::Models)));
/// assert_eq!(Capabilities::ONE_LIMITER.with_models().check(&nginx), Ok(()));
/// let race = Scenario::from_query("nodes=4&store=race").unwrap();
/// assert_eq!(Capabilities::ONE_LIMITER.with_models().check(&race), Err(Lacking(Part::SharedStore)));
/// assert_eq!(Capabilities::ALL.check(&race), Ok(()));
/// ```
#[derive(Clone, Copy)]
pub struct Capabilities {
    models: Option<BuildModel>,
    shared: Option<&'static shared::Ops>,
    behind: Option<&'static server::Ops>,
}

impl Capabilities {
    /// One limiter of a textbook algorithm on local nodes, with nothing behind it.
    pub const ONE_LIMITER: Capabilities = Capabilities { models: None, shared: None, behind: None };

    /// Every part: what native builds use.
    pub const ALL: Capabilities = Capabilities::ONE_LIMITER.with_models().with_shared_store().with_server();

    /// These capabilities and the products' models.
    pub const fn with_models(self) -> Capabilities {
        Capabilities { models: Some(crate::sim::products::models::build), ..self }
    }

    /// These capabilities and the shared store.
    pub const fn with_shared_store(self) -> Capabilities {
        Capabilities { shared: Some(&shared::OPS), ..self }
    }

    /// These capabilities and the server behind the limiter.
    pub const fn with_server(self) -> Capabilities {
        Capabilities { behind: Some(&server::OPS), ..self }
    }

    /// Whether these capabilities include `part`.
    pub fn has(&self, part: Part) -> bool {
        match part {
            Part::Models => self.models.is_some(),
            Part::SharedStore => self.shared.is_some(),
            Part::Server => self.behind.is_some(),
        }
    }

    /// Whether `sc` needs `part` and these capabilities lack it.
    pub fn lacks(&self, sc: &Scenario, part: Part) -> bool {
        needs(sc, part) && !self.has(part)
    }

    /// The first part `sc` needs that these capabilities lack, as an error.
    pub fn check(&self, sc: &Scenario) -> Result<(), Lacking> {
        match Part::ALL.into_iter().find(|&part| self.lacks(sc, part)) {
            Some(part) => Err(Lacking(part)),
            None => Ok(()),
        }
    }

    /// How to build a product's model, if these capabilities have them.
    pub(crate) fn models(&self) -> Result<BuildModel, Lacking> {
        self.models.ok_or(Lacking(Part::Models))
    }

    /// The shared store's operations, if these capabilities have them.
    pub(crate) fn shared(&self) -> Option<&'static shared::Ops> {
        self.shared
    }

    /// The server's operations, if these capabilities have them.
    pub(crate) fn behind(&self) -> Option<&'static server::Ops> {
        self.behind
    }
}

impl fmt::Debug for Capabilities {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(Part::ALL.into_iter().filter(|&p| self.has(p))).finish()
    }
}

/// Whether running `sc` needs `part`.
pub fn needs(sc: &Scenario, part: Part) -> bool {
    match part {
        Part::Models => !sc.algo.in_first_modules(),
        Part::SharedStore => sc.store != StoreMode::Local,
        Part::Server => crate::sim::server::wanted(&sc.product),
    }
}
