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
source "$(dirname "$0")/tshark_common.sh"
tshark_require
tshark_init

port=$(tshark_port)
"$server_bin" --headless --port "$port" --host 127.0.0.1 --pki "$work/pki" >"$work/server.log" 2>&1 &
track $!
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
tshark_start "$port"
run_client >"$work/second.json" || true
grep -q '"ok":true' "$work/second.json" || { echo "node-opcua client failed:"; cat "$work/second.json" "$work/client.log" | tail -20; exit 1; }
tshark_stop

tshark_decode "$port"
policy=$("${decode[@]}" -Y opcua -T fields -e opcua.security.spu 2>/dev/null | grep -c Basic256Sha256 || true)
echo "OPC UA packets: $total, malformed or in error: $bad, OPN with Basic256Sha256: $policy"
"${decode[@]}" -Y opcua -T fields -e opcua.transport.type 2>/dev/null | sort | uniq -c
(( total >= 10 )) || { echo "too few OPC UA packets decoded: $total"; exit 1; }
(( policy >= 2 )) || { echo "no Basic256Sha256 OPN request and response in the capture"; exit 1; }
echo "1 passed, 0 failed"
