#!/bin/sh
# Control-plane benchmark (#17): builds bench/control_plane_bench into build/ and runs it
# (docs/benchmarks.md, "control plane"). Arguments: rank counts (default 1024 4096).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"${JOBS:-2}" --target control_plane_bench >/dev/null
exec "$build/bench/control_plane_bench" "$@"
