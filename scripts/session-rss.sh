#!/usr/bin/env bash
# Server memory per Session (issue 9 target 7, docs/Benchmarks.md "5,000 sessions"): for each
# count N, a fresh `ua-server --headless` and the load tester's subscribe scenario with N Sessions
# (SecurityPolicy None, one Subscription of 10 MonitoredItems each, parked Publish requests);
# the server's RSS with the Sessions held (VmRSS read by the load tester at the end of the step)
# and the slope between the first and the last count, which is the figure per Session.
#
#   scripts/session-rss.sh [--server PATH] [--loadtest PATH] [--counts "2000 5000"] [--port P] [--label TEXT]
#
# Prints one line per count and the slope; needs `ulimit -n` above the largest count + 200.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
server=$BUILD/server-app/ua-server
loadtest=$BUILD/loadtest-app/ua-loadtest
counts="2000 5000"
port=4841
label=""
while [ $# -gt 0 ]; do
    case "$1" in
    --server) server=$2; shift 2 ;;
    --loadtest) loadtest=$2; shift 2 ;;
    --counts) counts=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --label) label=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "session-rss.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
ulimit -n 20000 2>/dev/null || true
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo '{}' > "$tmp/cfg.json"
first=""; last=""
for n in $counts; do
    "$server" --headless --config "$tmp/cfg.json" --pki "$tmp/pki" --port "$port" --demo-events-ms 0 \
        --max-sessions $((n + 50)) --max-channels $((n + 100)) --shutdown-delay 0 > "$tmp/server.log" 2>&1 &
    pid=$!
    sleep 3
    idle=$(awk '/VmRSS/ {print $2}' /proc/$pid/status)
    "$loadtest" run "opc.tcp://localhost:$port" --server-pid "$pid" --scenario subscribe --sessions "$n" --items 10 \
        --counter-node 'ns=1;i=1000' --sampling 1000 --publishing 1000 --warmup 2 --duration 10 --io-threads 2 \
        --timeout 30000 --quiet --json "$tmp/run.json" > "$tmp/run.txt" 2>&1 || true
    kill "$pid"; wait "$pid" 2>/dev/null || true
    rss=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); s=d["steps"][0] if "steps" in d else d; print(int(s["serverRssKb"]))' "$tmp/run.json" 2>/dev/null || echo 0)
    line=$(grep -m1 'subscribe' "$tmp/run.txt" || true)
    echo "${label:+$label  }sessions $n  idle ${idle} kB  with sessions ${rss} kB  per session $(( (rss - idle) / n )) kB  | $line"
    [ -z "$first" ] && first="$n $rss"
    last="$n $rss"
done
read -r n1 r1 <<< "$first"
read -r n2 r2 <<< "$last"
if [ "$n2" != "$n1" ]; then
    echo "${label:+$label  }slope from $n1 to $n2 sessions: $(( (r2 - r1) / (n2 - n1) )) kB per session ($(( r1 / 1024 )) -> $(( r2 / 1024 )) MB)"
fi
