#!/usr/bin/env bash
# Routing validation at scale (docs/benchmarks.md, "Routing validation"): issue #47's targets.
# `wiring gen fat-tree --hosts 5632` (45,056 HCAs, 3,840 switches) with D-mod-K tables
# (bench/route_check_bench.cpp): the credit-loop check with one VL, target <= 10 s and
# <= 2 GiB; the balance check, target <= 5 s; the graph's size; and the per-pair tracing
# ibdiagnet's engine does, over a sample of sources, as the peer.
# usage: bench/route_check.sh [SAMPLE]   (BUILD_DIR overrides the build; HOSTS the fabric's size)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bin=$build/ibburn
cmake --build "$build" -j"${JOBS:-2}" --target ibburn route_check_bench >/dev/null
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export IBBURN_SITE_CONFIG=
"$bin" wiring gen fat-tree --hosts "${HOSTS:-5632}" -o "$work/f" >/dev/null
/usr/bin/time -f "%e %M" -o "$work/t" "$build/bench/route_check_bench" "$work/f.net" "${1:-64}"
read -r wall rss < "$work/t"
printf 'whole bench: wall %.2f s, peak RSS %d MiB\n' "$wall" $((rss / 1024))
