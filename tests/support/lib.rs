//! Shared test support: an independent reference solver, seeded random generators and
//! helpers that check a returned path step by step.
//!
//! The reference solver deliberately shares no clearance or search code with the engine: it
//! checks every cell of every footprint directly on the raw terrain and runs a plain Dijkstra.
//! It shares only the documented fixed-point constants and the profiles' stored multipliers.

pub mod check;
pub mod generate;
pub mod reference;
pub mod slots;
pub mod smoothing;
pub mod swept;
pub mod units;
