#!/bin/sh
# Counters snapshot benchmark: builds bench/snapshot_io_bench into build/ and runs it
# (docs/benchmarks.md, "Counters snapshots").
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"${JOBS:-2}" --target snapshot_io_bench >/dev/null
exec "$build/bench/snapshot_io_bench"
