//! Stand-ins for parts of `std` and `core`, kept apart from the engine's domain files. Each one
//! does what the library call it replaces does (a test pins it to that call), either exactly
//! where the library is not (the same bits natively and in WebAssembly: [`ieee_math`], exact
//! decimals: [`decimal`]) or in less code for the web modules ([`nearest`],
//! [`within`], [`quote`]); each module says what it replaces and why.

pub mod decimal;
pub mod ieee_math;
pub mod nearest;
pub mod quote;
pub mod within;
