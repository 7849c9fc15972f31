#!/bin/sh
# topo check benchmark: builds bench/check_bench into build/ and runs it (docs/benchmarks.md,
# "topo check"). Exit 1 when a target is missed or a clean fabric gives a finding.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"${JOBS:-2}" --target check_bench >/dev/null
exec "$build/bench/check_bench"
