//! A progress bar on stderr for long builds, such as landmark tables on large maps.
//!
//! Drawn only when stderr is a terminal (so pipes, files and tests see nothing) and only once
//! the build has run for [`QUIET_FOR`]: short builds stay silent.

use clearance_core::LandmarkProgress;
use std::io::{IsTerminal, Write};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// How long a build runs before its bar appears.
pub const QUIET_FOR: Duration = Duration::from_millis(500);

/// Characters in the bar.
const WIDTH: usize = 30;

/// A bar that builds on any thread report to; it clears its line when dropped.
pub struct ProgressBar {
    label: String,
    started: Instant,
    /// Whether stderr is a terminal.
    enabled: bool,
    /// The last percentage drawn (`None` before the first).
    drawn: Mutex<Option<u64>>,
}

impl ProgressBar {
    /// A bar for the build called `label`, starting now.
    pub fn new(label: impl Into<String>) -> Self {
        ProgressBar {
            label: label.into(),
            started: Instant::now(),
            enabled: std::io::stderr().is_terminal(),
            drawn: Mutex::new(None),
        }
    }

    /// Draws `progress` if the bar is shown and the percentage changed.
    pub fn report(&self, progress: LandmarkProgress) {
        if !self.enabled || self.started.elapsed() < QUIET_FOR {
            return;
        }
        let percent = (progress.fraction() * 100.0).floor() as u64;
        let mut drawn = self.drawn.lock().unwrap_or_else(PoisonError::into_inner);
        if *drawn == Some(percent) {
            return;
        }
        *drawn = Some(percent);
        let filled = (percent as usize * WIDTH / 100).min(WIDTH);
        let bar = format!("{}{}", "#".repeat(filled), "-".repeat(WIDTH - filled));
        let seconds = self.started.elapsed().as_secs_f64();
        let mut stderr = std::io::stderr().lock();
        let _ = write!(
            stderr,
            "\r{} [{bar}] {percent:>3}% {seconds:.1} s",
            self.label
        );
        let _ = stderr.flush();
    }
}

impl Drop for ProgressBar {
    fn drop(&mut self) {
        let drawn = self.drawn.get_mut().unwrap_or_else(PoisonError::into_inner);
        if drawn.is_some() {
            let mut stderr = std::io::stderr().lock();
            let _ = writeln!(stderr);
        }
    }
}
