#!/usr/bin/env bash
# Discovery benchmark (docs/benchmarks.md, "Discovery").
#  1. The field-notes fabric (320 switches, 4,088 HCAs, generated) in ibsim: `ibburn topo
#     discover` against `ibnetdiscover` in the same run, alternating, REPS times each (both
#     write ibnetdiscover text to a file); prints the medians and their ratio (target <= 1.2).
#  2. A 64k-HCA ibnetdiscover text dump (generated) loaded by `ibburn topo show`: wall time
#     and peak RSS from /usr/bin/time.
# Usage: bench/discover.sh [REPS]   (BUILD_DIR, JOBS as in the other benches)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
reps=${1:-5}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"${JOBS:-2}" --target ibburn >/dev/null
ibburn=$build/ibburn
sim=$root/scripts/simfabric
command -v ibnetdiscover >/dev/null || { echo "bench: ibnetdiscover missing (infiniband-diags)" >&2; exit 3; }
out=$(mktemp -d)
cleanup() { "$sim" stop --dir "$out/sim" >/dev/null 2>&1 || true; rm -rf "$out"; }
trap cleanup EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
now() { date +%s.%N; }

echo "== discovery of the field-notes fabric in ibsim ($reps runs each, alternating)"
"$ibburn" wiring gen fat-tree --preset field-notes -o "$out/fn" >/dev/null
"$sim" start "$out/fn.net" --dir "$out/sim" >/dev/null
: >"$out/ibburn.times"
: >"$out/ibnetdiscover.times"
for ((i = 1; i <= reps; i++)); do
  t0=$(now)
  "$sim" run --dir "$out/sim" ibnetdiscover >"$out/ibnetdiscover.txt" 2>"$out/ibnetdiscover.err"
  t1=$(now)
  "$sim" run --dir "$out/sim" "$ibburn" topo discover -o "$out/ibburn.txt" 2>"$out/ibburn.err"
  t2=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }' >>"$out/ibnetdiscover.times"
  awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }' >>"$out/ibburn.times"
  printf 'run %d: ibnetdiscover %.3f s, ibburn %.3f s\n' "$i" "$(tail -1 "$out/ibnetdiscover.times")" \
    "$(tail -1 "$out/ibburn.times")"
done
# Both must have seen the whole fabric for the times to mean anything.
nodes_ref=$(grep -cE '^(Switch|Ca)' "$out/ibnetdiscover.txt")
nodes_ours=$(grep -cE '^(Switch|Ca)' "$out/ibburn.txt")
[[ $nodes_ref == "$nodes_ours" ]] || { echo "bench: node counts differ ($nodes_ref vs $nodes_ours)" >&2; exit 1; }
m_ref=$(median <"$out/ibnetdiscover.times")
m_ours=$(median <"$out/ibburn.times")
printf 'nodes: %d each\nmedian: ibnetdiscover %.3f s, ibburn topo discover %.3f s, ratio %.2f (target <= 1.2)\n' \
  "$nodes_ref" "$m_ref" "$m_ours" "$(awk -v a="$m_ours" -v b="$m_ref" 'BEGIN { print a / b }')"
"$sim" stop --dir "$out/sim" >/dev/null

echo
echo "== loading a 64k-HCA ibnetdiscover text dump with ibburn topo show"
"$ibburn" wiring gen fat-tree --hosts 8192 -o "$out/h64k" >/dev/null
printf 'dump: %s, %d lines\n' "$(du -h "$out/h64k.net" | cut -f1)" "$(wc -l <"$out/h64k.net")"
for ((i = 1; i <= 3; i++)); do
  /usr/bin/time -f "run $i: %e s wall, %U s user, %M KiB peak RSS" "$ibburn" topo show "$out/h64k.net" \
    >"$out/show.txt" 2>"$out/show.time"
  tail -1 "$out/show.time"
done
head -3 "$out/show.txt"
