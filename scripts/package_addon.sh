#!/usr/bin/env bash
# Packages the addon as the Godot Asset Library expects: dist/clearance_pathfinder-<version>.zip
# holding addons/clearance_pathfinder/ (the .gdextension, bin/ with the libraries, icons,
# README and LICENSE), and a .sha256 file beside it. The version is the workspace's
# (Cargo.toml). Prints the zip's path last.
#
#   scripts/package_addon.sh              # builds this platform's release library first
#   scripts/package_addon.sh --prebuilt   # packages whatever bin/ holds (the release workflow
#                                         # gathers every platform's library there first)
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
case "${1:-}" in
    "") scripts/build_addon.sh ;;
    --prebuilt) ;;
    *) echo "usage: $0 [--prebuilt]" >&2; exit 2 ;;
esac

version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)"
if [[ -z "$version" ]]; then
    echo "no version in the workspace Cargo.toml" >&2
    exit 1
fi
if ! ls addons/clearance_pathfinder/bin/*clearance_godot* >/dev/null 2>&1; then
    echo "addons/clearance_pathfinder/bin holds no library to package" >&2
    exit 1
fi
if ! command -v python3 >/dev/null; then
    echo "packaging needs python3 (its zipfile module writes the zip)" >&2
    exit 1
fi
mkdir -p dist
zip="dist/clearance_pathfinder-$version.zip"
# Python's zipfile, so that packaging needs no zip tool; entries sorted, for a stable listing.
python3 - "$zip" <<'PY'
import pathlib, sys, zipfile
root = pathlib.Path("addons/clearance_pathfinder")
# Of bin/, only the libraries the .gdextension names (not an editor's copy of a loaded one);
# the icons' .import files go too, for their editor scaling and theme colours.
listed = (root / "clearance_pathfinder.gdextension").read_text()
def keep(path):
    if not path.is_file() or path.name == ".gitkeep" or path.suffix == ".uid":
        return False
    if path.parent == root / "bin":
        return f"bin/{path.name}\"" in listed
    return True
files = sorted(p for p in root.rglob("*") if keep(p))
with zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as archive:
    for path in files:
        archive.write(path, path.as_posix())
PY
(cd dist && sha256sum "$(basename "$zip")" >"$(basename "$zip").sha256")
echo "$zip"
