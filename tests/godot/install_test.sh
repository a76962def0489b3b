#!/usr/bin/env bash
# The install a Godot user makes: package the addon, unzip it into an empty project, import
# it, and run tests/godot/install_check.gd there. Fails on any engine error line.
#
#   GODOT=/path/to/godot tests/godot/install_test.sh
#
# Exit status: 0 the packaged addon works in a fresh project; 1 it does not; 3 no engine was
# found, so nothing was checked (not a pass).
set -uo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
source "$repo/tests/godot/engine.sh"
find_engine "install test"
zip="$("$repo/scripts/package_addon.sh" | tail -n 1)" || { echo "FAIL: packaging failed"; exit 1; }
project="$(mktemp -d)"
cat >"$project/project.godot" <<'GODOT'
config_version=5

[application]

config/name="Clearance Pathfinder install test"
GODOT
command -v python3 >/dev/null || { echo "FAIL: the install test needs python3 to unzip"; exit 1; }
python3 - "$repo/$zip" "$project" <<'PY' || { echo "FAIL: cannot unzip $zip"; exit 1; }
import sys, zipfile
zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])
PY
cp "$repo/tests/godot/install_check.gd" "$project/"
engine() { timeout 600 "$godot" --headless --audio-driver Dummy --path "$project" "$@"; }
if engine_imports; then
    # The first import that discovers a GDExtension may crash on exit (godot#123511): judge
    # the second.
    engine --import >"$project/import-1.log" 2>&1 || true
    engine --import >"$project/import.log" 2>&1 || { echo "FAIL: import (log: $project/import.log)"; exit 1; }
else
    mkdir -p "$project/.godot"
    echo "res://addons/clearance_pathfinder/clearance_pathfinder.gdextension" \
        >"$project/.godot/extension_list.cfg"
fi
engine --script res://install_check.gd >"$project/check.log" 2>&1
status=$?
# Only the logs this engine wrote: grep exits 2 for a missing file even when another matches.
logs=("$project/check.log")
[[ -f "$project/import.log" ]] && logs+=("$project/import.log")
if grep -E '^(ERROR|SCRIPT ERROR)|Parse Error' "${logs[@]}"; then
    echo "FAIL: the engine printed errors (logs in $project)"
    exit 1
fi
if [[ $status -ne 0 ]] || ! grep -q '^INSTALL_CHECK OK' "$project/check.log"; then
    echo "FAIL: the packaged addon did not answer in a fresh project (log: $project/check.log)"
    tail -n 20 "$project/check.log"
    exit 1
fi
echo "install test passed: $zip in a fresh project ($(grep '^INSTALL_CHECK' "$project/check.log"))"
