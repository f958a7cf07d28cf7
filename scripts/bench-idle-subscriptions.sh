#!/usr/bin/env bash
# Idle Subscriptions at scale (issue 25, target 2): N Sessions (SecurityPolicy None) on one fresh
# `ua-server --headless`, each with one Subscription (publishing interval 1,000 ms,
# maxKeepAliveCount 10, lifetime count 30, 2 Publish requests queued) holding one MonitoredItem
# that samples an unchanging variable (the benchmark namespace's ns=1;i=1000) every 1,000 ms;
# Session timeout 60 s (the client's default); no other requests. Once every Session is set up,
# the server's CPU (from /proc/PID/stat) over --measure seconds and its RSS against its RSS
# before the first connection.
#
#   scripts/bench-idle-subscriptions.sh [--sessions N] [--processes P] [--measure S] [--rounds R]
#                                       [--port P] [--server PATH] [--loadtest PATH]
#
# --processes P splits the Sessions over P load tester processes, the k-th connecting to
# 127.0.0.k (so that no process or address runs out of descriptors or ephemeral ports). The
# descriptor limit of this shell (ulimit -n, raised to its hard limit here) bounds the server's
# connections: N + 100 must fit in it.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
server=$BUILD/server-app/ua-server
loadtest=$BUILD/loadtest-app/ua-loadtest
sessions=19900
processes=1
measure=20
rounds=1
port=4852
while [ $# -gt 0 ]; do
    case "$1" in
    --sessions) sessions=$2; shift 2 ;;
    --processes) processes=$2; shift 2 ;;
    --measure) measure=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --server) server=$2; shift 2 ;;
    --loadtest) loadtest=$2; shift 2 ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "bench-idle-subscriptions.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
ulimit -n "$(ulimit -Hn)"
if (( sessions + 100 > $(ulimit -n) )); then
    echo "bench-idle-subscriptions.sh: $sessions Sessions need $((sessions + 100)) descriptors; this process may have $(ulimit -n) (ulimit -Hn)" >&2
    exit 2
fi
tmp=$(mktemp -d)
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
echo '{}' > "$tmp/cfg.json"
hz=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
rss_kb() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }

for ((round = 1; round <= rounds; ++round)); do
    pids=()
    "$server" --headless --config "$tmp/cfg.json" --pki "$tmp/pki" --port "$port" --demo-events-ms 0 \
        --max-sessions $((sessions + 50)) --max-channels $((sessions + 80)) --max-subscriptions $((sessions + 50)) \
        --max-handshakes 0 --max-pending-sessions 0 --shutdown-delay 0 > "$tmp/server.log" 2>&1 &
    spid=$!
    pids+=("$spid")
    sleep 2
    base=$(rss_kb "$spid")
    per=$(( (sessions + processes - 1) / processes ))
    left=$sessions
    for ((k = 1; k <= processes && left > 0; ++k)); do
        n=$(( left < per ? left : per ))
        left=$(( left - n ))
        "$loadtest" run "opc.tcp://127.0.0.$k:$port" --scenario subscribe --sessions "$n" --items 1 --sampling 1000 \
            --publishing 1000 --keepalive-count 10 --lifetime-count 30 --publish-requests 2 --counter-node 'ns=1;i=1000' \
            --warmup 2 --duration 100000 --connect-window 64 --timeout 30000 --no-diagnostics \
            > "$tmp/lt$k.out" 2> "$tmp/lt$k.err" &
        pids+=("$!")
    done
    started=$(date +%s)
    for ((k = 1; k < ${#pids[@]}; ++k)); do  # every load tester past its set-up and warm-up
        until grep -q 'measuring 1 s' "$tmp/lt$k.err"; do
            if ! kill -0 "${pids[$k]}" 2>/dev/null; then
                echo "load tester $k ended before measuring:" >&2; tail -5 "$tmp/lt$k.err" "$tmp/lt$k.out" >&2; exit 1
            fi
            sleep 1
        done
    done
    setup=$(( $(date +%s) - started ))
    c0=$(cpu_ticks "$spid"); t0=$(date +%s.%N)
    sleep "$measure"
    c1=$(cpu_ticks "$spid"); t1=$(date +%s.%N)
    rss=$(rss_kb "$spid")
    conns=$(ls "/proc/$spid/fd" | wc -l)
    errors=$(cat "$tmp"/lt*.err | grep -c 'errors [1-9]' || true)
    python3 - "$round" "$sessions" "$processes" "$c0" "$c1" "$t0" "$t1" "$hz" "$base" "$rss" "$conns" "$setup" "$errors" "$(cat /proc/loadavg)" <<'EOF'
import sys
r, n, p, c0, c1, t0, t1, hz, base, rss, fds, setup, errors, load = sys.argv[1:]
n = int(n)
cpu = (int(c1) - int(c0)) / int(hz) / (float(t1) - float(t0)) * 100
per = (int(rss) - int(base)) / n
print(f"round {r}: {n} Sessions from {p} load tester process(es), set up in {setup} s; server CPU {cpu:.1f} % of a core "
      f"over {float(t1) - float(t0):.0f} s; RSS {int(base) / 1024:.1f} MB before, {int(rss) / 1024:.1f} MB with the Sessions: "
      f"{per:.1f} KB per Session; {fds} descriptors; progress lines with errors: {errors}; load average {load.split()[0]}")
EOF
    kill "${pids[@]:1}" 2>/dev/null || true
    wait "${pids[@]:1}" 2>/dev/null || true
    kill "$spid"; wait "$spid" 2>/dev/null || true
done
