#!/usr/bin/env bash
# Pairs two builds of the `query_probe` bench (rust/clearance_cli/benches/query_probe.rs) on the
# shared Moving AI maps, for a change to the search's hot loops:
#
#   scripts/pair_probe.sh instructions BEFORE AFTER [MAP ...]   # callgrind counts, ROUNDS=3
#   scripts/pair_probe.sh time BEFORE AFTER [MAP ...]           # wall time, 3 alternating runs
#
# BEFORE and AFTER are the bench binaries (cargo bench --no-run -p clearance_cli --bench
# query_probe in each tree; the binary is target/release/deps/query_probe-*). PROBE_MODE,
# PROBE_SIZE and PROBE_PROFILE pass through (see the bench). Instruction counts do not depend
# on the machine's load; wall time does, so pause other work while it runs.
set -euo pipefail
if [[ $# -lt 3 ]]; then
    echo "usage: $0 instructions|time BEFORE AFTER [MAP ...]" >&2
    exit 2
fi
what="$1" before="$2" after="$3"
shift 3
maps=("$@")
[[ ${#maps[@]} -gt 0 ]] || maps=(arena arena2 AR0011SR maze-100-1 random-100-33 AcrosstheCape maze512-16-0)
export CLEARANCE_MOVINGAI_DIR="${CLEARANCE_MOVINGAI_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/shared/movingai}"
rounds="${ROUNDS:-3}"

instructions() {
    command -v valgrind >/dev/null || { echo "instructions: valgrind is not installed" >&2; exit 1; }
    PROBE_MAP="$1" valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        --toggle-collect='*query_with*' "$2" "$rounds" 2>&1 | sed -n 's/.*Collected : //p' | tr -d ,
}

for map in "${maps[@]}"; do
    case "$what" in
        instructions)
            a="$(instructions "$map" "$before")"
            b="$(instructions "$map" "$after")"
            awk -v m="$map" -v a="$a" -v b="$b" \
                'BEGIN { printf "%s: %.0f -> %.0f instructions (%.3fx)\n", m, a, b, b / a }'
            ;;
        time)
            for _ in 1 2 3; do
                for binary in "$before" "$after"; do
                    printf '%s %s: ' "$map" "$([[ $binary == "$before" ]] && echo before || echo after)"
                    PROBE_MAP="$map" "$binary" "${ROUNDS:-10}"
                done
            done
            ;;
        *) echo "usage: $0 instructions|time BEFORE AFTER [MAP ...]" >&2; exit 2 ;;
    esac
done
