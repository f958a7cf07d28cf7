#!/usr/bin/env bash
# The side-by-side benchmark of issue 8 item 4 (guide/benchmarks.md): our server and node-opcua's,
# driven by our load tester in the same run, alternating A B A B (`ua-loadtest ab`), for read-1 and
# read-100 at 20 x 1 and 10 x 100, write-100, browse, subscribe and connect; the loopback ceiling
# (tools/loopback-ceiling.cpp) alternated with read-1 20 x 1; markdown tables of the
# medians (ours, node-opcua, ratio; read-1 as a fraction of the ceiling) and the machine.
#
#   scripts/benchmarks.sh [--rounds N] [--seconds S] [--warmup S] [--out DIR] [--quick]
#
#   --rounds N    rounds per point (default 3); each round runs A then B
#   --seconds S   measured seconds per step (default 5)
#   --warmup S    warm-up seconds per step (default 1)
#   --quick       --rounds 2 --seconds 3 (a few minutes)
#   --out DIR     where the JSON of every point, the logs and benchmarks.md go (default build/benchmarks)
#
# Needs the build (build/loadtest-app/ua-loadtest, build/server-app/ua-server; BUILD=dir to use
# another), Node.js with tests/interop/node_modules, g++ and python3. The tables go to stdout (and
# DIR/benchmarks.md); the result lines of every round go to stderr as they come.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
LOADTEST=$BUILD/loadtest-app/ua-loadtest
SERVER=$BUILD/server-app/ua-server
CEILING_SRC=$ROOT/tools/loopback-ceiling.cpp
NODE=${NODE:-node}
rounds=3
seconds=5
warmup=1
out=$BUILD/benchmarks

while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --quick) rounds=2; seconds=3; shift ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "benchmarks.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done

for f in "$LOADTEST" "$SERVER"; do
    [ -x "$f" ] || { echo "benchmarks.sh: $f is missing: cmake --build build --target ua-loadtest ua-server" >&2; exit 2; }
