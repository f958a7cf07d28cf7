# shellcheck shell=bash
# Set-up shared by ./run.sh and ./test.sh (source this file; the callers run with set -euo pipefail).
# The one list of Debian 12 packages the project needs (the comment on each line says what for), and
# the npm packages, pinned with their lock files: tests/interop (node-opcua) and tools/schema (the
# OPC UA schema files the generators and tests read). Nothing outside the repository is read.

UA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
UA_NODE_MIN=20.19   # node-opcua fails on Debian's Node.js 18 (ERR_REQUIRE_ESM)
UA_PACKAGES=(
    g++ cmake make ninja-build lld qt6-base-dev qt6-charts-dev libqt6opengl6-dev libgl-dev libssl-dev  # build
    qt6-qpa-plugins xvfb xauth                                 # windows without a display
    libqt6sql6-sqlite                                          # Historical Access: QtSql's SQLite driver
    libexpat1-dev                                              # NodeSet2 import: the XML parser (XmlTreeReader.h)
    tshark clang libclang-rt-14-dev libbenchmark-dev           # checks, fuzzing, benchmarks
    openmpi-bin libopenmpi-dev                                 # ua-loadtest's distributed runs (mpirun) and their tests
    nodejs npm                                                 # interop peer (node-opcua)
    python3 git ca-certificates                                # generator, tooling, TLS
)

# Prints the packages that are not installed. nodejs/npm are checked as commands: a Node.js from
# another source (e.g. NodeSource) bundles npm and conflicts with Debian's npm package.
ua_missing_packages() {
    local pkg
    for pkg in "${UA_PACKAGES[@]}"; do
        case $pkg in
            nodejs) command -v node >/dev/null || echo "$pkg" ;;
            npm) command -v npm >/dev/null || echo "$pkg" ;;
            *) dpkg -s "$pkg" 2>/dev/null | grep -q '^Status: install ok installed' || echo "$pkg" ;;
        esac
    done
}

ua_install_packages() {
    local missing
    mapfile -t missing < <(ua_missing_packages)
    ((${#missing[@]} == 0)) && return 0
    local cmd=(apt-get install -y --no-install-recommends "${missing[@]}")
    if ((EUID != 0)); then
        echo "error: missing Debian packages: ${missing[*]}" >&2
        echo "install them as root, then run this again:" >&2
        echo "  sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive ${cmd[*]}" >&2
        exit 1
    fi
    apt-get update
    DEBIAN_FRONTEND=noninteractive "${cmd[@]}"
}

ua_version_ge() {  # ua_version_ge 20.20.2 20.19  ->  true
    [[ $(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1) == "$2" ]]
}

# Exports UA_NODE: a Node.js >= UA_NODE_MIN, the installed one or node@22 from the npm registry.
ua_ensure_node() {
    local version
    version=$(node --version 2>/dev/null || true)
    if [[ -n $version ]] && ua_version_ge "${version#v}" "$UA_NODE_MIN"; then
        UA_NODE=$(command -v node)
    else
        UA_NODE=$UA_ROOT/build/tools/node/node_modules/.bin/node
        if [[ ! -x $UA_NODE ]]; then
            echo "Node.js ${version:-(none)} is older than $UA_NODE_MIN: installing node@22 into build/tools/node"
            npm install --prefix "$UA_ROOT/build/tools/node" --no-audit --no-fund node@22
        fi
        version=$("$UA_NODE" --version)
        ua_version_ge "${version#v}" "$UA_NODE_MIN" || { echo "error: $UA_NODE is $version" >&2; exit 1; }
    fi
    export UA_NODE
    echo "Node.js for the interop tests: $UA_NODE ($("$UA_NODE" --version))"
}

# npm ci in a folder of the repository with a package.json and its lock file, skipped while
# node_modules is newer than both.
ua_npm_ci() {
    local dir=$1
    local stamp=$dir/node_modules/.ua-installed
    [[ -f $dir/package.json ]] || return 0
    if [[ -f $stamp && $stamp -nt $dir/package.json && $stamp -nt $dir/package-lock.json ]]; then
        return 0
    fi
    local npm_cmd=ci
    [[ -f $dir/package-lock.json ]] || npm_cmd=install
    (cd "$dir" && PATH="$(dirname "$UA_NODE"):$PATH" npm "$npm_cmd" --no-audit --no-fund)
    touch "$stamp"
}

# The npm packages: node-opcua for the interop tests, node-opcua's push certificate management
# client (its own folder: published only at 2.157.0, pinning its node-opcua packages to that), the
# schema files (node-opcua-nodesets).
ua_install_npm_packages() {
    ua_npm_ci "$UA_ROOT/tests/interop"
    ua_npm_ci "$UA_ROOT/tests/interop/push"
    ua_npm_ci "$UA_ROOT/tools/schema"
}

# The build a mode uses: UA_MODE unset or empty is the normal build (build/, the compiler CMake
# finds, everything), "asan" and "thread"/"tsan" the sanitizer builds of docs/Reliability.md
# "Sanitizers" (clang, build-asan/ and build-tsan/). ./run.sh always uses the normal build.
ua_build_dir() {
    case ${UA_MODE:-} in
        '') echo "$UA_ROOT/build" ;;
        asan) echo "$UA_ROOT/build-asan" ;;
        tsan) echo "$UA_ROOT/build-tsan" ;;
        *) echo "error: unknown build mode '$UA_MODE' (expected asan or tsan)" >&2; return 1 ;;
    esac
}

