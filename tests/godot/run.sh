#!/usr/bin/env bash
# The Godot checks: builds the addon, runs the headless verifier (godot-project/tests/verify.gd),
# the live-map stress test, the demo scene, the tactics scene and the isometric scene (smoothing
# off and on) in a real engine, and prints the verifier's receipt.
#
#   GODOT=/path/to/godot tests/godot/run.sh      (or have `godot` on PATH)
#
# Exit status: 0 every check passed and the demo ran clean; 1 something failed;
# 3 no engine was found, so nothing was checked (not a pass).
set -uo pipefail

repo="$(cd "$(dirname "$0")/../.." && pwd)"
project="$repo/godot-project"
source "$repo/tests/godot/engine.sh"
find_engine "Godot checks"
echo "engine: $godot ($("$godot" --headless --version 2>/dev/null | tail -n 1))"

"$repo/scripts/build_addon.sh" || { echo "FAIL: the addon did not build"; exit 1; }

# A build without the editor cannot import, so it learns about the extension only from here.
mkdir -p "$project/.godot"
if [[ ! -f "$project/.godot/extension_list.cfg" ]]; then
    echo "res://addons/clearance_pathfinder/clearance_pathfinder.gdextension" \
        >"$project/.godot/extension_list.cfg"
fi

logs="$(mktemp -d)"
failed=0
fatal_pattern='SCRIPT ERROR|Error loading extension|Can.t open dynamic library|Parse Error|Failed loading resource'

# Runs the engine with a timeout, keeping its output in $logs/$1.log; fails on a non-zero exit
# or on the patterns above.
run() {
    local name="$1" limit="$2"
    shift 2
    timeout "$limit" "$godot" --headless --path "$project" "$@" >"$logs/$name.log" 2>&1
    local status=$?
    if [[ $status -ne 0 ]]; then
        echo "FAIL: $name exited with status $status (log: $logs/$name.log)"
        failed=1
    fi
    if grep -E "$fatal_pattern" "$logs/$name.log" >/dev/null; then
        echo "FAIL: $name printed engine or script errors:"
        grep -E -A 2 "$fatal_pattern" "$logs/$name.log" | head -n 30
        failed=1
    fi
    return $status
}

if engine_imports; then
    # An editor build imports the project first (icons, script class cache). The first import
    # of a fresh project can crash on exit (godot#123511, godot#111048): ignore its status.
    timeout 600 "$godot" --headless --path "$project" --import >"$logs/import-1.log" 2>&1 || true
    run import 600 --import
fi

# The last line of $logs/$1.log that starts with "$2 ", printed; a failure (with the log's
# last lines) if there is none.
receipt_of() {
    local line
    line="$(grep "^$2 " "$logs/$1.log" | tail -n 1)"
    if [[ -z "$line" ]]; then
        echo "FAIL: $1 printed no $2 line; its output ends:" >&2
        tail -n 30 "$logs/$1.log" >&2
        return 1
    fi
    echo "$line"
}

run verify 600 --script res://tests/verify.gd
if ! receipt="$(receipt_of verify RECEIPT)"; then
    failed=1
else
    echo "$receipt"
    if command -v python3 >/dev/null; then
        python3 - "$receipt" <<'PY'
import json, sys
receipt = json.loads(sys.argv[1][len("RECEIPT "):])
for check in receipt["checks"]:
    mark = "pass" if check["pass"] else "FAIL"
    note = check.get("detail") or "; ".join(check.get("problems", []))
    print(f"  {mark}  {check['name']}" + (f"  ({note})" if note else ""))
print(f"verifier: {receipt['passed']} of {receipt['total']} checks passed on {receipt['engine']}")
print(f"godot: {receipt['passed']} passed, {receipt['failed']} failed")
PY
    fi
fi

# The live-map stress test: a 1024 x 1024 map, 2 workers, 200 requests in flight while a 4 x 4
# wall goes up or comes down every frame for 600 frames; every answer is checked against
# find_path on the map as it was when asked, and the edit's time per frame is reported.
run stress 900 --script res://tests/live_map_stress.gd
receipt_of stress STRESS || failed=1

# --scripted-edits walls a bridge at frame 5: units on their way must re-plan asynchronously;
# at frame 60 one wall comes down, back to the road it was built on.
run demo 300 res://demo/demo.tscn -- --quit-after-frames=120 --scripted-edits
if ! grep -q 're-planned after an edit' "$logs/demo.log"; then
    echo "FAIL: no unit re-planned after the demo's scripted edit"
    failed=1
