//! The library behind the `clearance` command: Moving AI map and scenario files, profile files,
//! units files, and text and PNG drawings of maps, paths and units.
//!
//! In this crate a cell's terrain id is the byte value of its map character: `.` is terrain 46,
//! `S` is 83, and a profile file names terrains by character.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod draw;
pub mod error;
pub mod movingai;
pub mod profiles;
pub mod progress;
pub mod render;
pub mod shared_data;
pub mod units;

pub use error::CliError;
