//! Errors of the command-line layer: each names the file, and the line where there is one.

use std::path::{Path, PathBuf};
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
    /// Standard output could not be written (its reader may have gone, as `| head` does).
    #[error("standard output: {0}")]
    Output(#[source] std::io::Error),
}

impl CliError {
    /// Whether this is a write to standard output that failed because its reader closed the
    /// pipe: the reader has what it wanted, so the command ends quietly.
    pub fn is_closed_output(&self) -> bool {
        matches!(self, CliError::Output(error) if error.kind() == std::io::ErrorKind::BrokenPipe)
    }

    /// A [`CliError::Io`] error for `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Self {
        CliError::Io {
            path: path.to_owned(),
            source,
        }
    }

    /// A [`CliError::Syntax`] error at `line` of `path`.
    pub fn syntax(path: &Path, line: usize, message: impl Into<String>) -> Self {
        CliError::Syntax {
            path: path.to_owned(),
            line,
            message: message.into(),
        }
    }

    /// A [`CliError::Invalid`] error for `path`.
    pub fn invalid(path: &Path, message: impl Into<String>) -> Self {
        CliError::Invalid {
            path: path.to_owned(),
            message: message.into(),
        }
    }
}

/// Reads a whole text file; an error names the file.
pub(crate) fn read_text(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|source| CliError::io(path, source))
}
