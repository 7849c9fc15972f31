#!/bin/sh
# Control-plane benchmark (#17): builds bench/control_plane_bench into build/ and runs it
# (docs/benchmarks.md, "control plane"). Arguments: [--per-host K] rank counts (default: 1024,
# 4096 and 32768, each with every rank connected to rank 0 and with hosts of 8 behind relays).
# Run it on an otherwise idle machine: at 32k the ranks' processes use every core.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"${JOBS:-2}" --target control_plane_bench >/dev/null
exec "$build/bench/control_plane_bench" "$@"
