#!/usr/bin/env bash
# Repeatable "fresh Debian 12" check: creates a minimal bookworm root with debootstrap (or reuses
# it), copies the working tree (tracked and new, not ignored files; nothing from beside the
# repository) into it, and runs ./test.sh there as root. A machine with more packages installed can hide a missing install
# step; this cannot. Remove the root folder for a run from scratch.
# Usage: sudo scripts/check-fresh-debian.sh [ROOT_DIR]     (default: build/debian-root)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(realpath -m "${1:-build/debian-root}")
log=$root.log

if ((EUID != 0)); then
    echo "error: run as root (debootstrap, mount and chroot need it)" >&2
    exit 1
fi
if ! command -v debootstrap >/dev/null; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends debootstrap
fi

# The host's Debian mirror (one-line or deb822 sources), else deb.debian.org.
mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
    2>/dev/null | grep -v '^[[:space:]]*#' | grep -oE 'https?://[^[:space:]]+' |
    grep -E '/debian/?$' | head -n1 || true)
mirror=${mirror:-http://deb.debian.org/debian}

if [[ ! -x $root/usr/bin/apt-get || -d $root/debootstrap ]]; then  # missing or interrupted
    echo "== debootstrap bookworm into $root from $mirror"
    debootstrap --variant=minbase bookworm "$root" "$mirror"
else
    echo "== reusing $root"
fi

# shellcheck disable=SC2317  # called by the trap
cleanup() {
    local m
    for m in dev/pts dev sys proc; do
        if mountpoint -q "$root/$m"; then umount "$root/$m" || umount -l "$root/$m"; fi
    done
}
trap cleanup EXIT
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
mountpoint -q "$root/sys" || mount -t sysfs sysfs "$root/sys"
mountpoint -q "$root/dev" || mount --bind /dev "$root/dev"
mountpoint -q "$root/dev/pts" || mount --bind /dev/pts "$root/dev/pts"
cp --remove-destination /etc/resolv.conf "$root/etc/resolv.conf"
# debootstrap leaves /etc/hosts out; an installed Debian has one (localhost must resolve).
[[ -s $root/etc/hosts ]] || printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
# The host's own CA certificates (e.g. of a TLS-intercepting proxy) for Node.js, so npm can reach
# its registry from inside as it does from the host. Nothing is added on a host without any.
env=(HOME=/root LANG=C.UTF-8 TERM="${TERM:-dumb}" CI="${CI:-}"
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)
mkdir -p "$root/etc/ssl"
if cat /usr/local/share/ca-certificates/*.crt >"$root/etc/ssl/host-local-ca.pem" 2>/dev/null; then
    env+=(NODE_EXTRA_CA_CERTS=/etc/ssl/host-local-ca.pem)
fi

echo "== copying the repository (tracked and new files) to /src/ua-workbench, nothing beside it"
rm -rf "$root/src/ua-workbench" "$root/src/shared"
mkdir -p "$root/src/ua-workbench"
git ls-files -z --cached --others --exclude-standard |
    tar --null --ignore-failed-read -T - -cf - | tar -xf - -C "$root/src/ua-workbench"

echo "== running ./test.sh inside (log: $log)"
rc=0
chroot "$root" /usr/bin/env -i "${env[@]}" /bin/bash -c 'cd /src/ua-workbench && ./test.sh' 2>&1 |
    tee "$log" || rc=${PIPESTATUS[0]}
if ((rc == 0)); then
    echo "== fresh Debian 12: ./test.sh PASSED"
else
    echo "== fresh Debian 12: ./test.sh FAILED (exit $rc), see $log"
fi
exit "$rc"