done
[ -f "$CEILING_SRC" ] || { echo "benchmarks.sh: $CEILING_SRC is missing" >&2; exit 2; }
mkdir -p "$out"
rm -f "$out"/*.json "$out"/ceiling-*.txt

log() { echo "== $*" >&2; }

# --- the loopback ceiling ------------------------------------------------------------------------
CEILING=$BUILD/loopback-ceiling
log "building $CEILING"
g++ -O2 -std=c++17 -pthread "$CEILING_SRC" -o "$CEILING"

# --- node-opcua's benchmark server (stdin held open through a FIFO; it stops when it closes) ------
tmp=$(mktemp -d)
mkfifo "$tmp/stdin"
(cd "$ROOT/tests/interop" && exec "$NODE" node_bench_server.js 0 <"$tmp/stdin" >"$tmp/ready" 2>"$out/node-server.log") &
NODE_PID=$!
exec 3>"$tmp/stdin"
cleanup() {
    exec 3>&- || true
    kill "$NODE_PID" 2>/dev/null || true
    wait "$NODE_PID" 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT
log "starting node_bench_server.js (pid $NODE_PID)"
for _ in $(seq 1 240); do
    grep -q READY "$tmp/ready" 2>/dev/null && break
    kill -0 "$NODE_PID" 2>/dev/null || { echo "benchmarks.sh: node_bench_server.js exited; see $out/node-server.log" >&2; exit 3; }
    sleep 0.5
done
NODE_PORT=$(awk '/READY/ {print $2}' "$tmp/ready")
[ -n "$NODE_PORT" ] || { echo "benchmarks.sh: node_bench_server.js not ready after 120 s" >&2; exit 3; }
NODE_URL=opc.tcp://127.0.0.1:$NODE_PORT
NODE_COUNTER="nsu=urn:ua-workbench:node-opcua-bench-server;s=Counter"
log "node-opcua at $NODE_URL"

LOAD_AVG_START=$(cut -d' ' -f1-3 /proc/loadavg)
COMMON=(--a spawn:"$SERVER" --b "$NODE_URL" --b-pid "$NODE_PID" --a-label ours --b-label node-opcua
        --b-counter-node "$NODE_COUNTER" --duration "$seconds" --warmup "$warmup" --quiet)

# ab NAME ROUNDS [scenario options...]: one point, its JSON in $out/NAME.json.
ab() {
    local name=$1 n=$2
    shift 2
    log "$name: $n rounds"
    "$LOADTEST" ab "${COMMON[@]}" --rounds "$n" --json "$out/$name.json" "$@" >&2 || \
        log "$name: ua-loadtest exited with $? (errors, timeouts or a refused connection: see the lines above)"
}

# read-1 20x1 with the ceiling between the rounds: ab with one round, then the ceiling, N times.
for r in $(seq 1 "$rounds"); do
    ab "read-1-20x1-round$r" 1 --scenario read --values 1 --sessions 20 --outstanding 1
    log "loopback ceiling, round $r: loopback-ceiling 20 1 $seconds 110 85"
    "$CEILING" 20 1 "$seconds" 110 85 | tee "$out/ceiling-$r.txt" >&2
done
ab read-1-10x100 "$rounds" --scenario read --values 1 --sessions 10 --outstanding 100
ab read-100-20x1 "$rounds" --scenario read --values 100 --sessions 20 --outstanding 1
ab read-100-10x100 "$rounds" --scenario read --values 100 --sessions 10 --outstanding 100
ab write-100-20x1 "$rounds" --scenario write --values 100 --sessions 20 --outstanding 1
ab browse-20x1 "$rounds" --scenario browse --sessions 20 --outstanding 1
ab subscribe-10x100 "$rounds" --scenario subscribe --sessions 10 --items 100 --sampling 10 --publishing 100
ab connect-10 "$rounds" --scenario connect --sessions 10
LOAD_AVG_END=$(cut -d' ' -f1-3 /proc/loadavg)

# --- the tables -----------------------------------------------------------------------------------
CORES=$(nproc)
MODEL=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
python3 - "$out" "$rounds" "$seconds" "$warmup" "$CORES" "$MODEL" "$LOAD_AVG_START" "$LOAD_AVG_END" <<'EOF' | tee "$out/benchmarks.md"
import glob, json, os, re, statistics, sys
out, rounds, seconds, warmup, cores, model, load0, load1 = sys.argv[1:9]

def med(xs):
    xs = [x for x in xs if x is not None and x >= 0]
    return statistics.median(xs) if xs else None

def ok_steps(run):
    return [s for s in run.get("steps", []) if not s.get("error")]

FIGS = {  # key -> (scale, getter over a step)
    "requestsPerS": lambda s: s["requestsPerS"], "valuesPerS": lambda s: s["valuesPerS"],
    "p50Us": lambda s: s["p50Us"] / 1000, "p99Us": lambda s: s["p99Us"] / 1000,
    "serverCpuMsPerOp": lambda s: s["serverCpuMsPerOp"] * 1000 if s.get("serverCpuMsPerOp", -1) >= 0 else None,
    "clientCpuMsPerOp": lambda s: s["clientCpuMsPerOp"] * 1000,
    "serverRssKb": lambda s: s["serverRssKb"] / 1024 if s.get("serverRssKb", -1) >= 0 else None,
    "errors": lambda s: s["errors"] + s["timeouts"],
    "minFidelityPercent": lambda s: s.get("minFidelityPercent"), "meanFidelityPercent": lambda s: s.get("meanFidelityPercent"),
}

def point(files):
    """Medians per side over every round of these ab JSON files: {side: {key: median}}, rounds."""
    steps = {"a": [], "b": []}
    for f in files:
        doc = json.load(open(f))
        for side in "ab":
            steps[side] += ok_steps(doc.get(side, {}))
    res = {side: {k: med([g(s) for s in steps[side]]) for k, g in FIGS.items()} for side in "ab"}
    return res, min(len(steps["a"]), len(steps["b"]))

def fmt(v, d=None):
    if v is None: return "-"
    if d is None: d = 0 if abs(v) >= 100 else 1 if abs(v) >= 10 else 2 if abs(v) >= 1 else 3
    return f"{v:,.{d}f}"

def ratio(a, b):
    return fmt(b / a, 2) if a and b is not None else "-"

points = [("read-1 20x1", sorted(glob.glob(f"{out}/read-1-20x1-round*.json"))),
          ("read-1 10x100", [f"{out}/read-1-10x100.json"]), ("read-100 20x1", [f"{out}/read-100-20x1.json"]),
          ("read-100 10x100", [f"{out}/read-100-10x100.json"]), ("write-100 20x1", [f"{out}/write-100-20x1.json"]),
          ("browse 20x1", [f"{out}/browse-20x1.json"]), ("subscribe 10x100 items", [f"{out}/subscribe-10x100.json"]),
          ("connect 10 at once", [f"{out}/connect-10.json"])]
rows = []
for name, files in points:
    files = [f for f in files if os.path.exists(f)]
    if files: rows.append((name, *point(files)))

print(f"Machine: {cores} cores, {model}; load average {load0} at the start, {load1} at the end.")
print(f"Medians of {rounds} alternating rounds (ours, node-opcua, ours, ...), {seconds} s measured after {warmup} s warm-up per step;")
print("both servers on this machine with the load tester (ua-loadtest ab, one client I/O thread).")
print()
print("| point | unit | ours | node-opcua | node/ours | ours p50 / p99 ms | node p50 / p99 ms | errors+timeouts ours / node | rounds |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
for name, r, n in rows:
    a, b = r["a"], r["b"]
    unit, key = ("values/s", "valuesPerS") if name.startswith("read-100") or name.startswith("write") else ("req/s", "requestsPerS")
    if name.startswith("subscribe"): unit, key = "notifications/s", "valuesPerS"
    if name.startswith("connect"): unit = "sessions/s"
    # A Publish waits for its publishing interval: its latency says nothing about the server.
    lat_a = "-" if name.startswith("subscribe") else f"{fmt(a['p50Us'])} / {fmt(a['p99Us'])}"
    lat_b = "-" if name.startswith("subscribe") else f"{fmt(b['p50Us'])} / {fmt(b['p99Us'])}"
    print(f"| {name} | {unit} | {fmt(a[key])} | {fmt(b[key])} | {ratio(a[key], b[key])} | {lat_a} "
          f"| {lat_b} | {fmt(a['errors'], 0)} / {fmt(b['errors'], 0)} | {n} |")
print()
print("| point | server CPU µs/op ours | node-opcua | node/ours | server RSS MB ours | node-opcua | client CPU µs/op ours / node |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, r, n in rows:
    a, b = r["a"], r["b"]
    print(f"| {name} | {fmt(a['serverCpuMsPerOp'])} | {fmt(b['serverCpuMsPerOp'])} | {ratio(a['serverCpuMsPerOp'], b['serverCpuMsPerOp'])} "
          f"| {fmt(a['serverRssKb'])} | {fmt(b['serverRssKb'])} | {fmt(a['clientCpuMsPerOp'])} / {fmt(b['clientCpuMsPerOp'])} |")
sub = [r for name, r, n in rows if name.startswith("subscribe")]
if sub:
    a, b = sub[0]["a"], sub[0]["b"]
    print()
    print("Subscribe, per-item sample fidelity (notifications / counter steps; guide/benchmarks.md wants >= 99 %): "
          f"ours min {fmt(a['minFidelityPercent'], 1)} % mean {fmt(a['meanFidelityPercent'], 1)} %, "
          f"node-opcua min {fmt(b['minFidelityPercent'], 1)} % mean {fmt(b['meanFidelityPercent'], 1)} %.")

ceil = []
for f in sorted(glob.glob(f"{out}/ceiling-*.txt")):
    m = re.search(r"req/s=([0-9.]+).*p50=([0-9.]+)us.*p99=([0-9.]+)us", open(f).read())
    if m: ceil.append((float(m.group(1)), float(m.group(2)), float(m.group(3))))
read1 = [r for name, r, n in rows if name == "read-1 20x1"]
if ceil and read1:
    c = statistics.median(x[0] for x in ceil)
    a, b = read1[0]["a"]["requestsPerS"], read1[0]["b"]["requestsPerS"]
    print()
    print("| read-1 20x1 | req/s | fraction of the ceiling |")
    print("|---|---:|---:|")
    print(f"| loopback ceiling (loopback-ceiling 20 1 {seconds} 110 85; p50 {fmt(statistics.median(x[1] for x in ceil) / 1000)} ms, "
          f"p99 {fmt(statistics.median(x[2] for x in ceil) / 1000)} ms) | {fmt(c)} | 1 |")
    print(f"| ours | {fmt(a)} | {fmt(a / c, 3) if a else '-'} |")
    print(f"| node-opcua | {fmt(b)} | {fmt(b / c, 3) if b else '-'} |")
EOF
echo >&2
log "JSON of every point, the logs and benchmarks.md in $out"
echo
echo "Command: scripts/benchmarks.sh --rounds $rounds --seconds $seconds --warmup $warmup"
