#!/usr/bin/env bash
# Screenshots of every page of ua-server's window with live data, for docs/ServerApp.md and the
# README: starts the window under Xvfb with a configuration of its own (two users, a PKI in a
# temporary folder), puts node-opcua clients on it (scripts/screenshot-clients.js), and after
# SECONDS (default 30) of live data saves one PNG per page into docs/screenshots/.
#   scripts/screenshots.sh [build-dir] [seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
seconds=${2:-30}
server=$build/server-app/ua-server
node=${UA_NODE:-$(command -v node)}
[[ -x $server ]] || { echo "error: $server not built" >&2; exit 1; }
command -v xvfb-run >/dev/null || { echo "error: xvfb-run is not installed (apt-get install xvfb)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'kill $clients 2>/dev/null || true; rm -rf "$tmp"' EXIT
clients=
# Two users (PBKDF2-HMAC-SHA256 as ua/server/users/UserStore.h stores them; a low iteration count
# is fine for a throw-away configuration).
python3 - "$tmp/ua-server.json" "$tmp/pki" <<'PY'
import base64, hashlib, json, os, sys
def user(name, password, roles):
    salt = os.urandom(16)
    h = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 10000, 32)
    return {"name": name, "roles": roles, "password": {"algorithm": "PBKDF2-HMAC-SHA256", "iterations": 10000,
            "salt": base64.b64encode(salt).decode(), "hash": base64.b64encode(h).decode()}}
json.dump({"version": 1,
           "endpoint": {"host": "127.0.0.1", "port": 0, "ioThreads": 2},
           # The default endpoints plus the ECC ones, so that the pages show ECC beside RSA.
           "security": {"pkiDir": sys.argv[2],
                        "endpoints": [{"policy": "None", "mode": "None"}] +
                                     [{"policy": p, "mode": m}
                                      for p in ("Basic256Sha256", "Aes128_Sha256_RsaOaep", "Aes256_Sha256_RsaPss")
                                      for m in ("Sign", "SignAndEncrypt")] +
                                     [{"policy": p, "mode": "SignAndEncrypt"} for p in ("ECC_nistP256", "ECC_nistP384")]},
           "demo": {"updateRateMs": 250, "eventsMs": 2000},
           "users": {"anonymousRoles": ["Anonymous", "Operator"],
                     "users": [user("alice", "alice-pw", ["Operator"]),
                               user("bob", "bob-pw", ["Engineer", "Operator"]),
                               user("carol", "carol-pw", ["SecurityAdmin"])]}},
          open(sys.argv[1], "w"), indent=2)
PY

export XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data XDG_RUNTIME_DIR=$tmp/run
mkdir -p "$tmp/run" && chmod 700 "$tmp/run"
xvfb-run -a -s "-screen 0 1400x1000x24" "$server" --window --config "$tmp/ua-server.json" \
    --screenshots "$tmp/shots" --screenshots-after "$seconds" >"$tmp/server.log" 2>&1 &
window=$!
url=
for _ in $(seq 100); do
    url=$(grep -o 'opc\.tcp://[^ ]*' "$tmp/server.log" | head -1 || true)
    [[ -n $url ]] && break
    sleep 0.2
done
[[ -n $url ]] || { cat "$tmp/server.log" >&2; exit 1; }
echo "window's server at $url; $seconds s of live data"
"$node" scripts/screenshot-clients.js "$url" bob bob-pw 2>"$tmp/clients.log" &
clients=$!
wait $window || { cat "$tmp/server.log" >&2; exit 1; }
mkdir -p docs/screenshots
cp "$tmp"/shots/*.png docs/screenshots/
grep screenshot "$tmp/server.log"
