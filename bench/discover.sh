#!/usr/bin/env bash
# Discovery benchmark (docs/benchmarks.md, "Discovery").
#  1. The field-notes fabric (320 switches, 4,088 HCAs) in ibsim, twice: as `wiring gen`
#     writes it, and as another generator does (bench/counters_fabric.py: GUIDs ibsim
#     assigns, other names, switches first so the client attaches at a leaf, another port
#     order). Each: `ibburn topo discover` against `ibnetdiscover` in the same run,
#     alternating, REPS times each (both write ibnetdiscover text to a file); checks both
#     texts hold the same lines (modulo ordering) and prints the best (and median) times and
#     their ratios (target: best wall <= 0.5 on both); for reference, also ibnetdiscover kept on
#     one CPU by taskset, as ibburn keeps its MAD loop.
#  2. A 64k-HCA ibnetdiscover text dump (generated) loaded by `ibburn topo show`: wall time
#     and peak RSS from /usr/bin/time.
# Usage: bench/discover.sh [REPS]   (BUILD_DIR, JOBS as in the other benches; IBBURN=path
# uses that binary as it is, without building)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
reps=${1:-3}
if [[ -z ${IBBURN:-} ]]; then
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$build" -j"${JOBS:-2}" --target ibburn >/dev/null
fi
ibburn=${IBBURN:-$build/ibburn}
sim=$root/scripts/simfabric
last_cpu=$(($(nproc) - 1))
for tool in ibnetdiscover python3 taskset; do
  command -v "$tool" >/dev/null || { echo "bench: $tool missing" >&2; exit 3; }
done
out=$(mktemp -d)
cleanup() { "$sim" stop --dir "$out/sim" >/dev/null 2>&1 || true; rm -rf "$out"; }
trap cleanup EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Each run: wall and CPU (user + sys) seconds of the discovering process; CPU time is
# what to trust on a loaded machine (ibsim answers on the same cores).
timed() {  # NAME OUTPUT CMD...
  local name=$1 output=$2; shift 2
  /usr/bin/time -f "%e %U %S" -o "$out/$name.t" "$sim" run --dir "$out/sim" "$@" >"$output" 2>"$out/$name.err"
  awk '{ print $1 }' "$out/$name.t" >>"$out/$name.wall"
  awk '{ print $2 + $3 }' "$out/$name.t" >>"$out/$name.cpu"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

discovery() {  # LABEL NETFILE
  echo "== discovery of the field-notes fabric $1 in ibsim ($reps runs each, alternating)"
  "$sim" start "$2" --dir "$out/sim" >/dev/null
  for name in ibnetdiscover ibnetdiscover1 ibburn; do : >"$out/$name.wall"; : >"$out/$name.cpu"; done
  for ((i = 1; i <= reps; i++)); do
    timed ibnetdiscover "$out/ibnetdiscover.txt" ibnetdiscover
    timed ibburn /dev/null "$ibburn" topo discover -o "$out/ibburn.txt"
    timed ibnetdiscover1 /dev/null taskset -c "$last_cpu" ibnetdiscover
    printf 'run %d: ibnetdiscover %.2f s wall / %.2f s CPU, ibburn %.2f s wall / %.2f s CPU, ibnetdiscover on one CPU %.2f s wall\n' \
      "$i" "$(tail -1 "$out/ibnetdiscover.wall")" "$(tail -1 "$out/ibnetdiscover.cpu")" \
      "$(tail -1 "$out/ibburn.wall")" "$(tail -1 "$out/ibburn.cpu")" "$(tail -1 "$out/ibnetdiscover1.wall")"
  done
  # Both must have seen the same fabric for the times to mean anything: the same nodes, ports,
  # links, LIDs and rates, i.e. the same lines of ibnetdiscover text in another order.
  nodes_ref=$(grep -cE '^(Switch|Ca)' "$out/ibnetdiscover.txt")
  nodes_ours=$(grep -cE '^(Switch|Ca)' "$out/ibburn.txt")
  [[ $nodes_ref == "$nodes_ours" ]] || { echo "bench: node counts differ ($nodes_ref vs $nodes_ours)" >&2; exit 1; }
  # (Both say "base" or "enhanced port 0" from the switch's SwitchInfo: wiring gen's
  # switches are enhanced, counters_fabric.py's base.)
  sorted_text() { grep -v '^#' "$1" | sort; }
  if ! cmp -s <(sorted_text "$out/ibnetdiscover.txt") <(sorted_text "$out/ibburn.txt"); then
    echo "bench: the two fabrics differ (sorted ibnetdiscover text)" >&2
    exit 1
  fi
  for kind in wall cpu; do
    m_ref=$(median <"$out/ibnetdiscover.$kind")
    m_ours=$(median <"$out/ibburn.$kind")
    b_ref=$(sort -g "$out/ibnetdiscover.$kind" | head -1)
    b_ours=$(sort -g "$out/ibburn.$kind" | head -1)
    printf 'best of %d %s: ibnetdiscover %.2f s, ibburn topo discover %.2f s, ratio %s%s\n' "$reps" "$kind" \
      "$b_ref" "$b_ours" "$(ratio "$b_ours" "$b_ref")" "$([[ $kind == wall ]] && echo ' (target <= 0.5)')"
    printf 'median %s: ibnetdiscover %.2f s, ibburn topo discover %.2f s, ratio %s\n' \
      "$kind" "$m_ref" "$m_ours" "$(ratio "$m_ours" "$m_ref")"
  done
  # ibburn keeps its MAD loop (and under ibsim umad2sim's receiver thread) on one CPU
  # (topo/mad_window.h); for reference, ibnetdiscover given the same by taskset.
  b_one=$(sort -g "$out/ibnetdiscover1.wall" | head -1)
  printf 'for reference, ibnetdiscover on one CPU (taskset): best wall %.2f s, ibburn / it %s\n' "$b_one" \
    "$(ratio "$(sort -g "$out/ibburn.wall" | head -1)" "$b_one")"
  printf 'nodes: %d each, same ibnetdiscover lines; ibburn: %s\n' "$nodes_ref" \
    "$(grep -o '([0-9]* SMPs[^)]*)' "$out/ibburn.err" | tail -1)"
  "$sim" stop --dir "$out/sim" >/dev/null
}

"$ibburn" wiring gen fat-tree --preset field-notes -o "$out/fn" >/dev/null
discovery "as wiring gen writes it" "$out/fn.net"
echo
python3 "$root/bench/counters_fabric.py" "$out/foreign.net"
discovery "as another generator writes it (bench/counters_fabric.py)" "$out/foreign.net"

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
