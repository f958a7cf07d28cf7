#!/usr/bin/env bash
# Installs what is missing (Debian 12), builds, and runs all tests with ctest.
# Extra arguments go to ctest, e.g. ./test.sh -R Interop  or  ./test.sh -L unit
#   ./test.sh --asan [ctest args]  the whole suite under AddressSanitizer + UndefinedBehaviorSanitizer
#                                  (clang, build-asan/; tests labelled no_sanitizer are left out)
#   ./test.sh --tsan [ctest args]  the multi-threaded transport, server and client tests under
#                                  ThreadSanitizer (clang, build-tsan/, ctest -L tsan)
# docs/Reliability.md "Sanitizers" says what each covers and what it costs.
set -euo pipefail
cd "$(dirname "$0")"
UA_MODE=
case ${1:-} in
    --asan) UA_MODE=asan; shift ;;
    --tsan) UA_MODE=tsan; shift ;;
esac
# shellcheck source=scripts/deps.sh
source scripts/deps.sh
ua_setup

if [[ -z ${DISPLAY:-} ]]; then
    export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}  # widget tests without a display
fi
build=$(ua_build_dir)
# ctest (3 tests at once on the 2 cores: many wait on sockets and timers, so the suite runs in
# 208 s instead of ~280 s at -j2; UA_CTEST_JOBS=N for another count), then on a failure the lines
# that say why, last: a CI log that is cut in the middle still
# shows which check failed and what a sanitizer reported (ctest keeps every test's whole output in
# Testing/Temporary/LastTest.log).
run_ctest() {
    local rc=0 start=$SECONDS
    ctest --test-dir "$build" --output-on-failure -j"${UA_CTEST_JOBS:-3}" "$@" || rc=$?
    echo "=== ctest (${UA_MODE:-normal}): $((SECONDS - start)) s"
    if ((rc != 0)); then
        echo "=== why the failing tests failed (from $build/Testing/Temporary/LastTest.log):"
        grep -E -A3 '^FAIL!|WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|^SUMMARY: |Test timeout|QFATAL' \
            "$build/Testing/Temporary/LastTest.log" | cut -c1-400 | head -80 || true
    fi
    return $rc
}
case $UA_MODE in
    asan)
        # Every finding fails its test: UBSan stops at the first (-fno-sanitize-recover=all), ASan
        # and LSan exit non-zero. Qt's own leaks at exit are named in tests/lsan.supp.
        export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:detect_stack_use_after_return=0:strict_string_checks=1:check_initialization_order=1}
        export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
        export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp:print_suppressions=0}
        run_ctest -LE no_sanitizer "$@"
        exit
        ;;
    tsan)
        export TSAN_OPTIONS=${TSAN_OPTIONS:-suppressions=$PWD/tests/tsan.supp:halt_on_error=1:second_deadlock_stack=1:history_size=4}
        run_ctest -L tsan "$@"
        exit
        ;;
esac
run_ctest "$@"
