#!/usr/bin/env bash
# Before/after of the client side (issue 9 target 10): two ua-loadtest binaries, run alternately
# (A B A B ...) against the same server build, each run with a fresh server of its own
# (--spawn-server); per point the medians of requests/s and of the client's and the server's CPU per
# request, and the client/server CPU ratio (target 10: at most 1). `ua-loadtest ab` alternates two
# servers under one client; this alternates two clients under one server, or, with --a-server and
# --b-server, two whole builds (each load tester with its own build's server: a change to both
# sides, such as the transport's).
#
#   scripts/client-ab.sh BEFORE_LOADTEST AFTER_LOADTEST [--a-server PATH] [--b-server PATH]
#                        [--rounds N] [--seconds S] [--out DIR] [--pin]
#
# --pin: each side on its own core (the server started here on port 4998 and named to the load
# tester by --server-pid), so that the side with spare time shows it; without it both share the
# two cores and the CPU ratio stays near 1 whatever each side costs (docs/Benchmarks.md, issue 9
# target 10). The cores swap every round (odd rounds: server on CPU 1, load tester on CPU 0; even
# rounds the other way round), since one of this VM's cores is at times slower than the other.
#
# Points: read-1 20x1, read-1 10x100, read-100 20x1. The server is BUILD's (default build/) unless
# --a-server/--b-server name another for that side.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
SERVER=$BUILD/server-app/ua-server
[ $# -ge 2 ] || { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
A=$1 B=$2
shift 2
rounds=5 seconds=5 out=$BUILD/client-ab pin=0
SERVER_A=$SERVER SERVER_B=$SERVER
while [ $# -gt 0 ]; do
    case "$1" in
    --a-server) SERVER_A=$2; shift 2 ;;
    --b-server) SERVER_B=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --pin) pin=1; shift ;;
    *) echo "client-ab.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
for f in "$A" "$B" "$SERVER_A" "$SERVER_B"; do [ -x "$f" ] || { echo "client-ab.sh: $f is missing" >&2; exit 2; }; done
mkdir -p "$out"
rm -f "$out"/*.json
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
points=("read-1-20x1:--values 1 --sessions 20 --outstanding 1"
        "read-1-10x100:--values 1 --sessions 10 --outstanding 100"
        "read-100-20x1:--values 100 --sessions 20 --outstanding 1")
for r in $(seq 1 "$rounds"); do
    for p in "${points[@]}"; do
        name=${p%%:*}
        for side in a b; do
            bin=$A srv=$SERVER_A; [ $side = b ] && bin=$B srv=$SERVER_B
            if [ $pin = 1 ]; then
                scpu=$(( r % 2 )) ccpu=$(( (r + 1) % 2 ))
                taskset -c "$scpu" "$srv" --headless --port 4998 >/dev/null 2>&1 &
                spid=$!
                sleep 1.5
                # shellcheck disable=SC2086
                taskset -c "$ccpu" "$bin" run opc.tcp://localhost:4998 --server-pid "$spid" ${p#*:} --duration "$seconds" \
                    --warmup 1 --quiet --json "$out/$name-$side-$r.json" >/dev/null 2>&1 || echo "round $r $name $side failed" >&2
                kill "$spid"; wait "$spid" 2>/dev/null || true
                continue
            fi
            # shellcheck disable=SC2086
            "$bin" run --spawn-server="$srv" ${p#*:} --duration "$seconds" --warmup 1 --quiet \
                --json "$out/$name-$side-$r.json" >/dev/null 2>&1 || echo "round $r $name $side failed" >&2
        done
    done
    echo "round $r done" >&2
done
LOAD1=$(cut -d' ' -f1-3 /proc/loadavg)
python3 - "$out" "$rounds" "$LOAD0" "$LOAD1" "$A with $SERVER_A" "$B with $SERVER_B" <<'PY'
import glob, json, statistics, sys
out, rounds, load0, load1, a, b = sys.argv[1:7]
def med(xs): return statistics.median(xs) if xs else float('nan')
print(f"Load average {load0} at the start, {load1} at the end; medians of {rounds} alternating rounds.")
print(f"A: {a}\nB: {b}\n")
print("| point | req/s A | req/s B | B/A | client CPU µs/op A / B | server CPU µs/op A / B | client/server CPU A / B |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name in ["read-1-20x1", "read-1-10x100", "read-100-20x1"]:
    row = {}
    for side in "ab":
        steps = [json.load(open(f))["steps"][0] for f in sorted(glob.glob(f"{out}/{name}-{side}-*.json"))]
        row[side] = dict(rps=med([s["requestsPerS"] for s in steps]),
                         c=med([s["clientCpuMsPerOp"] * 1000 for s in steps]),
                         s=med([s["serverCpuMsPerOp"] * 1000 for s in steps]),
                         ratio=med([s["clientCpuMsPerOp"] / s["serverCpuMsPerOp"] for s in steps if s["serverCpuMsPerOp"] > 0]))
    A, B = row["a"], row["b"]
    print(f"| {name} | {A['rps']:,.0f} | {B['rps']:,.0f} | {B['rps']/A['rps']:.2f} | {A['c']:.2f} / {B['c']:.2f} | "
          f"{A['s']:.2f} / {B['s']:.2f} | {A['ratio']:.2f} / {B['ratio']:.2f} |")
print("\nclient/server CPU per round (A; B):")
for name in ["read-1-20x1", "read-1-10x100", "read-100-20x1"]:
    per = {}
    for side in "ab":
        per[side] = []
        for f in sorted(glob.glob(f"{out}/{name}-{side}-*.json"), key=lambda f: int(f.rsplit('-', 1)[1].split('.')[0])):
            st = json.load(open(f))["steps"][0]
            per[side].append(f"{st['clientCpuMsPerOp'] / st['serverCpuMsPerOp']:.2f}" if st["serverCpuMsPerOp"] > 0 else "-")
    print(f"  {name}: {' '.join(per['a'])}; {' '.join(per['b'])}")
PY
