#!/usr/bin/env bash
# Installs what is missing (Debian 12), builds, and starts an application:
#   ./run.sh [server args...]    the OPC UA server app (ua-server); without $DISPLAY with --headless
#   ./run.sh client [args...]    the client app's window (ua-client; `./run.sh client --help`), or its
#                                command line with a command (`./run.sh client read opc.tcp://... i=2258`)
#   ./run.sh loadtest [args...]  the load tester's window (ua-loadtest; `./run.sh loadtest --endpoint
#                                opc.tcp://host:4840`), or its command line with a command
#                                (`./run.sh loadtest --help`, `./run.sh loadtest sweep ...`)
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=scripts/deps.sh
source scripts/deps.sh
ua_setup

if [[ ${1:-} == client ]]; then
    shift
    client=build/client-app/ua-client
    if [[ ! -x $client ]]; then
        echo "error: $client was not built; check the build output above (is client-app/ in the build?)" >&2
        exit 1
    fi
    # Without a display ua-client explains its command line and exits with 2.
    exec "$client" "$@"
fi

if [[ ${1:-} == loadtest ]]; then
    shift
    loadtest=build/loadtest-app/ua-loadtest
    if [[ ! -x $loadtest ]]; then
        echo "error: $loadtest was not built; check the build output above (is loadtest-app/ in the build?)" >&2
        exit 1
    fi
    # Without a display ua-loadtest explains its command line and exits with 2.
    exec "$loadtest" "$@"
fi

server=build/server-app/ua-server
if [[ ! -x $server ]]; then
    echo "error: $server was not built; check the build output above (is server-app/ in the build?)" >&2
    exit 1
fi
args=()
if [[ -z ${DISPLAY:-} ]]; then
    args+=(--headless)
fi
exec "$server" "${args[@]}" "$@"
