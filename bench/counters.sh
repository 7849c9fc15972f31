#!/usr/bin/env bash
# Counters sweep benchmark: every port of the field-notes fabric (320 switches, 4,088 HCAs,
# 24,568 ports) in ibsim + opensm, `ibburn counters` against `ibqueryerrors` in the same
# run, three ways:
#  1. end to end, as users run them from a cold start: both discover the fabric themselves
#     (`ibqueryerrors` with no cache, `ibburn counters` live), then sweep;
#  2. the sweeps alone: both read the fabric from a file made by one discovery (ibburn:
#     ibnetdiscover text; ibqueryerrors: an ibnetdiscover cache).
#  3. end to end with --json FILE (the findings file; issue #24: it no longer carries every
#     port's counters, so it needs no full sweep).
# ibburn runs its default error sweep (switch AllPortSelect totals first); one --full-sweep
# run follows for reference and must print the same findings, and one --save / --baseline pair.
# Prints best-of-RUNS times and ratios (target <= 0.5 for both). Usage:
# bench/counters.sh [build-dir] [runs]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-$here/../build}" && pwd)
runs=${2:-3}
ibburn=$build/ibburn
[[ -x $ibburn ]] || { echo "no $ibburn: build first" >&2; exit 2; }
for tool in ibsim opensm ibqueryerrors ibnetdiscover sminfo python3; do
  command -v "$tool" >/dev/null || { echo "missing $tool" >&2; exit 3; }
done

