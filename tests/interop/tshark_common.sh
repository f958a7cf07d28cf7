# What the tshark_capture*.sh scripts share (sourced, not run): tshark present or the skip (exit 77,
# ctest: skipped), a work folder removed on exit with every process started, a port below Linux's
# ephemeral range, the capture on loopback started and stopped, and the decode that counts OPC UA
# packets and the malformed or erroneous ones.
#   tshark_require                   exits 77 without tshark
#   tshark_init                      sets work (a new folder) and pids (killed on exit); track PID adds one
#   tshark_port                      prints a free-looking port in 20000..31999
#   tshark_start PORT                captures "tcp port PORT" into $work/capture.pcapng, returns once capturing
#   tshark_stop                      ends the capture (SIGINT, then SIGTERM after 10 s) and waits for it
#   tshark_decode PORT               sets decode=(tshark -r ... -d tcp.port==PORT,opcua), total and bad;
#                                    prints bad packets' details and exits 1 when there are any

tshark_require() {
    if ! command -v tshark >/dev/null; then
        echo "SKIPPED: tshark is not installed (./test.sh installs it)"
        exit 77
    fi
}

tshark_init() {
    work=$(mktemp -d)
    pids=()
    trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; exec 7>&- 2>/dev/null || true; rm -rf "$work"' EXIT
}

track() { pids+=("$1"); }

# Below Linux's ephemeral ports (32768 and up), which other tests' clients may hold.
tshark_port() { echo $(( 20000 + RANDOM % 12000 )); }

tshark_start() {
    tshark -i lo -f "tcp port $1" -w "$work/capture.pcapng" -q >"$work/tshark.log" 2>&1 &
    tshark_pid=$!
    track "$tshark_pid"
    # tshark captures once it says so on stderr; on a busy machine its start takes seconds, and a
    # SIGINT before then was lost (the script then waited for it until ctest's timeout).
    for _ in $(seq 300); do grep -q "Capturing on" "$work/tshark.log" && break; sleep 0.1; done
    grep -q "Capturing on" "$work/tshark.log" || { echo "tshark did not start capturing in 30 s:"; cat "$work/tshark.log"; exit 1; }
}

tshark_stop() {
    sleep 1
    kill -INT "$tshark_pid"
    for _ in $(seq 100); do kill -0 "$tshark_pid" 2>/dev/null || break; sleep 0.1; done
    kill -TERM "$tshark_pid" 2>/dev/null || true  # still there after 10 s: what it wrote so far is read
    wait "$tshark_pid" 2>/dev/null || true
}

tshark_decode() {
    decode=(tshark -r "$work/capture.pcapng" -d "tcp.port==$1,opcua")
    total=$("${decode[@]}" -Y opcua 2>/dev/null | wc -l)
    bad=$("${decode[@]}" -Y '_ws.malformed || _ws.expert.severity >= "error"' 2>/dev/null | wc -l)
    if (( bad > 0 )); then
        echo "OPC UA packets: $total, malformed or in error: $bad"
        "${decode[@]}" -Y '_ws.malformed || _ws.expert.severity >= "error"' -V 2>/dev/null | head -80
        exit 1
    fi
}
