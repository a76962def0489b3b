#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer through cargo-fuzz) of the Moving AI and profile parsers
# and of PathMap edits and queries against the reference solver. See fuzz/README.md.
#
#   scripts/fuzz.sh smoke                 every target for FUZZ_SECONDS each (default 45)
#   scripts/fuzz.sh long TARGET [RUNS]    one target for RUNS executions (default 10000000)
#   scripts/fuzz.sh replay TARGET FILE... run saved inputs once (a crash, a regression)
#   scripts/fuzz.sh build                 build the targets only
#   scripts/fuzz.sh list                  name the targets
#
# Long runs: FUZZ_JOBS=N splits RUNS over N processes sharing the corpus (one per core);
# FUZZ_TRACE_COMPARES=0 builds without libFuzzer's comparison tracing (in a target directory of
# its own), which costs about 70% of each `differential` execution. The checks are the same;
# only the fuzzer's guidance for solving comparisons is lost.
#
# Builds on the stable toolchain without a sanitizer (the crates forbid unsafe code; debug
# assertions and overflow checks are on). Exits non-zero if any target crashes, fails a
# check, hangs longer than FUZZ_TIMEOUT seconds (default 10) on one input or exceeds 2 GiB.
# Crashing inputs land in fuzz/artifacts/TARGET/, logs beside them; the working corpus grows in
# fuzz/corpus/TARGET/ (both ignored by git). Inputs in fuzz/seeds/TARGET/ and
# fuzz/regressions/TARGET/ are run first, every time.
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO_FUZZ_VERSION=0.13.2
TARGETS=(movingai_map movingai_scenario profiles differential units)
TOOLCHAIN=${FUZZ_TOOLCHAIN:-stable}
SECONDS_PER_TARGET=${FUZZ_SECONDS:-45}
TIMEOUT=${FUZZ_TIMEOUT:-10}
JOBS=${FUZZ_JOBS:-1}
TRACE_COMPARES=${FUZZ_TRACE_COMPARES:-1}

cargo_() {
    if command -v rustup >/dev/null; then
        cargo "+$TOOLCHAIN" "$@"
    else
        cargo "$@"
    fi
}

usage() {
    sed -n '5,9p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

ensure_cargo_fuzz() {
    if [[ "$(cargo_ fuzz --version 2>/dev/null)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]]; then
        echo "fuzz: installing cargo-fuzz $CARGO_FUZZ_VERSION"
        cargo_ install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked
    fi
}

HOST=$(rustc "+$TOOLCHAIN" -vV 2>/dev/null | sed -n 's/^host: //p' || true)
[[ -n "$HOST" ]] || HOST=$(rustc -vV | sed -n 's/^host: //p')
BUILD_FLAGS=(--sanitizer none --debug-assertions --target "$HOST")
# The target directory is named, not inherited: a CARGO_TARGET_DIR set for the workspace
# would otherwise put the binaries where BIN_DIR does not look.
TARGET_DIR=fuzz/target
if [[ "$TRACE_COMPARES" == 0 ]]; then
    BUILD_FLAGS+=(--no-trace-compares)
    TARGET_DIR=fuzz/target/no-trace-compares
fi
BUILD_FLAGS+=(--target-dir "$TARGET_DIR")
BIN_DIR="$TARGET_DIR/$HOST/release"

build() {
    ensure_cargo_fuzz
    local started=$SECONDS
    cargo_ fuzz build "${BUILD_FLAGS[@]}" "$@"
    echo "fuzz: built in $((SECONDS - started)) s"
}

# run TARGET LIBFUZZER_FLAGS...: runs one target in JOBS processes, prints a summary line,
# returns non-zero if any process failed.
run() {
    local target=$1
    shift
    local corpus=fuzz/corpus/$target artifacts=fuzz/artifacts/$target
    mkdir -p "$corpus" "$artifacts"
    local inputs=("$corpus")
    for dir in "fuzz/seeds/$target" "fuzz/regressions/$target"; do
        [[ -d "$dir" ]] && inputs+=("$dir")
    done
    local started=$SECONDS status=0 job pids=() logs=()
    for ((job = 0; job < JOBS; job++)); do
        local log=$artifacts/last-run.log
        ((JOBS == 1)) || log=$artifacts/last-run-$job.log
        "$BIN_DIR/$target" "${inputs[@]}" "$@" \
            -rss_limit_mb=2048 -timeout="$TIMEOUT" -print_final_stats=1 \
            -artifact_prefix="$artifacts/" >"$log" 2>&1 &
        pids+=("$!")
        logs+=("$log")
    done
    local failed=()
    for job in "${!pids[@]}"; do
        wait "${pids[$job]}" || {
            status=$?
            failed+=("${logs[$job]}")
        }
    done
    local elapsed=$((SECONDS - started))
    local execs rate corpus_size
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "${logs[@]}" |
        awk '{ sum += $1 } END { print sum }')
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "${logs[@]}" |
        awk '{ sum += $1 } END { print sum }')
    corpus_size=$(find "$corpus" -type f | wc -l)
    if ((status == 0)); then
        printf 'fuzz: %-18s ok      %10s execs  %7s execs/s  %4d s  corpus %d  (%d process%s)\n' \
            "$target" "${execs:-?}" "${rate:-?}" "$elapsed" "$corpus_size" "$JOBS" \
            "$( ((JOBS == 1)) || echo es)"
    else
        printf 'fuzz: %-18s FAILED  (status %d after %d s)\n' "$target" "$status" "$elapsed"
        for log in "${failed[@]}"; do
            echo "    log $log"
            grep -E -m1 -A6 "panicked at|ERROR: libFuzzer|==ERROR|SUMMARY" "$log" | sed 's/^/    /' || true
            grep -E -o "Test unit written to .*" "$log" | sed 's/^/    /' || true
        done
    fi
    return "$status"
}

mode=${1:-smoke}
case $mode in
    list)
        printf '%s\n' "${TARGETS[@]}"
        ;;
    build)
        build
        ;;
    smoke)
        build
        failed=()
        for target in "${TARGETS[@]}"; do
            run "$target" -max_total_time="$SECONDS_PER_TARGET" || failed+=("$target")
        done
        if ((${#failed[@]})); then
            echo "fuzz: FAILED: ${failed[*]}"
            exit 1
        fi
        echo "fuzz: ${#TARGETS[@]} targets, no crash in ${SECONDS_PER_TARGET} s each"
        ;;
    long)
        target=${2:-}
        runs=${3:-10000000}
        [[ " ${TARGETS[*]} " == *" $target "* ]] || usage
        build "$target"
        run "$target" -runs="$(((runs + JOBS - 1) / JOBS))"
        ;;
    replay)
        target=${2:-}
        [[ " ${TARGETS[*]} " == *" $target "* && $# -ge 3 ]] || usage
        build "$target"
        "$BIN_DIR/$target" -timeout="$TIMEOUT" "${@:3}"
        ;;
    *)
        usage
        ;;
esac
