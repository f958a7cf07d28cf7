#!/usr/bin/env bash
# Installs what is missing (Debian 12), builds, and runs all tests with ctest.
# Extra arguments go to ctest, e.g. ./test.sh -R Interop  or  ./test.sh -L unit
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=scripts/deps.sh
source scripts/deps.sh
ua_setup

if [[ -z ${DISPLAY:-} ]]; then
    export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}  # widget tests without a display
fi
exec ctest --test-dir build --output-on-failure -j2 "$@"
