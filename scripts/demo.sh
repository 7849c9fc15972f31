#!/usr/bin/env bash
# The main job on a simulated fabric: set up, build, generate a small fat-tree design,
# start it in ibsim (+ opensm), run the whole burn-in job on it with `ibburn run` (symbol
# errors injected on one cable during stage 1), then the building blocks one by one: discover it, show it, check it against its wiring plan,
# read its counters, plan a burn over the switches' real routes and simulate it with one
# bad cable (as `plan --simulate` and as a `burn --transport sim` whose summary names the
# cable), run a short TCP burn under mpirun, the host preflight, inject a fault and
# check again, write the HTML report, stop. Outputs stay in the folder
# printed at the start and the end (./out/demo-<timestamp>/, or $1).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=${1:-$root/out/demo-$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$out/run"
out=$(cd "$out" && pwd)
echo "demo: outputs in $out"

# IBBURN=path runs an existing binary instead of setting up and building build/ibburn.
if [[ -z ${IBBURN:-} ]]; then
  bash scripts/setup.sh
  cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >"$out/cmake-configure.log"
  cmake --build build -j"$(nproc)" --target ibburn >"$out/cmake-build.log"
fi
ibburn=${IBBURN:-$root/build/ibburn}
sim=$root/scripts/simfabric

step() { echo; echo "== $*"; }
# Runs an ibburn command, keeping its output in $out/NAME.txt; findings (exit 1) are
# expected in the fault steps, anything else stops the demo.
show() {
  local name=$1; shift
  local rc
  set +e
  "$@" 2>&1 | tee "$out/$name.txt"
  rc=${PIPESTATUS[0]}
  set -e
  ((rc <= 1)) || { echo "demo: '$*' failed with exit $rc" >&2; exit "$rc"; }
  echo "(exit $rc)"
}

step "design: 2-tier fat tree, 16 hosts x 2 HCAs, 8-port switches, 4xHDR"
"$ibburn" wiring gen fat-tree --tiers 2 --radix 8 --hosts 16 --hcas-per-host 2 --rate 4xHDR \
  -o "$out/design" | tee "$out/design.txt"

# ibsim names nodes by the quoted id of their netfile record.
first_switch=$(awk '/^Switch/ { match($0, /"[^"]*"/); print substr($0, RSTART+1, RLENGTH-2); exit }' "$out/design.net")

step "simulated fabric: ibsim + opensm"
eval "$("$sim" start "$out/design.net" --opensm-args "-R ftree" --dir "$out/sim")"
trap '"$sim" stop --dir "$out/sim" >/dev/null 2>&1 || true' EXIT

# The first HCA's cable at its leaf: errors there drain host001 and list the cable.
read -r first_leaf first_leaf_port < <(awk -F, '$1 == "host001 mlx5_0" { print $3, $4; exit }' "$out/design.csv")
leaf_id=$(awk -v name="\"$first_leaf\"" '/^Switch/ && index($0, name) { match($0, /"[^"]*"/); print substr($0, RSTART+1, RLENGTH-2); exit }' "$out/design.net")
step "ibburn run: topo check, counters, plan over opensm's routes, 3 s stages each followed by a counters sweep; symbol errors on $first_leaf[$first_leaf_port] during stage 1"
( sleep 2; "$sim" console --dir "$out/sim" "PerformanceSet \"$leaf_id\"[$first_leaf_port] PortCounters.SymbolErrorCounter=300" >/dev/null ) &
show job "$sim" run --dir "$out/sim" "$ibburn" run --transport sim --wiring "$out/design.csv" \
  --node-name-map "$out/design.node-name-map" --duration 3s --probes 0 --history "$out/history.sqlite" \
  --out "$out/job"
wait
echo "drain.txt:"; cat "$out/job/drain.txt"
echo "cables.csv:"; cat "$out/job/cables.csv"

