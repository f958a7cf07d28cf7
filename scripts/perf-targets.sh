#!/usr/bin/env bash
# The measurements of issue 9 (performance targets) that scripts/benchmarks.sh does not make, all
# with our load tester on this machine, alternating, medians:
#   - before/after: another build's server (--base DIR, e.g. a worktree of the previous commit)
#     against this build's, `ua-loadtest ab` (read-1 20x1, read-1 10x100, read-100 20x1);
#   - read-1 10 Sessions x 1,000 outstanding (no stall, no error);
#   - read-1 20x1 SecurityPolicy None against Basic256Sha256 SignAndEncrypt, alternating runs;
#   - the server's heap allocations per Read request (tests/bench/bench_allocations).
#
#   scripts/perf-targets.sh [--base BUILD_DIR] [--rounds N] [--seconds S] [--out DIR]
#
# Tables go to stdout (markdown), the JSON of every run to DIR (default build/perf-targets).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
LOADTEST=$BUILD/loadtest-app/ua-loadtest
SERVER=$BUILD/server-app/ua-server
ALLOC=$BUILD/tests/bench/bench_allocations
base=""
rounds=5
seconds=5
out=$BUILD/perf-targets

while [ $# -gt 0 ]; do
    case "$1" in
    --base) base=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "perf-targets.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
for f in "$LOADTEST" "$SERVER" "$ALLOC"; do
    [ -x "$f" ] || { echo "perf-targets.sh: $f is missing: cmake --build build --target ua-loadtest ua-server bench_allocations" >&2; exit 2; }
done
mkdir -p "$out"
rm -f "$out"/*.json "$out"/alloc-*.txt
log() { echo "== $*" >&2; }
LOAD_AVG_START=$(cut -d' ' -f1-3 /proc/loadavg)
STEP=(--duration "$seconds" --warmup 1 --quiet)

if [ -n "$base" ]; then
    [ -x "$base/server-app/ua-server" ] || { echo "perf-targets.sh: $base/server-app/ua-server is missing" >&2; exit 2; }
    AB=(ab --a spawn:"$base/server-app/ua-server" --b spawn:"$SERVER" --a-label before --b-label after --rounds "$rounds" "${STEP[@]}")
    log "before/after read-1 20x1"; "$LOADTEST" "${AB[@]}" --values 1 --sessions 20 --outstanding 1 --json "$out/ba-read-1-20x1.json" >&2 || true
    log "before/after read-1 10x100"; "$LOADTEST" "${AB[@]}" --values 1 --sessions 10 --outstanding 100 --json "$out/ba-read-1-10x100.json" >&2 || true
    log "before/after read-100 20x1"; "$LOADTEST" "${AB[@]}" --values 100 --sessions 20 --outstanding 1 --json "$out/ba-read-100-20x1.json" >&2 || true
fi

for r in $(seq 1 "$rounds"); do
    log "round $r: read-1 20x1 None, then Basic256Sha256 SignAndEncrypt, then 10x1000"
    "$LOADTEST" run --spawn-server "${STEP[@]}" --values 1 --sessions 20 --outstanding 1 --json "$out/none-$r.json" >&2 || true
    "$LOADTEST" run --spawn-server "${STEP[@]}" --values 1 --sessions 20 --outstanding 1 --security Basic256Sha256 \
        --mode SignAndEncrypt --pki "$out/client-pki" --json "$out/sign-encrypt-$r.json" >&2 || true
    "$LOADTEST" run --spawn-server "${STEP[@]}" --values 1 --sessions 10 --outstanding 1000 --json "$out/read-1-10x1000-$r.json" >&2 || true
done
for v in 1 100; do
    log "allocations per Read of $v values"
    "$ALLOC" --values "$v" --window "$seconds" > "$out/alloc-$v.txt" 2>"$out/alloc-$v.log" || true
    cat "$out/alloc-$v.txt" >&2
done
LOAD_AVG_END=$(cut -d' ' -f1-3 /proc/loadavg)

python3 - "$out" "$LOAD_AVG_START" "$LOAD_AVG_END" "$(nproc)" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')" <<'EOF'
import glob, json, os, re, statistics, sys
out, load0, load1, cores, model = sys.argv[1:6]

def med(xs):
    xs = [x for x in xs if x is not None and x >= 0]
    return statistics.median(xs) if xs else None

def fmt(v, d=None):
    if v is None: return "-"
    if d is None: d = 0 if abs(v) >= 100 else 1 if abs(v) >= 10 else 2 if abs(v) >= 1 else 3
    return f"{v:,.{d}f}"

def steps(files, side=None):
    res = []
    for f in files:
        doc = json.load(open(f))
        run = doc.get(side, {}) if side else doc
        res += [s for s in run.get("steps", []) if not s.get("error")]
    return res

def figs(st):
    return {"req": med([s["requestsPerS"] for s in st]), "val": med([s["valuesPerS"] for s in st]),
            "p50": med([s["p50Us"] / 1000 for s in st]), "p99": med([s["p99Us"] / 1000 for s in st]),
            "max": med([s["maxUs"] / 1000 for s in st]),
            "err": sum(s["errors"] + s["timeouts"] for s in st),
            "srv": med([s["serverCpuMsPerOp"] * 1000 for s in st if s.get("serverCpuMsPerOp", -1) >= 0]),
            "cli": med([s["clientCpuMsPerOp"] * 1000 for s in st]), "n": len(st)}

print(f"Machine: {cores} cores, {model}; load average {load0} at the start, {load1} at the end.")
ba = sorted(glob.glob(f"{out}/ba-*.json"))
if ba:
    print()
    print("| point | before req/s | after req/s | after/before | server CPU µs/op before / after | client CPU µs/op before / after | p99 ms before / after | rounds |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for f in ba:
        a, b = figs(steps([f], "a")), figs(steps([f], "b"))
        name = os.path.basename(f)[3:-5]
        r = fmt(b["req"] / a["req"], 2) if a["req"] and b["req"] else "-"
        print(f"| {name} | {fmt(a['req'])} | {fmt(b['req'])} | {r} | {fmt(a['srv'])} / {fmt(b['srv'])} | {fmt(a['cli'])} / {fmt(b['cli'])} "
              f"| {fmt(a['p99'])} / {fmt(b['p99'])} | {min(a['n'], b['n'])} |")
none = figs(steps(sorted(glob.glob(f"{out}/none-*.json"))))
se = figs(steps(sorted(glob.glob(f"{out}/sign-encrypt-*.json"))))
big = figs(steps(sorted(glob.glob(f"{out}/read-1-10x1000-*.json"))))
print()
print("| read-1 | req/s | p50 / p99 / max ms | errors+timeouts | server CPU µs/op | client CPU µs/op | runs |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, x in (("20x1 None", none), ("20x1 Basic256Sha256 SignAndEncrypt", se), ("10x1000 None", big)):
    print(f"| {name} | {fmt(x['req'])} | {fmt(x['p50'])} / {fmt(x['p99'])} / {fmt(x['max'])} | {x['err']} | {fmt(x['srv'])} | {fmt(x['cli'])} | {x['n']} |")
if none["req"] and se["req"]:
    print()
    print(f"SignAndEncrypt / None (medians of alternating runs): **{se['req'] / none['req']:.2f}**")
print()
for v in ("1", "100"):
    p = f"{out}/alloc-{v}.txt"
    if os.path.exists(p) and open(p).read().strip():
        print(f"- bench_allocations --values {v}: `{open(p).read().strip()}`")
EOF
echo
echo "Command: scripts/perf-targets.sh${base:+ --base $base} --rounds $rounds --seconds $seconds"
