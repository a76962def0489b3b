//! # clearance_godot
//!
//! The Godot 4 face of [`clearance_core`]: a `ClearancePathfinder` node and an `AgentProfile`
//! resource. This crate only converts between Godot types and the core's types and validates
//! input at the boundary; every path, clearance and cost comes from the core.
//!
//! Input from GDScript is never trusted: a bad argument gets a failure code or `false`, a
//! `godot_error!` naming the method and the problem, and leaves the map as it was.
//!
//! `unsafe` is denied crate-wide and forbidden in every module but `entry`: godot-rust
//! requires the extension entry point to be declared with `unsafe impl`, and that impl expands
//! to the exported C entry symbol.
#![deny(unsafe_code)]

#[cfg(test)]
mod class_reference_tests;
mod convert;
mod field;
mod frame;
mod marshal;
mod pathfinder;
mod profile;
mod range;
mod tilemap;
mod waypoints;
mod workers;

pub use field::ClearanceFlowField;
pub use pathfinder::ClearancePathfinder;
pub use profile::AgentProfile;
pub use range::ClearanceMovementRange;

/// The extension entry point, `gdext_rust_init` (the symbol the `.gdextension` file names).
mod entry {
    // godot-rust demands `unsafe impl ExtensionLibrary` as an explicit opt-in to its FFI
    // safety model, and the macro emits the `#[no_mangle] extern "C"` entry function here.
    #![allow(unsafe_code)]

    use godot::prelude::*;

    struct ClearancePathfinderExtension;

    #[gdextension]
    unsafe impl ExtensionLibrary for ClearancePathfinderExtension {}
}
