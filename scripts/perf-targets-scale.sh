#!/usr/bin/env bash
# The measurements of issue 9 targets 6-9 that scripts/perf-targets.sh does not make, in one run,
# each with the commands of its section in docs/Benchmarks.md:
#   6. sampling fidelity: one Session, N items on Demo.Simulation.Ramp (10 ms), 10 Publish requests,
#      N = 4,096 / 8,192 / 16,384 alternating for --rounds rounds; the median `fidelity min` per N
#      (a count passes at >= 99 %);
#   7. server RSS per Session: scripts/session-rss.sh with 2,000 and 5,000 Sessions (the slope);
#   8. connect storm: 1,000 Basic256Sha256 SignAndEncrypt Sessions opened at once against a server
#      with its default admission bounds: all connected, none orphaned (the server's
#      SessionTimeoutCount afterwards, read with ua-client);
#   9. backpressure: tests/transport tst_backpressure clientThatDoesNotReadIsPaused.
#
#   scripts/perf-targets-scale.sh [--rounds N] [--skip 6,7,8,9] [--out DIR]
#
# Needs the build (ua-server, ua-loadtest, ua-client, tests_transport). Prints one block per
# target (the lines to read, then a verdict line), and the load average at the start and end.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build}
LOADTEST=$BUILD/loadtest-app/ua-loadtest
SERVER=$BUILD/server-app/ua-server
CLIENT=$BUILD/client-app/ua-client
TRANSPORT_TESTS=$BUILD/tests/transport/tests_transport
rounds=3
skip=""
out=$BUILD/perf-targets-scale
while [ $# -gt 0 ]; do
    case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --skip) skip=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "perf-targets-scale.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
wanted() { [[ ",$skip," != *",$1,"* ]]; }
mkdir -p "$out"
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

if wanted 6; then
    echo "== 6. sampling fidelity (median of $rounds rounds of fidelity min; pass >= 99 %)"
    for r in $(seq 1 "$rounds"); do
        for n in 4096 8192 16384; do
            line=$("$LOADTEST" run --spawn-server="$SERVER" --scenario subscribe --sessions 1 --items "$n" \
                --publish-requests 10 --duration 10 --quiet 2>&1 | grep -m1 'fidelity' || true)
            echo "round $r items $n | $line" | tee -a "$out/fidelity.txt"
        done
    done
    python3 - "$out/fidelity.txt" <<'EOF'
import re, statistics, sys
per = {}
for line in open(sys.argv[1]):
    m = re.search(r"items (\d+) .*fidelity min ([0-9.]+)", line)
    if m: per.setdefault(int(m.group(1)), []).append(float(m.group(2)))
for n, xs in sorted(per.items()):
    med = statistics.median(xs)
    print(f"items {n}: fidelity min {', '.join(f'{x:.1f}' for x in xs)} %, median {med:.1f} % -> {'pass' if med >= 99 else 'FAIL'}")
EOF
    rm -f "$out/fidelity.txt"
fi

if wanted 7; then
    echo "== 7. server RSS per Session (goal: at most 50 KB per Session from 2,000 to 5,000)"
    "$ROOT/scripts/session-rss.sh" --server "$SERVER" --loadtest "$LOADTEST" --counts "2000 5000" --port 48420
fi

if wanted 8; then
    echo "== 8. connect storm: 1,000 SignAndEncrypt Sessions at once (goal: all connected, none orphaned)"
    tmp=$(mktemp -d)
    echo '{"version": 1, "security": {"trustAllClients": true}}' > "$tmp/cfg.json"
    "$SERVER" --headless --port 48430 --config "$tmp/cfg.json" --pki "$tmp/pki" --shutdown-delay 0 > "$tmp/server.log" 2>&1 &
    pid=$!
    sleep 3
    "$LOADTEST" run opc.tcp://localhost:48430 --server-pid "$pid" --scenario read --sessions 1000 --connect-window 1000 \
        --security Basic256Sha256 --mode SignAndEncrypt --pki "$tmp/client-pki" --duration 5 --warmup 1 --timeout 30000 \
        --quiet 2>&1 | grep -E 'read-1|set-up|error' | head -3 || true
    # ServerDiagnosticsSummary (i=2275): SessionTimeoutCount is its 6th field.
    "$CLIENT" read opc.tcp://localhost:48430 i=2275 --security none 2>&1 | head -20 || true
    kill "$pid"; wait "$pid" 2>/dev/null || true
    rm -rf "$tmp"
fi

if wanted 9; then
    echo "== 9. backpressure (goal: RSS growth under 50 MB, the second client's p99 within 2x)"
    QT_QPA_PLATFORM=offscreen "$TRANSPORT_TESTS" tst_backpressure clientThatDoesNotReadIsPaused 2>&1 \
        | grep -E 'before the flooder|p99:|RSS of|FAIL|Totals' | cut -c1-220 || true
fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
