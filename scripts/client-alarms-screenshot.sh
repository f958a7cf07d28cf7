#!/usr/bin/env bash
# The screenshot of ua-client's Alarms tab (docs/ClientApp.md, issue 31 item 6): starts ua-server
# headless with its default configuration (the demo alarms SineLevel, RampHigh and
# BooleanOffNormal), then the window under Xvfb with the --screenshot-alarms tour
# (client-app/window/ScreenshotTour.cpp), which subscribes, acknowledges BooleanOffNormal with a
# comment and saves docs/screenshots/client-11-alarms.png.
#   scripts/client-alarms-screenshot.sh [build-dir] [port]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
port=${2:-48498}
client=$build/client-app/ua-client
server_bin=$build/server-app/ua-server
[[ -x $client && -x $server_bin ]] || { echo "error: $client or $server_bin not built" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "error: xvfb-run is not installed (apt-get install xvfb)" >&2; exit 1; }

tmp=$(mktemp -d)
server=
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data XDG_RUNTIME_DIR=$tmp/run
mkdir -p "$tmp/run" && chmod 700 "$tmp/run"
"$server_bin" --headless --port "$port" >"$tmp/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.2
done
xvfb-run -a -s "-screen 0 1400x1000x24" "$client" --connect "opc.tcp://127.0.0.1:$port" --pki "$tmp/pki" \
    --screenshots "$tmp/shots" --screenshot-alarms >"$tmp/client.log" 2>&1 ||
    { cat "$tmp/client.log" "$tmp/server.log" >&2; exit 1; }
mkdir -p docs/screenshots
cp "$tmp/shots/client-11-alarms.png" docs/screenshots/
grep screenshot "$tmp/client.log"
