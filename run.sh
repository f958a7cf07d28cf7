#!/usr/bin/env bash
# Installs what is missing (Debian 12), builds, and starts the OPC UA server app.
# Extra arguments go to ua-server; without $DISPLAY it starts with --headless.
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=scripts/deps.sh
source scripts/deps.sh
ua_setup

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
