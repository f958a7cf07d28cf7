#!/usr/bin/env bash
# Installs what is missing (Debian 12), builds, and starts an application:
#   ./run.sh [server args...]    the OPC UA server app (ua-server); without $DISPLAY with --headless
#   ./run.sh client [args...]    the client app's window (ua-client; `./run.sh client --help`), or its
#                                command line with a command (`./run.sh client read opc.tcp://... i=2258`)
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
