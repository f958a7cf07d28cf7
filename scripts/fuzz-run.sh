#!/usr/bin/env bash
# Bounded fuzz run of every libFuzzer target (tests/fuzz/README.md), e.g. for CI:
#   scripts/fuzz-run.sh [SECONDS_PER_TARGET] [BUILD_DIR]     (defaults: 60, build-asan)
# The targets are built in the ASan build (clang, -DUA_SANITIZE=address; ./test.sh --asan makes
# it, and in CI this step only finds them built). Without BUILD_DIR it sets up and configures
# build-asan as ./test.sh --asan does and builds only fuzz_decode, fuzz_server_stream,
# fuzz_client_responses and fuzz_nodeset; with BUILD_DIR, an ASan build dir configured already. Runs each for SECONDS_PER_TARGET on a copy
# of its committed seed corpus (in BUILD_DIR/fuzz-work/<target>), as many at once as there are cores. Prints per target the executions
# and the findings (crash-/leak-/timeout-/oom- artifacts, kept in BUILD_DIR/fuzz-work/<target>/);
# exits 1 when a target found anything. Copy a finding to tests/fuzz/<target>/crashes/ (decoder:
# tests/fuzz/crashes/) so ctest replays it, and fix it.
# Extra libFuzzer flags: UA_FUZZ_FLAGS="-jobs=2 -workers=2" scripts/fuzz-run.sh 300
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
targets=(fuzz_decode fuzz_server_stream fuzz_client_responses fuzz_nodeset)
if [[ -n ${2:-} ]]; then
    build=$2
    cmake --build "$build" --target "${targets[@]}" -j2
else
    # shellcheck source=scripts/deps.sh
    source scripts/deps.sh
    UA_MODE=asan
    build=$(ua_build_dir)
    ua_install_packages
    ua_ensure_node
    ua_install_npm_packages
    ua_configure_and_build "${targets[@]}"
fi

# Each target fuzzes on one core (-fork=1: a supervisor and one worker); UA_FUZZ_PARALLEL of them
# at a time (default: the number of cores), so every target gets its full SECONDS of a core.
parallel=${UA_FUZZ_PARALLEL:-$(nproc)}
fuzz_one() {
    local t=$1 seeds maxlen
    case $t in
        fuzz_decode) seeds=tests/fuzz/corpus; maxlen=8192 ;;
        fuzz_server_stream) seeds=tests/fuzz/server_stream/corpus; maxlen=65536 ;;
        fuzz_client_responses) seeds=tests/fuzz/client_responses/corpus; maxlen=65536 ;;
        fuzz_nodeset) seeds=tests/fuzz/nodeset/corpus; maxlen=65536 ;;
    esac
    local work=$build/fuzz-work/$t
    rm -rf "$work"
    mkdir -p "$work/corpus"
    cp "$seeds"/* "$work/corpus/"
    # -fork: keep going after a finding (each is saved as an artifact) until the time is up.
    # shellcheck disable=SC2086
    "$build/tests/fuzz/$t" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=$maxlen \
        -artifact_prefix="$work/" ${UA_FUZZ_FLAGS:-} "$work/corpus" >"$work/fuzz.log" 2>&1 || true
}
running=0
for t in "${targets[@]}"; do
    if ((running >= parallel)); then
        wait -n || true
        running=$((running - 1))
    fi
    fuzz_one "$t" &
    running=$((running + 1))
done
wait

status=0
printf '%-24s %8s %12s %8s  %s\n' target seconds executions findings artifacts
for t in "${targets[@]}"; do
    work=$build/fuzz-work/$t
    # Executions: the last "#N" status line of the fork mode's supervisor.
    execs=$(grep -oE '^#[0-9]+' "$work/fuzz.log" | tail -1 | tr -d '#')
    findings=$(find "$work" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
    printf '%-24s %8s %12s %8s  %s\n' "$t" "$seconds" "${execs:-?}" "$findings" "$work"
    [[ $findings -eq 0 ]] || status=1
done
exit $status
