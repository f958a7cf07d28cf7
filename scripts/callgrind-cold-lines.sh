#!/usr/bin/env bash
# The server's last-level cache misses ("cold lines") and instructions per read-1 request at a given
# number of Sessions (issue 25; docs/Benchmarks.md "Cold lines per request"): the headless server
# under callgrind with a cache model (32 KB L1, 2 MB last-level), instrumentation switched on only
# once the load tester's Sessions are all up, then --seconds of read-1 at --rate requests/s from one
# load tester thread. Requests = the calls of the Read service (handleRead) in that window.
# Deterministic enough to compare two builds one after the other, unlike a timed run on this VM.
# Usage: scripts/callgrind-cold-lines.sh [--server PATH] [--loadtest PATH] [--sessions 10000]
#                                        [--rate 1000] [--seconds 20] [--port 4990] [--top 25] [--keep DIR]
# Prints the totals per request and the --top functions by last-level misses per request.
set -euo pipefail
cd "$(dirname "$0")/.."
server=build/server-app/ua-server loadtest=build/loadtest-app/ua-loadtest
sessions=10000 rate=1000 seconds=20 port=4990 top=25 keep=
while (($#)); do
    case $1 in
    --server) server=$2; shift 2 ;;
    --loadtest) loadtest=$2; shift 2 ;;
    --sessions) sessions=$2; shift 2 ;;
    --rate) rate=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    --top) top=$2; shift 2 ;;
    --keep) keep=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
    esac
done
out=${keep:-$(mktemp -d)}
mkdir -p "$out"
[[ -n $keep ]] || trap 'rm -rf "$out"' EXIT
ulimit -n "$(ulimit -Hn)"
valgrind --tool=callgrind --cache-sim=yes --D1=32768,8,64 --I1=32768,8,64 --LL=2097152,16,64 \
    --instr-atstart=no --callgrind-out-file="$out/callgrind.out" \
    "$server" --headless --port "$port" --max-sessions $((sessions + 100)) --max-channels $((sessions + 200)) \
    --max-handshakes 0 --max-pending-sessions 0 >"$out/server.log" 2>&1 &
vpid=$!
for _ in $(seq 600); do
    ss -ltnH "sport = :$port" | grep -q . && break
    sleep 0.2
done
# Long enough for the set-up under valgrind; stopped once the window is measured.
"$loadtest" run "opc.tcp://localhost:$port" --sessions "$sessions" --rate "$rate" --duration 3600 --warmup 2 \
    --connect-window 64 --io-threads 1 --quiet >"$out/loadtest.log" 2>&1 &
lpid=$!
for _ in $(seq 3600); do
    (($(ss -tnH state established "( sport = :$port )" | wc -l) >= sessions)) && break
    kill -0 "$lpid" 2>/dev/null || { echo "the load tester stopped:" >&2; tail -3 "$out/loadtest.log" >&2; exit 1; }
    sleep 1
done
sleep 6  # the last ActivateSessions, then the steady read-1
callgrind_control -i on "$vpid" >/dev/null
sleep "$seconds"
callgrind_control -i off "$vpid" >/dev/null
kill "$lpid" 2>/dev/null || true
wait "$lpid" 2>/dev/null || true
kill "$vpid" 2>/dev/null || true
wait "$vpid" 2>/dev/null || true
callgrind_annotate --auto=no --threshold=100 --show=Ir,ILmr,DLmr,DLmw --sort=DLmr \
    "$out/callgrind.out" >"$out/annotate.txt"
python3 - "$out/callgrind.out" "$out/annotate.txt" "$sessions" "$top" <<'EOF'
import re, sys
cg, ann, sessions, top = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
# Requests: the calls into the Read service, from the call records (cfn= then calls=).
names, requests, events, totals, callee = {}, 0, [], None, None
for line in open(cg, errors='replace'):
    if line.startswith('events:'): events = line.split()[1:]
    elif line.startswith('totals:') or line.startswith('summary:'): totals = [int(x) for x in line.split()[1:]]
    elif line.startswith('cfn='):
        m = re.match(r'cfn=\((\d+)\)(?: (.*))?', line.strip())
        if m:
            if m.group(2): names[m.group(1)] = m.group(2)
            callee = names.get(m.group(1), '')
    elif line.startswith('fn='):
        m = re.match(r'fn=\((\d+)\)(?: (.*))?', line.strip())
        if m and m.group(2): names[m.group(1)] = m.group(2)
    elif line.startswith('calls=') and callee is not None:
        if re.search(r'\bhandleRead\(', callee): requests += int(line.split()[0][6:])
        callee = None
if not requests or not totals: sys.exit('no Read requests in the measured window')
t = dict(zip(events, totals))
ll = t.get('ILmr', 0) + t.get('DLmr', 0) + t.get('DLmw', 0)
print(f'Sessions {sessions:,}: {requests:,} Read requests measured')
print(f"instructions per request {t['Ir'] / requests:,.0f}, last-level misses per request {ll / requests:.2f}")
rows = []
field = re.compile(r'\s*(?:([\d,]+)\s+\(\s*[\d.]+%\)|\.)')
for line in open(ann):
    pos, vals = 0, []
    for _ in range(4):
        m = field.match(line, pos)
        if not m: break
        vals.append(int(m.group(1).replace(',', '')) if m.group(1) else 0)
        pos = m.end()
    name = line[pos:].strip()
    if len(vals) < 4 or ':' not in name or 'PROGRAM TOTALS' in name: continue
    ir, il, dr, dw = vals
    rows.append((il + dr + dw, ir, name))
rows.sort(reverse=True)
print('| misses per request | instructions per request | function |')
print('|---:|---:|---|')
for miss, ir, name in rows[:top]:
    print(f'| {miss / requests:.2f} | {ir / requests:,.0f} | {name[:140]} |')
EOF
