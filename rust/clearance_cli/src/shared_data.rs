//! Where the Moving AI benchmark files live.

use std::path::PathBuf;

/// Map names of the shared benchmark selection, small to large.
pub const MAPS: [&str; 5] = ["arena", "arena2", "AR0011SR", "maze-100-1", "random-100-33"];

/// The folder holding the Moving AI maps and scenarios: `$CLEARANCE_MOVINGAI_DIR` if set,
/// otherwise `shared/movingai` beside the repository root.
pub fn movingai_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CLEARANCE_MOVINGAI_DIR") {
        return PathBuf::from(dir);
    }
    let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    workspace.join("../shared/movingai")
}
