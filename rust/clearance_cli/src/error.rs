//! Errors of the command-line layer: each names the file, and the line where there is one.

use std::path::PathBuf;
use thiserror::Error;

/// Why a command could not run. Printed as one line; the process then exits non-zero.
#[derive(Debug, Error)]
pub enum CliError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: std::io::Error,
    },
    /// A line of an input file is malformed.
    #[error("{path}:{line}: {message}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// Line number, from 1.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
    /// An input file is malformed as a whole (not at one line).
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
    /// A command-line value is out of range or inconsistent.
    #[error("{0}")]
    Usage(String),
}
