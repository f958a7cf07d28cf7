#!/usr/bin/env bash
# Cost against Sessions at a fixed total rate (issue 28 item 3): `ua-loadtest sweep --rate R` against
# our headless server and then node-opcua's (tests/interop/node_bench_server.js, at most 1,000
# Sessions), each server's process known to the load tester, one load tester I/O thread. Per step:
# the server's CPU per request, its RSS growth per Session (from before the sweep's first
# Sessions) and the load tester's own CPU per request, as result lines; the JSON of each sweep in DIR.
#
#   scripts/bench-cost-sweep.sh [--rate R] [--ours 100,1000,5000,19900] [--node 100,500,990] [--out DIR]
#
# Needs the build (build/server-app/ua-server, build/loadtest-app/ua-loadtest; BUILD=dir for
# another) and tests/interop/node_modules (./test.sh installs them). 19,900 Sessions need a
# descriptor limit of 20,000 (the script raises the soft limit to the hard one).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
rate=1000 ours=100,1000,5000,19900 node=100,500,990 out=$BUILD/cost-sweep
while (($#)); do
    case $1 in
    --rate) rate=$2; shift 2 ;;
    --ours) ours=$2; shift 2 ;;
    --node) node=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-cost-sweep.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
mkdir -p "$out"
ulimit -n "$(ulimit -Hn)"
tmp=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$tmp"' EXIT
max=$(tr ',' '\n' <<<"$ours" | sort -n | tail -1)
STEP=(--rate "$rate" --outstanding 1 --duration 8 --warmup 2 --connect-window 64 --timeout 30000 --io-threads 1 --no-stop --quiet)
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

echo '{}' > "$tmp/cfg.json"
"$BUILD/server-app/ua-server" --headless --port 0 --host 127.0.0.1 --config "$tmp/cfg.json" --pki "$tmp/pki" \
    --max-sessions $((max + 100)) --max-channels $((max + 200)) --max-handshakes 0 --max-pending-sessions 0 \
    --demo-events-ms 0 --shutdown-delay 0 > "$tmp/ours.log" 2>&1 &
pid=$!
pids+=("$pid")
url=
for _ in $(seq 100); do
    url=$(grep -o 'opc.tcp://[^ ]*' "$tmp/ours.log" | head -1 || true)
    [[ -n $url ]] && break
    sleep 0.1
done
echo "== ours ($url), $rate requests/s, Sessions $ours"
"$BUILD/loadtest-app/ua-loadtest" sweep "$url" --server-pid "$pid" --sessions "$ours" "${STEP[@]}" --json "$out/ours.json" || true
kill "$pid"; wait "$pid" 2>/dev/null || true

mkfifo "$tmp/stdin"
sleep 100000 > "$tmp/stdin" &
pids+=($!)
(cd "$ROOT/tests/interop" && exec node node_bench_server.js 0 < "$tmp/stdin" > "$tmp/node.ready" 2> "$tmp/node.log") &
npid=$!
pids+=("$npid")
for _ in $(seq 120); do grep -q READY "$tmp/node.ready" 2>/dev/null && break; sleep 1; done
port=$(awk '/READY/ {print $2}' "$tmp/node.ready")
[[ -n $port ]] || { echo "node_bench_server.js did not start: $(tail -3 "$tmp/node.log")" >&2; exit 3; }
echo "== node-opcua (opc.tcp://localhost:$port), $rate requests/s, Sessions $node"
"$BUILD/loadtest-app/ua-loadtest" sweep "opc.tcp://localhost:$port" --server-pid "$npid" --sessions "$node" "${STEP[@]}" --json "$out/node.json" || true
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
