#!/usr/bin/env bash
# Captures an interop session (node-opcua's client running client_services.js, then client_alarms.js's condition
# events and Methods, against ua-server) on loopback and checks that Wireshark's OPC UA dissector decodes it
# without malformed packets or errors.
# Usage: tshark_capture.sh <ua-server> <node> ; exits 77 (ctest: skipped) without tshark.
set -euo pipefail
server_bin=$1
node_bin=$2
here=$(cd "$(dirname "$0")" && pwd)
source "$(dirname "$0")/tshark_common.sh"
tshark_require
tshark_init

port=$(tshark_port)
# The defaults, without a history file, and an alarm on the demo's writable Double for client_alarms.js.
cat >"$work/ua-server.json" <<'JSON'
{"history": {"enabled": false},
 "alarms": {"pollMs": 20, "definitions": [{"name": "TankLevel", "kind": "exclusiveLevel", "high": 10, "highHigh": 20,
            "input": "nsu=urn:ua-workbench:demo;s=Demo.Scalars.Double", "severity": 600}]}}
JSON
"$server_bin" --headless --config "$work/ua-server.json" --port "$port" --host 127.0.0.1 >"$work/server.log" 2>&1 &
track $!
tshark_start "$port"
for _ in $(seq 50); do grep -q listening "$work/server.log" && break; sleep 0.1; done
"$node_bin" "$here/client_services.js" "opc.tcp://127.0.0.1:$port" >"$work/client.json" 2>"$work/client.log" || {
    echo "node-opcua client failed:"; cat "$work/client.json" "$work/client.log"; exit 1; }
# The demo namespace is ns=2 of ua-server (ns=1 is the server's own, where the conditions are).
"$node_bin" "$here/client_alarms.js" "opc.tcp://127.0.0.1:$port" "ns=1;s=Alarms/TankLevel" "ns=2;s=Demo.Scalars.Double" \
    >"$work/alarms.json" 2>"$work/alarms.log" || {
    echo "node-opcua alarms client failed:"; cat "$work/alarms.json" "$work/alarms.log"; exit 1; }
tshark_stop

tshark_decode "$port"
echo "OPC UA packets: $total, malformed or in error: $bad"
"${decode[@]}" -Y opcua -T fields -e opcua.transport.type -e opcua.servicenodeid.numeric 2>/dev/null | sort | uniq -c
(( total >= 100 )) || { echo "too few OPC UA packets decoded: $total"; exit 1; }
# The condition Methods went over the wire (CallRequest, i=712) and were decoded.
calls=$("${decode[@]}" -Y 'opcua.servicenodeid.numeric == 712' 2>/dev/null | wc -l)
(( calls >= 15 )) || { echo "too few Call requests decoded: $calls"; exit 1; }
echo "1 passed, 0 failed"
