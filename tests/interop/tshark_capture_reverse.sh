#!/usr/bin/env bash
# Captures a Reverse Connect session (OPC 10000-6 7.1.3): ua-server dials node-opcua's client
# listener (client_reverse.js: two Sessions over the server's spares) and checks that Wireshark's
# OPC UA dissector decodes it, ReverseHello messages included, without malformed packets or errors.
# Usage: tshark_capture_reverse.sh <ua-server> <node> ; exits 77 (ctest: skipped) without tshark.
set -euo pipefail
server_bin=$1
node_bin=$2
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v tshark >/dev/null; then
    echo "SKIPPED: tshark is not installed (./test.sh installs it)"
    exit 77
fi
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; exec 7>&- 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# Below Linux's ephemeral ports (32768 and up), which other tests' clients may hold.
listen_port=$(( 20000 + RANDOM % 12000 ))
server_port=$(( listen_port + 1 ))
echo '{"history": {"enabled": false}}' >"$work/ua-server.json"
tshark -i lo -f "tcp port $listen_port" -w "$work/capture.pcapng" -q >"$work/tshark.log" 2>&1 &
tshark_pid=$!
pids+=($tshark_pid)
for _ in $(seq 300); do grep -q "Capturing on" "$work/tshark.log" && break; sleep 0.1; done
grep -q "Capturing on" "$work/tshark.log" || { echo "tshark did not start capturing in 30 s:"; cat "$work/tshark.log"; exit 1; }
mkfifo "$work/stdin"
"$node_bin" "$here/client_reverse.js" "$listen_port" <"$work/stdin" >"$work/client.out" 2>"$work/client.log" &
client_pid=$!
pids+=($client_pid)
exec 7>"$work/stdin"
for _ in $(seq 300); do grep -q "^LISTENING" "$work/client.out" && break; sleep 0.1; done
grep -q "^LISTENING" "$work/client.out" || { echo "node-opcua's listener did not start:"; cat "$work/client.log"; exit 1; }
"$server_bin" --headless --config "$work/ua-server.json" --port "$server_port" --host 127.0.0.1 \
    --reverse-connect "opc.tcp://127.0.0.1:$listen_port" >"$work/server.log" 2>&1 &
pids+=($!)
# The ApplicationUri ua-server makes from --host (ServerConfig::applicationUri).
echo "opc.tcp://127.0.0.1:$server_port urn:127.0.0.1:UAWorkbench:Server" >&7
wait "$client_pid" || { echo "node-opcua reverse client failed:"; cat "$work/client.out" "$work/client.log"; exit 1; }
sleep 1
kill -INT "$tshark_pid"
for _ in $(seq 100); do kill -0 "$tshark_pid" 2>/dev/null || break; sleep 0.1; done
kill -TERM "$tshark_pid" 2>/dev/null || true
wait "$tshark_pid" 2>/dev/null || true

decode=(tshark -r "$work/capture.pcapng" -d "tcp.port==$listen_port,opcua")
total=$("${decode[@]}" -Y opcua 2>/dev/null | wc -l)
bad=$("${decode[@]}" -Y '_ws.malformed || _ws.expert.severity >= "error"' 2>/dev/null | wc -l)
rhe=$("${decode[@]}" -Y 'opcua.transport.type == "RHE"' 2>/dev/null | wc -l)
echo "OPC UA packets: $total, ReverseHello: $rhe, malformed or in error: $bad"
if (( bad > 0 )); then
    "${decode[@]}" -Y '_ws.malformed || _ws.expert.severity >= "error"' -V 2>/dev/null | head -80
    exit 1
fi
(( rhe >= 2 )) || { echo "too few ReverseHello messages decoded: $rhe"; exit 1; }
(( total >= 20 )) || { echo "too few OPC UA packets decoded: $total"; exit 1; }
echo "1 passed, 0 failed"