fi
if ! grep -qE 'came down to terrain ([0-9]+), built on \1$' "$logs/demo.log"; then
    echo "FAIL: a wall taken down in the demo did not give back the terrain it was built on"
    grep 'came down' "$logs/demo.log"
    failed=1
fi
# --scripted-blocker stops the second scout on the first one's path at frame 10: the first one
# finds it on its next step and re-plans round it.
run demo-blocker 300 res://demo/demo.tscn -- --quit-after-frames=90 --scripted-blocker
if ! grep -q 'Scout re-planned round Scout 2: OK' "$logs/demo-blocker.log"; then
    echo "FAIL: the first scout did not re-plan round the second one in the demo"
    grep 'demo:' "$logs/demo-blocker.log" | head -n 10
    failed=1
fi
# --scripted-group-order boxes every unit at frame 3 and sends them to one spot: arrival slots
# spread them round it, and each member plans to its slot with the units outside the group
# blocking.
run demo-group 300 res://demo/demo.tscn -- --quit-after-frames=30 --scripted-group-order
if ! grep -q 'group order: 6 units, 6 slots, .* (6 with a path)' "$logs/demo-group.log"; then
    echo "FAIL: the demo's scripted group order did not give all six units a slot and a path"
    failed=1
fi
# The same order with --smooth: the units follow taut waypoints, fewer than their paths' anchors.
run demo-smooth 300 res://demo/demo.tscn -- --quit-after-frames=30 --scripted-group-order --smooth
smoothed="$(grep -o 'group order: 6 units, 6 slots, .* (6 with a path); [0-9]* anchors on the paths, [0-9]* followed' "$logs/demo-smooth.log" | tail -n 1)"
if [[ -z "$smoothed" ]]; then
    echo "FAIL: the demo's smoothed group order did not give all six units a slot and a path"
    failed=1
else
    read -r anchors followed < <(echo "$smoothed" | sed -E 's/.*; ([0-9]+) anchors on the paths, ([0-9]+) followed/\1 \2/')
    if (( followed >= anchors )); then
        echo "FAIL: with --smooth the demo's units followed $followed points for $anchors anchors"
        failed=1
    else
        echo "demo with --smooth: $followed waypoints followed for $anchors path anchors"
    fi
fi
# --scripted-turn plays blue's turn in the tactics demo: movement ranges (the tank's smaller in
# the forest than the soldier's, none on an enemy), each unit to the dearest anchor in range at
# the path's cost, then red to play. It quits by itself, with status 1 if a check failed.
run tactics 300 res://demo/tactics.tscn -- --scripted-turn
if ! grep -q 'tactics: scripted turn OK' "$logs/tactics.log"; then
    echo "FAIL: the tactics demo's scripted turn did not pass"
    grep 'tactics:' "$logs/tactics.log" | head -n 10
    failed=1
fi
# --scripted walks the isometric demo's 2x2 truck (steered by a flow field, standing on anchors
# the field reached) and 1x1 scout over a TileMapLayer of diamonds, after checking every
# footprint centre against the layer's map_to_local. It quits by itself, with status 1 if a
# check failed.
run isometric 300 res://demo/isometric.tscn -- --scripted --quit-after-frames=1200
# With --smooth the field steers the truck towards its waypoints: it must still stand on
# anchors its field reached at every frame and arrive.
run isometric-smooth 300 res://demo/isometric.tscn -- --scripted --quit-after-frames=1200 --smooth
for variant in isometric isometric-smooth; do
    if ! grep -q 'isometric: scripted walk OK' "$logs/$variant.log"; then
        echo "FAIL: the isometric demo's scripted walk ($variant) did not pass"
        grep 'isometric:' "$logs/$variant.log" | head -n 10
        failed=1
    fi
done
# The demos have no expected errors: any error line is a failure.
for log in demo demo-blocker demo-group demo-smooth tactics isometric isometric-smooth; do
    if grep -E '^(ERROR|USER ERROR):' "$logs/$log.log" >/dev/null; then
        echo "FAIL: the demo ($log) printed errors:"
        grep -E -A 2 '^(ERROR|USER ERROR):' "$logs/$log.log" | head -n 30
        failed=1
    fi
done

if [[ $failed -ne 0 ]]; then
    echo "Godot checks FAILED (logs in $logs)"
    exit 1
fi
echo "Godot checks passed: verifier and demo ran clean (logs in $logs)"
