#!/bin/sh
# Fabric file benchmark: builds bench/fabric_io_bench into build/ and runs it
# (docs/benchmarks.md, "fabric files"). Exit 1 when a 64k-HCA dump loads slower than 2 s of
# CPU, or its JSON snapshot slower than 0.5 s of CPU in a fresh process.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"${JOBS:-2}" --target fabric_io_bench >/dev/null
exec "$build/bench/fabric_io_bench"
