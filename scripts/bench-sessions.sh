#!/usr/bin/env bash
# The server's CPU per request at a fixed rate spread over more and more Sessions (issue 25):
# read-1, open loop, one request in flight per Session, our headless ua-server started per step
# with each of --loops in turn, in the same run: qt (Qt's dispatcher, UA_EVENT_LOOP=qt), epoll
# (epoll at every descriptor count, UA_EVENT_LOOP=epoll) or default (as shipped: poll() up to
# EpollEventDispatcher::kPollUpTo descriptors, epoll above; the "epoll" of runs before 2026-12-03).
# The load tester always runs on its default loop, so only the server differs.
# Usage: scripts/bench-sessions.sh [--sessions 100,1000,3000,10000] [--rate 3000] [--rounds 3]
#                                  [--seconds 8] [--loops qt,default] [--client-threads N] [--build build]
# --client-threads: the load tester's I/O threads at every step (default: its own rule, 1 per 100
# Sessions, so 1 at 100 Sessions and 2 from 101 on a 2-core machine; each thread paces and sends
# on its own, so the server's wake-ups per request change with that count, not with its own).
# --clients LABEL=PATH,LABEL=PATH: load tester binaries to alternate at every step (default: the
# build's, labelled "lt"), e.g. a build before a change of the load tester and one after it.
# --servers LABEL=PATH,LABEL=PATH: server binaries to alternate at every step likewise (default:
# the build's, labelled "server"), e.g. a server before a change and one after it, in the same run.
# Prints a Markdown table of medians (docs/Benchmarks.md, "An event loop per I/O thread on epoll").
set -euo pipefail
cd "$(dirname "$0")/.."
sessions=100,1000,3000,10000 rate=3000 rounds=3 seconds=8 loops=qt,default build=build clientThreads= clients= servers=
while (($#)); do
    case $1 in
    --sessions) sessions=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --loops) loops=$2; shift 2 ;;
    --client-threads) clientThreads=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --servers) servers=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
servers=${servers:-server=$build/server-app/ua-server}
clients=${clients:-lt=$build/loadtest-app/ua-loadtest}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
ulimit -n "$(ulimit -Hn)"
port=4920
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for n in ${sessions//,/ }; do
    for ((r = 1; r <= rounds; ++r)); do
        for loop in ${loops//,/ }; do
          for client in ${clients//,/ }; do
           for srv in ${servers//,/ }; do
            label=${client%%=*} loadtest=${client#*=} slabel=${srv%%=*} server=${srv#*=}
            port=$((port + 1))
            envs=()
            case $loop in
            qt) envs=(UA_EVENT_LOOP=qt) ;;          # Qt's dispatcher, ppoll over every socket
            epoll) envs=(UA_EVENT_LOOP=epoll) ;;    # epoll at every descriptor count
            default) ;;                             # as shipped: poll() up to kPollUpTo descriptors, epoll above
            *) echo "unknown loop $loop" >&2; exit 2 ;;
            esac
            env "${envs[@]}" "$server" --headless --port "$port" --max-sessions $((n + 100)) \
                --max-channels $((n + 200)) --max-handshakes 0 --max-pending-sessions 0 \
                --config "$out/none.json" >"$out/server-$port.log" 2>&1 &
            spid=$!
            for _ in $(seq 50); do
                ss -ltn "sport = :$port" | grep -q LISTEN && break
                sleep 0.1
            done
            f=$out/$n-$loop-$label-$slabel-$r
            if ! "$loadtest" run "opc.tcp://localhost:$port" --sessions "$n" --rate "$rate" --duration "$seconds" \
                --warmup 2 --connect-window 64 ${clientThreads:+--io-threads "$clientThreads"} --server-pid "$spid" --quiet --json "$f.json" \
                >"$f.txt" 2>&1; then
                echo "sessions $n $loop $label $slabel round $r failed:" >&2
                tail -3 "$f.txt" >&2
            fi
            kill "$spid" 2>/dev/null || true
            wait "$spid" 2>/dev/null || true
            echo "sessions $n $loop $label $slabel round $r: $(tail -1 "$f.txt")" >&2
           done
          done
        done
    done
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 - "$out" "$sessions" "$loops" "$clients" "$servers" <<'EOF'
import glob, json, statistics, sys
out, sessions, loops = sys.argv[1], sys.argv[2].split(','), sys.argv[3].split(',')
clients = [c.split('=', 1)[0] for c in sys.argv[4].split(',')]
servers = [c.split('=', 1)[0] for c in sys.argv[5].split(',')]
def med(xs): return statistics.median(xs) if xs else float('nan')
print('| Sessions | server | server loop | load tester | requests/s | server CPU % of a core | server CPU µs/request | server RSS MB | KB per Session | p50 / p99 ms | load tester CPU % | load tester µs/request | rounds |')
print('|---:|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|')
for n in sessions:
    for loop in loops:
        for c in clients:
          for sv in servers:
            steps = []
            for f in glob.glob(f'{out}/{n}-{loop}-{c}-{sv}-*.json'):
                try: steps.append(json.load(open(f))['steps'][0])
                except Exception: pass
            if not steps: print(f'| {n} | {sv} | {loop} | {c} | failed | | | | | | | | 0 |'); continue
            us = med([s['serverCpuMsPerOp'] * 1000 for s in steps])
            rss = med([s['serverRssKb'] for s in steps]) / 1024
            per = ' / '.join(f"{s['serverCpuMsPerOp'] * 1000:.1f}" for s in steps)
            print(f"| {int(n):,} | {sv} | {loop} | {c} | {med([s['requestsPerS'] for s in steps]):,.0f} | {med([s['serverCpuPercent'] for s in steps]):.1f} "
                  f"| {us:.1f} ({per}) | {rss:.1f} | {rss * 1024 / int(n):.1f} | {med([s['p50Us'] for s in steps]) / 1000:.2f} / "
                  f"{med([s['p99Us'] for s in steps]) / 1000:.2f} | {med([s['clientCpuPercent'] for s in steps]):.1f} "
                  f"| {med([s['clientCpuMsPerOp'] * 1000 for s in steps]):.1f} | {len(steps)} |")
EOF
