#!/usr/bin/env bash
# Screenshots of every view of ua-client's window with live data, for docs/ClientApp.md and the
# README: starts node-opcua's demo server (tests/clientapp/node_demo_server.js), then the window
# under Xvfb with --screenshots, which discovers the server in the Connect dialog, connects to the
# best endpoint (accepting the certificate in the trust dialog), writes, monitors, plots, lists
# events, reads the history of Sine and Counter (the History tab), calls Demo.Add and shows the log
# (client-app/window/ScreenshotTour.cpp), saving docs/screenshots/client-*.png.
#   scripts/client-screenshots.sh [build-dir]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
client=$build/client-app/ua-client
node=${UA_NODE:-$(command -v node)}
[[ -x $client ]] || { echo "error: $client not built" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "error: xvfb-run is not installed (apt-get install xvfb)" >&2; exit 1; }

tmp=$(mktemp -d)
server=
trap 'kill $server 2>/dev/null || true; rm -rf "$tmp"' EXIT
mkfifo "$tmp/stdin"
(cd tests/interop && exec "$node" ../clientapp/node_demo_server.js 0 <"$tmp/stdin" >"$tmp/server.out" 2>"$tmp/server.log") &
server=$!
exec 3>"$tmp/stdin"  # the server stops when this closes
port=
for _ in $(seq 300); do
    port=$(sed -n 's/^READY \([0-9]*\)$/\1/p' "$tmp/server.out")
    [[ -n $port ]] && break
    sleep 0.2
done
[[ -n $port ]] || { tail -20 "$tmp/server.log" >&2; exit 1; }
echo "node-opcua demo server on port $port"

export XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data XDG_RUNTIME_DIR=$tmp/run
mkdir -p "$tmp/run" && chmod 700 "$tmp/run"
xvfb-run -a -s "-screen 0 1400x1000x24" "$client" --connect "opc.tcp://127.0.0.1:$port" \
    --pki "$tmp/pki" --screenshots "$tmp/shots" >"$tmp/client.log" 2>&1 || { cat "$tmp/client.log" >&2; exit 1; }
mkdir -p docs/screenshots
cp "$tmp"/shots/client-*.png docs/screenshots/
grep screenshot "$tmp/client.log"
exec 3>&-
