#!/usr/bin/env bash
# Builds the Godot extension and puts the library where the addon's .gdextension file looks:
# addons/clearance_pathfinder/bin/. Run from anywhere:
#
#   scripts/build_addon.sh            # optimised build (what you ship)
#   scripts/build_addon.sh --debug    # faster to compile, slower to run
#
# Then copy addons/clearance_pathfinder/ into your Godot project's addons/ folder.
set -euo pipefail

repo="$(cd "$(dirname "$0")/.." && pwd)"
bin="$repo/addons/clearance_pathfinder/bin"
profile=release
cargo_flags=(--release)
case "${1:-}" in
    "") ;;
    --debug) profile=debug; cargo_flags=() ;;
    *) echo "usage: $0 [--debug]" >&2; exit 2 ;;
esac

cd "$repo"
cargo build "${cargo_flags[@]}" -p clearance_godot

target="${CARGO_TARGET_DIR:-$repo/target}/$profile"
case "$(uname -m)" in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *) arch="$(uname -m)" ;;
esac

# The names the .gdextension file expects, one per platform; copy whichever was built here.
copied=0
copy() {
    if [[ -f "$target/$1" ]]; then
        cp "$target/$1" "$bin/$2"
        # The release profile keeps some debug info for profiling; the shipped one needs none.
        if [[ $profile == release ]] && command -v strip >/dev/null; then
            case "$(uname -s)" in
                Linux) strip --strip-debug "$bin/$2" ;;
                Darwin) strip -S "$bin/$2" ;;
            esac
        fi
        echo "addons/clearance_pathfinder/bin/$2 <- $profile/$1"
        copied=$((copied + 1))
    fi
}
mkdir -p "$bin"
case "$(uname -s)" in
    Linux) copy libclearance_godot.so "libclearance_godot.linux.$arch.so" ;;
    Darwin) copy libclearance_godot.dylib libclearance_godot.macos.dylib ;;
    MINGW* | MSYS* | CYGWIN*) copy clearance_godot.dll "clearance_godot.windows.$arch.dll" ;;
esac
if [[ $copied -eq 0 ]]; then
    echo "no library for $(uname -s)/$arch found in $target" >&2
    exit 1
fi
