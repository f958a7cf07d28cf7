#!/usr/bin/env bash
# Screenshots of ua-loadtest's window with live data, for docs/LoadTesterWindow.md and the README:
# starts two of our headless servers (ua-server --headless on free ports: A with 1 I/O thread, B
# with 2), then the window under Xvfb with --screenshots, which sweeps read-1 over sessions
# 1,2,5,10,20 x outstanding 1,10 against A (shot while its later steps run), then the same sweep
# against B, and opens the Compare window of the two runs (loadtest-app/window/ScreenshotTour.cpp),
# saving docs/screenshots/loadtest-sweep.png and docs/screenshots/loadtest-compare.png.
# About two minutes.
#   scripts/loadtest-screenshots.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
loadtest=$build/loadtest-app/ua-loadtest
server=$build/server-app/ua-server
[[ -x $loadtest ]] || { echo "error: $loadtest not built" >&2; exit 1; }
[[ -x $server ]] || { echo "error: $server not built" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "error: xvfb-run is not installed (apt-get install xvfb)" >&2; exit 1; }

tmp=$(mktemp -d)
servers=()
trap 'kill "${servers[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data XDG_RUNTIME_DIR=$tmp/run
mkdir -p "$tmp/run" && chmod 700 "$tmp/run"

# start_server NAME THREADS: our server on a free port; sets url and pid.
start_server() {
    "$server" --headless --port 0 --host 127.0.0.1 --threads "$2" --shutdown-delay 0 \
        --config "$tmp/$1.json" --pki "$tmp/pki-$1" >"$tmp/$1.log" 2>&1 &
    pid=$!
    servers+=("$pid")
    url=
    for _ in $(seq 100); do
        url=$(grep -o 'opc\.tcp://[^ ]*' "$tmp/$1.log" | head -1 || true)
        [[ -n $url ]] && break
        sleep 0.2
    done
    [[ -n $url ]] || { cat "$tmp/$1.log" >&2; exit 1; }
}
start_server a 1
urlA=$url pidA=$pid
start_server b 2
urlB=$url pidB=$pid
echo "server A (1 I/O thread) at $urlA, pid $pidA; server B (2 I/O threads) at $urlB, pid $pidB"

xvfb-run -a -s "-screen 0 1600x1050x24" "$loadtest" --screenshots "$tmp/shots" \
    --endpoint "$urlA" --server-pid "$pidA" --label "ua-server, 1 I/O thread" \
    --compare-endpoint "$urlB" --compare-server-pid "$pidB" --compare-label "ua-server, 2 I/O threads" \
    >"$tmp/loadtest.log" 2>&1 || { cat "$tmp/loadtest.log" >&2; exit 1; }
mkdir -p docs/screenshots
cp "$tmp"/shots/loadtest-*.png docs/screenshots/
grep screenshot "$tmp/loadtest.log"