# Configures and builds the build of UA_MODE: everything for the normal and asan builds, only the
# target tsan_tests (the multi-threaded transport, server and client tests) for tsan; or the
# targets given as arguments (scripts/fuzz-run.sh: the fuzz targets of the asan build).
ua_configure_and_build() {
    local dir
    dir=$(ua_build_dir)
    local args=(-S "$UA_ROOT" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo
        "-DUA_NODE_EXECUTABLE=$UA_NODE")
    local target=()
    case ${UA_MODE:-} in
        asan) args+=(-DUA_SANITIZE=address) ;;
        tsan) args+=(-DUA_SANITIZE=thread); target=(--target tsan_tests) ;;
    esac
    if [[ -n ${UA_MODE:-} ]]; then  # the sanitizers need clang; its runtimes: libclang-rt-14-dev
        export CC=clang CXX=clang++
    fi
    if [[ ${CI:-} == true ]]; then
        args+=(-DUA_WERROR=ON)
        if [[ -z ${UA_MODE:-} ]]; then
            args+=(-DUA_CI_BUILD=ON)  # -O1 (cmake/FastBuild.cmake)
        fi
    fi
    local launcher=()
    if [[ -n ${UA_BUILD_TIMES:-} ]]; then  # every compile and link timed (scripts/time-launcher.sh)
        launcher=("$UA_ROOT/scripts/time-launcher.sh")
        args+=("-DCMAKE_CXX_LINKER_LAUNCHER=$UA_ROOT/scripts/time-launcher.sh")
    else
        args+=(-UCMAKE_CXX_LINKER_LAUNCHER)
    fi
    if command -v ccache >/dev/null; then  # optional: rebuilds in several worktrees share objects
        launcher+=(ccache)
    fi
    if ((${#launcher[@]})); then
        args+=("-DCMAKE_CXX_COMPILER_LAUNCHER=$(IFS=';'; echo "${launcher[*]}")")
    else
        args+=(-UCMAKE_CXX_COMPILER_LAUNCHER)
    fi
    # A build from nothing (CI, or no ccache): unity build, precompiled headers (cmake/FastBuild.cmake).
    if [[ ${CI:-} == true ]] || ! command -v ccache >/dev/null; then
        args+=(-DUA_FAST_BUILD=ON)
    else
        args+=(-DUA_FAST_BUILD=OFF)  # the cache keeps an earlier ON otherwise
    fi
    if (($#)); then
        target=(--target "$@")
    fi
    # Ninja for a new build folder: it compiles a target's sources while the libraries it links are
    # still compiling (Make waits for each library target to finish), so both cores stay busy
    # through the build. A folder configured before keeps its generator (CMake refuses a change).
    if [[ ! -f $dir/CMakeCache.txt ]] && command -v ninja >/dev/null; then
        args+=(-G Ninja)
    fi
    cmake "${args[@]}"
    cmake --build "$dir" -j"$(nproc)" "${target[@]}"
}

# Everything ./run.sh and ./test.sh need before they start anything.
# Each part's seconds are printed at the end ("=== set-up: ..."), so that a CI log says where a
# step's minutes went (docs/Reliability.md "CI").
ua_setup() {
    local t0=$SECONDS t1 t2 t3
    ua_install_packages
    ua_ensure_node
    t1=$SECONDS
    ua_install_npm_packages
    t2=$SECONDS
    ua_configure_and_build
    t3=$SECONDS
    echo "=== set-up (${UA_MODE:-normal}): packages and node $((t1 - t0)) s, npm $((t2 - t1)) s, configure and build $((t3 - t2)) s"
}
