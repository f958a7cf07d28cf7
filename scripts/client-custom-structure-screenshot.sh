#!/usr/bin/env bash
# The screenshot of a custom structure in ua-client's attributes view (docs/ClientApp.md "Custom
# structures"): starts ua-server headless with tests/interop/data/custom-types.NodeSet2.xml, then the
# window under Xvfb with the --screenshot-node tour (client-app/window/ScreenshotTour.cpp) on the
# RecipeVariable, saving docs/screenshots/client-9-custom-structure.png.
#   scripts/client-custom-structure-screenshot.sh [build-dir] [port]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
port=${2:-48497}
client=$build/client-app/ua-client
server_bin=$build/server-app/ua-server
[[ -x $client && -x $server_bin ]] || { echo "error: $client or $server_bin not built" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "error: xvfb-run is not installed (apt-get install xvfb)" >&2; exit 1; }

tmp=$(mktemp -d)
server=
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$tmp"' EXIT
export XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data XDG_RUNTIME_DIR=$tmp/run
mkdir -p "$tmp/run" && chmod 700 "$tmp/run"
"$server_bin" --headless --port "$port" --nodeset tests/interop/data/custom-types.NodeSet2.xml >"$tmp/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
    sleep 0.2
done
xvfb-run -a -s "-screen 0 1400x1000x24" "$client" --connect "opc.tcp://127.0.0.1:$port" --pki "$tmp/pki" \
    --screenshots "$tmp/shots" --screenshot-node "nsu=urn:ua-workbench:test:custom-types;i=5003" >"$tmp/client.log" 2>&1 ||
    { cat "$tmp/client.log" "$tmp/server.log" >&2; exit 1; }
mkdir -p docs/screenshots
cp "$tmp/shots/client-9-custom-structure.png" docs/screenshots/
grep screenshot "$tmp/client.log"
