//! Where the Moving AI benchmark files live.

use std::path::PathBuf;

/// Map names of the shared benchmark selection, small to large.
pub const MAPS: [&str; 5] = ["arena", "arena2", "AR0011SR", "maze-100-1", "random-100-33"];

/// The two large shared maps, for speed work: a 768 x 768 StarCraft map and a 512 x 512 maze
/// with corridors 16 wide.
pub const LARGE_MAPS: [&str; 2] = ["AcrosstheCape", "maze512-16-0"];

/// The folder holding the Moving AI maps and scenarios: `$CLEARANCE_MOVINGAI_DIR` if set,
/// otherwise `shared/movingai` beside the repository root. If that folder does not exist, the
/// error says where it was expected and how to point elsewhere.
pub fn movingai_dir() -> Result<PathBuf, String> {
    let dir = match std::env::var_os("CLEARANCE_MOVINGAI_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/movingai"),
    };
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(format!(
            "the Moving AI data is missing: expected {} (or set CLEARANCE_MOVINGAI_DIR)",
            dir.display()
        ))
    }
}
