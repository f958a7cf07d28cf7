#!/usr/bin/env bash
# Captures node-opcua's client on a Basic256Sha256 Sign channel to ua-server (connect, session,
# browse, read, write, close) and checks that Wireshark's OPC UA dissector decodes it without
# malformed packets. The client's certificate is trusted the way an administrator does it: the
# first attempt is refused and lands in pki/rejected/certs, the file is moved to pki/trusted/certs.
# Usage: tshark_capture_signed.sh <ua-server> <node> ; exits 77 (ctest: skipped) without tshark.
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
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

# Below Linux's ephemeral ports (32768 and up), which other tests' clients may hold.
port=$(( 20000 + RANDOM % 12000 ))
"$server_bin" --headless --port "$port" --host 127.0.0.1 --pki "$work/pki" >"$work/server.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q listening "$work/server.log" && break; sleep 0.1; done
cat >"$work/matrix.json" <<JSON
{"pkiRoot": "$work/node-pki", "readNode": "i=2258", "writeNode": "ns=1;i=1007",
 "cases": [{"policy": "Basic256Sha256", "mode": "Sign", "user": {"type": "anonymous"}}]}
JSON
run_client() { (cd "$here" && "$node_bin" security_matrix.js "opc.tcp://127.0.0.1:$port" "$work/matrix.json" 2>"$work/client.log"); }
# 1. Refused: the certificate goes to rejected/.
run_client >"$work/first.json" || true
grep -q '"ok":false' "$work/first.json" || { echo "an untrusted client was let in:"; cat "$work/first.json"; exit 1; }
# The server may store it just after it answered: wait for it (up to 5 s). (`ls` of no file under
# pipefail would end the script without a word.)
rejected=""
for _ in $(seq 50); do
    rejected=$(find "$work/pki/rejected/certs" -name '*.der' 2>/dev/null | head -1 || true)
    [[ -n "$rejected" ]] && break
    sleep 0.1
done
[[ -n "$rejected" ]] || { echo "the untrusted certificate is not in pki/rejected/certs"; ls -R "$work/pki"; exit 1; }
mv "$rejected" "$work/pki/trusted/certs/"
# 2. Trusted: captured.
tshark -i lo -f "tcp port $port" -w "$work/capture.pcapng" -q >"$work/tshark.log" 2>&1 &
tshark_pid=$!
pids+=($tshark_pid)
# tshark captures once it says so on stderr; on a busy machine its start takes seconds, and a
# SIGINT before then was lost (the script then waited for it until ctest's timeout).
for _ in $(seq 300); do grep -q "Capturing on" "$work/tshark.log" && break; sleep 0.1; done
grep -q "Capturing on" "$work/tshark.log" || { echo "tshark did not start capturing in 30 s:"; cat "$work/tshark.log"; exit 1; }
run_client >"$work/second.json" || true
grep -q '"ok":true' "$work/second.json" || { echo "node-opcua client failed:"; cat "$work/second.json" "$work/client.log" | tail -20; exit 1; }
sleep 1
kill -INT "$tshark_pid"
for _ in $(seq 100); do kill -0 "$tshark_pid" 2>/dev/null || break; sleep 0.1; done
kill -TERM "$tshark_pid" 2>/dev/null || true  # still there after 10 s: what it wrote so far is read
wait "$tshark_pid" 2>/dev/null || true

decode=(tshark -r "$work/capture.pcapng" -d "tcp.port==$port,opcua")
total=$("${decode[@]}" -Y opcua 2>/dev/null | wc -l)
bad=$("${decode[@]}" -Y '_ws.malformed || _ws.expert.severity >= "error"' 2>/dev/null | wc -l)
policy=$("${decode[@]}" -Y opcua -T fields -e opcua.security.spu 2>/dev/null | grep -c Basic256Sha256 || true)
echo "OPC UA packets: $total, malformed or in error: $bad, OPN with Basic256Sha256: $policy"
"${decode[@]}" -Y opcua -T fields -e opcua.transport.type 2>/dev/null | sort | uniq -c
if (( bad > 0 )); then
    "${decode[@]}" -Y '_ws.malformed || _ws.expert.severity >= "error"' -V 2>/dev/null | head -80
    exit 1
fi
(( total >= 10 )) || { echo "too few OPC UA packets decoded: $total"; exit 1; }
(( policy >= 2 )) || { echo "no Basic256Sha256 OPN request and response in the capture"; exit 1; }
echo "1 passed, 0 failed"