echo
echo "== the building blocks, one command each"
step "ibburn topo discover"
show discover "$sim" run --dir "$out/sim" "$ibburn" topo discover -o "$out/fabric.json"

step "ibburn topo show"
show topo-show "$ibburn" topo show "$out/fabric.json" --node-name-map "$out/design.node-name-map"

step "ibburn topo check (against the design)"
show topo-check "$sim" run --dir "$out/sim" "$ibburn" topo check --wiring "$out/design.csv" \
  --node-name-map "$out/design.node-name-map" --json "$out/run/topo.json"

if "$ibburn" counters --help >/dev/null 2>&1; then
  step "ibburn counters (after raising SymbolErrorCounter on $first_switch port 1)"
  "$sim" console --dir "$out/sim" "PerformanceSet \"$first_switch\"[1] PortCounters.SymbolErrorCounter=500"
  show counters "$sim" run --dir "$out/sim" "$ibburn" counters --node-name-map "$out/design.node-name-map" \
    --json "$out/run/counters.json"
fi

# A spine-side end of the first switch-to-switch cable of the design, to degrade in the
# simulation.
bad=$(awk -F, '$1 ~ /leaf/ && $3 ~ /spine/ { print $3 "[" $4 "]"; exit }' "$out/design.csv")
step "ibburn plan (forwarding tables read live) and a simulated burn with $bad at 25%"
show plan "$sim" run --dir "$out/sim" "$ibburn" plan --fabric live --save-lfts "$out/lfts.json" \
  -o "$out/plan.json" --proof "$out/plan-proof.json" --simulate --degrade "$bad=0.25" \
  --simulation-out "$out/plan-simulation.json"

step "ibburn burn --transport sim: that plan through the fluid model with $bad at 25%; the summary names the cable"
show burn-sim "$ibburn" burn --transport sim --fabric "$out/fabric.json" --lfts "$out/lfts.json" \
  --plan "$out/plan.json" --degrade "$bad=0.25" --out "$out/sim-run" --quiet --duration 1s

step "ibburn burn: 4 ranks under mpirun, TCP on loopback, one-to-one rounds, 2 s per stage"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
show burn mpirun -np 4 --oversubscribe "$ibburn" burn --pattern one-to-one --duration 2s \
  --transport tcp --quiet --out "$out/run"

step "ibburn host check (this machine's /sys)"
show host-check "$ibburn" host check --json "$out/run/host-$(hostname).json"

# The fault: a switch-to-switch cable of the last switch in the netfile (a spine; unplugging
# an HCA cable could cut off the SM's own port).
read -r last_switch last_port < <(awk '
  /^Switch/ { match($0, /"[^"]*"/); sw = substr($0, RSTART + 1, RLENGTH - 2); port = "" }
  sw != "" && port == "" && /^\[[0-9]+\]/ { match($0, /[0-9]+/); port = substr($0, RSTART, RLENGTH) }
  /^$/ && sw != "" && port != "" { last = sw " " port; sw = "" }
  END { if (sw != "" && port != "") last = sw " " port; print last }' "$out/design.net")
step "fault: unplug $last_switch[$last_port], discover again, check again"
"$sim" console --dir "$out/sim" "Unlink \"$last_switch\"[$last_port]"
"$sim" resweep --dir "$out/sim"
show topo-show-after-fault "$sim" run --dir "$out/sim" "$ibburn" topo show live
show topo-check-after-fault "$sim" run --dir "$out/sim" "$ibburn" topo check --wiring "$out/design.csv" \
  --node-name-map "$out/design.node-name-map" --json "$out/topo-check-after-fault.json"

step "stop"
"$sim" stop --dir "$out/sim"
trap - EXIT

step "ibburn report: one HTML page, Prometheus metrics, run history"
show report "$ibburn" report "$out/run" -o "$out/report.html" --fabric "$out/fabric.json" \
  --prometheus "$out/ibburn.prom" --history "$out/history.sqlite"
echo "demo: done; outputs in $out"
