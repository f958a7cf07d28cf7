#!/usr/bin/env bash
# Captures a Reverse Connect session (OPC 10000-6 7.1.3): ua-server dials node-opcua's client
# listener (client_reverse.js: two Sessions over the server's spares) and checks that Wireshark's
# OPC UA dissector decodes it, ReverseHello messages included, without malformed packets or errors.
# Usage: tshark_capture_reverse.sh <ua-server> <node> ; exits 77 (ctest: skipped) without tshark.
set -euo pipefail
server_bin=$1
node_bin=$2
here=$(cd "$(dirname "$0")" && pwd)
source "$(dirname "$0")/tshark_common.sh"
tshark_require
tshark_init

listen_port=$(tshark_port)
server_port=$(( listen_port + 1 ))
echo '{"history": {"enabled": false}}' >"$work/ua-server.json"
tshark_start "$listen_port"
mkfifo "$work/stdin"
"$node_bin" "$here/client_reverse.js" "$listen_port" <"$work/stdin" >"$work/client.out" 2>"$work/client.log" &
client_pid=$!
track "$client_pid"
exec 7>"$work/stdin"
for _ in $(seq 300); do grep -q "^LISTENING" "$work/client.out" && break; sleep 0.1; done
grep -q "^LISTENING" "$work/client.out" || { echo "node-opcua's listener did not start:"; cat "$work/client.log"; exit 1; }
"$server_bin" --headless --config "$work/ua-server.json" --port "$server_port" --host 127.0.0.1 \
    --reverse-connect "opc.tcp://127.0.0.1:$listen_port" >"$work/server.log" 2>&1 &
track $!
# The ApplicationUri ua-server makes from --host (ServerConfig::applicationUri).
echo "opc.tcp://127.0.0.1:$server_port urn:127.0.0.1:UAWorkbench:Server" >&7
wait "$client_pid" || { echo "node-opcua reverse client failed:"; cat "$work/client.out" "$work/client.log"; exit 1; }
tshark_stop

tshark_decode "$listen_port"
rhe=$("${decode[@]}" -Y 'opcua.transport.type == "RHE"' 2>/dev/null | wc -l)
echo "OPC UA packets: $total, ReverseHello: $rhe, malformed or in error: $bad"
(( rhe >= 2 )) || { echo "too few ReverseHello messages decoded: $rhe"; exit 1; }
(( total >= 20 )) || { echo "too few OPC UA packets decoded: $total"; exit 1; }
echo "1 passed, 0 failed"
