# Sourced by run.sh and install_test.sh: the engine they run, and what it can do.

# Sets `godot` to the engine named by $GODOT, or to `godot` on PATH; without one, says that
# `$1` was NOT run and exits with status 3 (nothing was checked, which is not a pass).
find_engine() {
    godot="${GODOT:-$(command -v godot || true)}"
    if [[ -z "$godot" || ! -x "$godot" ]]; then
        echo "no Godot engine found (set GODOT=...); $1 NOT run"
        exit 3
    fi
}

# Whether the engine is an editor build, which can import a project. The help text is read
# whole before it is searched, so that the engine never writes into a closed pipe.
engine_imports() {
    local help
    help="$("$godot" --headless --help 2>/dev/null)" || true
    [[ $help == *--import* ]]
}