work=$(mktemp -d /tmp/ibburn-counters-bench.XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
export IBSIM_SOCKNAME=ibburn-cbench-$$
umad2sim=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
sim() { LD_PRELOAD=$umad2sim "$@"; }

python3 "$here/counters_fabric.py" "$work/net"
mkfifo "$work/console"
ibsim -s -N 5000 -S 400 -P 30000 "$work/net" <"$work/console" >"$work/ibsim.log" 2>&1 &
pids+=($!)
exec 3>"$work/console"  # keeps ibsim's console open
sleep 2
mkdir -p "$work/osm"
OSM_CACHE_DIR=$work/osm sim opensm -f "$work/opensm.log" >/dev/null 2>&1 &
pids+=($!)

# Ready when the SM is master and every port has a LID.
for _ in $(seq 1 120); do
  if sim sminfo 2>/dev/null | grep -q SMINFO_MASTER &&
     sim ibnetdiscover 2>/dev/null >"$work/fabric.txt" &&
     [[ $(grep -c 'lid' "$work/fabric.txt") -ge 24568 ]] &&
     ! grep -q ' lid 0 ' "$work/fabric.txt"; then
    break
  fi
  sleep 2
done
grep -q ' lid ' "$work/fabric.txt" || { echo "fabric did not come up" >&2; exit 3; }
sim ibnetdiscover --cache "$work/fabric.cache" >/dev/null 2>&1

# Both tools judge with infiniband-diags' suggested thresholds (ibburn's defaults).
cat >"$work/thresholds" <<'TH'
SymbolErrorCounter=10
LinkErrorRecoveryCounter=10
LinkDownedCounter=10
PortRcvErrors=10
PortRcvRemotePhysicalErrors=100
PortRcvSwitchRelayErrors=100
PortXmitDiscards=100
PortXmitConstraintErrors=100
PortRcvConstraintErrors=100
LocalLinkIntegrityErrors=10
ExcessiveBufferOverrunErrors=10
VL15Dropped=100
PortXmitWait=1000
TH

# Something for both to find.
echo 'PerformanceSet "core-5"[17] PortCounters.SymbolErrorCounter=500' >&3
echo 'PerformanceSet "gpu100 mlx5_3"[1] PortCounters.PortRcvErrors=50' >&3
echo 'PerformanceSet "leaf-p3-7"[40] PortCounters.LinkDownedCounter=200' >&3
sleep 1

now() { date +%s.%N; }
findings() {  # OURS THEIRS: one line of both tools' finding counts
  echo "ibburn: $(head -1 "$1" | grep -o '[0-9]* errors' || echo '0 errors');" \
       "ibqueryerrors: $(grep -o '[0-9]* ports have errors' "$2")"
}

# race PREFIX "IBBURN COUNTERS ARGS" "IBQUERYERRORS ARGS": both tools alternately, $runs
# times; output in $work/PREFIX-{ours,theirs}.{txt,err}; sets best_ours and best_theirs.
race() {
  local prefix=$1 ours_args=$2 theirs_args=$3 run t0 t1 t2 ours theirs
  best_ours=999 best_theirs=999
  for run in $(seq 1 "$runs"); do
    t0=$(now)
    # shellcheck disable=SC2086  # word-split argument lists
    sim "$ibburn" counters $ours_args >"$work/$prefix-ours.txt" 2>"$work/$prefix-ours.err" || true
    t1=$(now)
    # shellcheck disable=SC2086
    sim ibqueryerrors $theirs_args >"$work/$prefix-theirs.txt" 2>/dev/null || true
    t2=$(now)
    ours=$(echo "$t1 - $t0" | bc -l) theirs=$(echo "$t2 - $t1" | bc -l)
    printf 'run %d: ibburn counters %.2f s, ibqueryerrors %.2f s\n' "$run" "$ours" "$theirs"
    best_ours=$(echo "if ($ours < $best_ours) $ours else $best_ours" | bc -l)
    best_theirs=$(echo "if ($theirs < $best_theirs) $theirs else $best_theirs" | bc -l)
  done
  grep -E '^(discovered|swept|error sweep)' "$work/$prefix-ours.err" || true
}

echo "== end to end (discovery included)"
race e2e "--thresholds $work/thresholds" "--threshold-file $work/thresholds"
findings "$work/e2e-ours.txt" "$work/e2e-theirs.txt"
e2e_ratio=$(echo "$best_ours / $best_theirs" | bc -l)
printf 'end to end, best of %d: ibburn %.2f s, ibqueryerrors %.2f s, ratio %.2f (target <= 0.5)\n' \
  "$runs" "$best_ours" "$best_theirs" "$e2e_ratio"

echo "== end to end with --json (the findings file)"
race json "--thresholds $work/thresholds --json $work/findings.json" "--threshold-file $work/thresholds"
findings "$work/json-ours.txt" "$work/json-theirs.txt"
json_ratio=$(echo "$best_ours / $best_theirs" | bc -l)
printf 'counters --json end to end, best of %d: ibburn %.2f s, ibqueryerrors %.2f s, ratio %.2f (target <= 0.5); %s bytes\n' \
  "$runs" "$best_ours" "$best_theirs" "$json_ratio" "$(wc -c <"$work/findings.json")"

echo "== the sweeps alone (fabric from a file)"
race file "--fabric $work/fabric.txt --thresholds $work/thresholds" \
  "--load-cache $work/fabric.cache --threshold-file $work/thresholds"
# The full per-port sweep once, for reference: its findings must be the error sweep's.
t0=$(now)
sim "$ibburn" counters --fabric "$work/fabric.txt" --thresholds "$work/thresholds" --full-sweep \
  >"$work/full.txt" 2>"$work/full.err" || true
printf 'ibburn counters --full-sweep: %.2f s; ' "$(echo "$(now) - $t0" | bc -l)"
grep '^swept' "$work/full.err" || echo
if cmp -s "$work/file-ours.txt" "$work/full.txt"; then
  echo "error sweep and full sweep: identical findings"
else
  echo "error sweep and full sweep: FINDINGS DIFFER" >&2
  diff "$work/file-ours.txt" "$work/full.txt" | head -20 >&2
fi
findings "$work/file-ours.txt" "$work/file-theirs.txt"
# The per-port snapshot (--save: the full sweep and every port's counters written), then
# read back as a baseline, once each for reference.
t0=$(now)
sim "$ibburn" counters --fabric "$work/fabric.txt" --thresholds "$work/thresholds" --save "$work/snap.json" \
  >/dev/null 2>&1 || true
t1=$(now)
sim "$ibburn" counters --fabric "$work/fabric.txt" --thresholds "$work/thresholds" --baseline "$work/snap.json" \
  >/dev/null 2>&1 || true
printf 'ibburn counters --save: %.2f s (%s bytes); --baseline of it: %.2f s\n' "$(echo "$t1 - $t0" | bc -l)" \
  "$(wc -c <"$work/snap.json")" "$(echo "$(now) - $t1" | bc -l)"
if ! cmp -s "$work/file-ours.txt" "$work/e2e-ours.txt"; then
  echo "live discovery and the fabric file: FINDINGS DIFFER" >&2
  diff "$work/file-ours.txt" "$work/e2e-ours.txt" | head -20 >&2
fi
printf 'sweeps alone, best of %d: ibburn %.2f s, ibqueryerrors %.2f s, ratio %.2f (target <= 0.5)\n' \
  "$runs" "$best_ours" "$best_theirs" "$(echo "$best_ours / $best_theirs" | bc -l)"
printf 'end to end ratio %.2f, with --json %.2f (target <= 0.5)\n' "$e2e_ratio" "$json_ratio"
