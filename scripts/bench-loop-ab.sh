#!/usr/bin/env bash
# Closed loop, the server's event loop A/B (issue 25): read-1 with S Sessions x O outstanding
# requests, our headless ua-server started per round with each loop in turn, in the same run:
#   qt       Qt's UNIX dispatcher (UA_EVENT_LOOP=qt, ppoll over every socket)
#   epoll    EpollEventDispatcher with epoll at every descriptor count (UA_EVENT_LOOP=epoll)
#   default  EpollEventDispatcher as shipped: poll() up to kPollUpTo descriptors, epoll above
# The load tester runs on its default loop in every round, so only the server differs.
# Usage: scripts/bench-loop-ab.sh [--sessions 20] [--outstanding 1] [--rounds 5] [--seconds 5]
#                                 [--loops qt,epoll,default] [--build build]
# Prints each round's requests/s and a Markdown table of medians with each loop's ratio to the
# first one of --loops, round by round (docs/Benchmarks.md).
set -euo pipefail
cd "$(dirname "$0")/.."
sessions=20 outstanding=1 rounds=5 seconds=5 loops=qt,epoll,default build=build
while (($#)); do
    case $1 in
    --sessions) sessions=$2; shift 2 ;;
    --outstanding) outstanding=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --loops) loops=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
server=$build/server-app/ua-server
loadtest=$build/loadtest-app/ua-loadtest
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
port=4960
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for ((r = 1; r <= rounds; ++r)); do
    for loop in ${loops//,/ }; do
        port=$((port + 1))
        envs=()
        case $loop in
        qt) envs=(UA_EVENT_LOOP=qt) ;;
        epoll) envs=(UA_EVENT_LOOP=epoll) ;;
        default) ;;
        *) echo "unknown loop $loop" >&2; exit 2 ;;
        esac
        env "${envs[@]}" "$server" --headless --port "$port" --config "$out/none.json" >"$out/server-$port.log" 2>&1 &
        spid=$!
        for _ in $(seq 50); do
            ss -ltn "sport = :$port" | grep -q LISTEN && break
            sleep 0.1
        done
        if ! "$loadtest" run "opc.tcp://localhost:$port" --sessions "$sessions" --outstanding "$outstanding" \
            --duration "$seconds" --warmup 1 --server-pid "$spid" --quiet --json "$out/$loop-$r.json" \
            >"$out/$loop-$r.txt" 2>&1; then
            echo "$loop round $r failed:" >&2
            tail -3 "$out/$loop-$r.txt" >&2
        fi
        kill "$spid" 2>/dev/null || true
        wait "$spid" 2>/dev/null || true
        echo "round $r $loop: $(tail -1 "$out/$loop-$r.txt")" >&2
    done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 - "$out" "$loops" "$rounds" "$sessions" "$outstanding" <<'EOF'
import json, statistics, sys
out, loops, rounds, sessions, outstanding = sys.argv[1], sys.argv[2].split(','), int(sys.argv[3]), sys.argv[4], sys.argv[5]
def step(loop, r):
    try: return json.load(open(f'{out}/{loop}-{r}.json'))['steps'][0]
    except Exception: return None
print(f'read-1 {sessions} x {outstanding}, closed loop, {rounds} rounds')
print()
print(f'| server loop | requests/s (median) | ratio to {loops[0]} (median of rounds) | ratios per round | server CPU µs/request | p50 / p99 ms |')
print('|---|---:|---:|---|---:|---:|')
for loop in loops:
    steps = [step(loop, r) for r in range(1, rounds + 1)]
    base = [step(loops[0], r) for r in range(1, rounds + 1)]
    ok = [s for s in steps if s]
    if not ok: print(f'| {loop} | failed | | | | |'); continue
    ratios = [s['requestsPerS'] / b['requestsPerS'] for s, b in zip(steps, base) if s and b]
    med = statistics.median
    print(f"| {loop} | {med([s['requestsPerS'] for s in ok]):,.0f} | {med(ratios):.2f} | {' '.join(f'{x:.2f}' for x in ratios)} "
          f"| {med([s['serverCpuMsPerOp'] * 1000 for s in ok]):.1f} | {med([s['p50Us'] for s in ok]) / 1000:.3f} / {med([s['p99Us'] for s in ok]) / 1000:.3f} |")
EOF
