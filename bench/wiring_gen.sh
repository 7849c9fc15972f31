#!/bin/sh
# Fat-tree generation benchmark (docs/benchmarks.md, "wiring gen"): builds build/ibburn and
# writes the field-notes, 32k- and 64k-HCA designs (CSV, netfile, node-name-map) into a
# temporary folder, printing wall time and peak RSS of each. No peer tool generates these.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"${JOBS:-2}" --target ibburn >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gen() {
  label=$1; shift
  /usr/bin/time -f "$label: %e s wall, %M KiB peak RSS" "$build/ibburn" wiring gen fat-tree "$@" -o "$out/$label" \
    >"$out/$label.log" 2>"$out/$label.time" || { cat "$out/$label.log" "$out/$label.time"; exit 1; }
  grep wrote "$out/$label.log"
  tail -n 1 "$out/$label.time"
}
gen field-notes --preset field-notes
gen hcas-32k --hosts 4096
gen hcas-64k --hosts 8192
