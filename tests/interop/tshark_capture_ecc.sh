#!/usr/bin/env bash
# Captures ECC SecureChannels (issue 32 item 3, OPC 10000-6 6.8.1): ua-client reads from ua-server
# over ECC_nistP256 Sign, ECC_nistP256 SignAndEncrypt and ECC_nistP384 SignAndEncrypt (Hello,
# the signed-only OpenSecureChannel with EphemeralKeys, GetEndpoints, CreateSession, ActivateSession,
# Read, CloseSession, CloseSecureChannel), and checks that Wireshark's OPC UA dissector decodes every
# packet without a malformed one or an error; over ECC_nistP256 Sign also a password login, whose
# additionalHeaders (ECDHPolicyUri, ECDHKey) and EccEncryptedSecret travel signed but readable. No npm
# peer speaks ECC, so both ends are ours.
# Usage: tshark_capture_ecc.sh <ua-server> <ua-client> ; exits 77 (ctest: skipped) without tshark.
set -euo pipefail
server_bin=$1
client_bin=$2
source "$(dirname "$0")/tshark_common.sh"
tshark_require
tshark_init

port=$(tshark_port)
# One user, alice (PBKDF2-HMAC-SHA256 as ua/server/users/UserStore.h stores it; few iterations for a
# throw-away configuration).
python3 - "$work/ua-server.json" "$work/server-pki" <<'PY'
import base64, hashlib, json, os, sys
salt = os.urandom(16)
digest = hashlib.pbkdf2_hmac("sha256", b"alice-pw", salt, 1000, 32)
json.dump({"history": {"enabled": False},
           "security": {"pkiDir": sys.argv[2], "trustAllClients": True,
                        "endpoints": [{"policy": "None", "mode": "None"},
                                      {"policy": "ECC_nistP256", "mode": "Sign"},
                                      {"policy": "ECC_nistP256", "mode": "SignAndEncrypt"},
                                      {"policy": "ECC_nistP384", "mode": "SignAndEncrypt"}]},
           "users": {"users": [{"name": "alice", "roles": ["Operator"],
                                "password": {"algorithm": "PBKDF2-HMAC-SHA256", "iterations": 1000,
                                             "salt": base64.b64encode(salt).decode(),
                                             "hash": base64.b64encode(digest).decode()}}]}},
          open(sys.argv[1], "w"))
PY
tshark_start "$port"
"$server_bin" --headless --config "$work/ua-server.json" --port "$port" --host 127.0.0.1 >"$work/server.log" 2>&1 &
track $!
for _ in $(seq 300); do (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
url="opc.tcp://127.0.0.1:$port"
for run in "ECC_nistP256 sign" "ECC_nistP256 signandencrypt" "ECC_nistP384 signandencrypt" "ECC_nistP256 sign alice"; do
    read -r policy mode user <<<"$run"
    login=()
    [[ -n "${user:-}" ]] && login=(--user "$user" --password "$user-pw")
    if ! "$client_bin" read "$url" i=2259 --policy "$policy" --security "$mode" --trust --pki "$work/client-pki" "${login[@]}" \
        >"$work/client.out" 2>&1; then
        echo "ua-client over $policy $mode failed:"; cat "$work/client.out"; tail -20 "$work/server.log"; exit 1
    fi
    # ServerStatus.State: 0 (Running)
    grep -qx "0" "$work/client.out" || { echo "no State read over $policy $mode:"; cat "$work/client.out"; exit 1; }
done
# The server took the password (its Session runs as alice).
grep -q "as alice" "$work/server.log" || { echo "the server logged no Session of alice:"; tail -20 "$work/server.log"; exit 1; }
tshark_stop

tshark_decode "$port"
opn=$("${decode[@]}" -Y 'opcua.transport.type == "OPN"' 2>/dev/null | wc -l)
echo "OPC UA packets: $total, OpenSecureChannel: $opn, malformed or in error: $bad"
(( opn >= 8 )) || { echo "too few OpenSecureChannel messages decoded: $opn"; exit 1; }
# The password login's ActivateSession went over the signed-only channel: readable, and decoded.
activate=$("${decode[@]}" -Y 'opcua.transport.type == "MSG"' -V 2>/dev/null | grep -c "ActivateSessionRequest" || true)
(( activate >= 1 )) || { echo "no ActivateSessionRequest decoded on the Sign channels"; exit 1; }
(( total >= 30 )) || { echo "too few OPC UA packets decoded: $total"; exit 1; }
echo "1 passed, 0 failed"
