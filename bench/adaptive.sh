#!/usr/bin/env bash
# Localisation under adaptive routing (docs/benchmarks.md, "Adaptive routing: a cable at 25%"):
# `ibburn run --transport sim` on fabric files (the field-notes design and a 32k-HCA one,
# 4xHDR) with `--routing adaptive` and one cable at 25%, a leaf's uplink and then a spine's
# uplink to the core. For each: wall time, the rows of cables.csv, the hosts of drain.txt and
# the suspect_cable findings (source, confidence). Then the same field-notes leaf uplink under
# static routes (opensm ftree LFTs read from ibsim, when installed). The targets: the degraded
# cable is the one row of cables.csv, a finding names it, drain.txt is empty, 32k <= 10 s.
# IBBURN=path runs another binary (e.g. a build before the change, for the comparison).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bin=${IBBURN:-$build/ibburn}
[[ -x $bin ]] || { cmake -S "$root" -B "$build" >/dev/null && cmake --build "$build" -j2 --target ibburn >/dev/null; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

"$bin" wiring gen fat-tree --preset field-notes --rate 4xHDR -o "$work/fn" >/dev/null
"$bin" wiring gen fat-tree --hosts 4096 --rate 4xHDR -o "$work/32k" >/dev/null

report() {  # label, run directory, wall seconds, the cable degraded
  local label=$1 dir=$2 wall=$3 cable=$4
  [[ -f $dir/summary.json ]] || { echo "$label: no summary.json: $(tail -n 1 "$work/out")"; return; }
  python3 - "$label" "$dir" "$wall" "$cable" <<'PY'
import csv, json, sys
label, d, wall, cable = sys.argv[1:]
rows = list(csv.DictReader(open(f"{d}/cables.csv")))
drain = [l.split("\t")[0] for l in open(f"{d}/drain.txt").read().splitlines()]
s = json.load(open(f"{d}/summary.json"))
sus = [f for f in s.get("findings", []) if f["kind"] == "suspect_cable"]
node, port = cable.rstrip("]").split("[")
def at(r):
    return (r["a_node"] == node and r["a_port"] == port) or (r["b_node"] == node and r["b_port"] == port)
named = [f for f in sus if any(p["node"] == node and p["port"] == int(port) for p in f["ports"])]
ok = len(rows) == 1 and at(rows[0]) and named and not drain
print(f"{label:<44} wall {float(wall):6.1f} s  cables.csv {len(rows):3d} row(s)  drain.txt {len(drain):3d} host(s)  "
      f"suspect_cable {len(sus):3d}  {'TARGET MET' if ok else 'target missed'}")
for f in (named or sus)[:2]:
    src = f["details"].get("source", "flows")
    print(f"    {f['severity']}: {src}: {f['message'][:160]}")
PY
}

run_case() {  # label, design, cable, extra options...
  local label=$1 design=$2 cable=$3; shift 3
  local start; start=$(date +%s.%N)
  rm -rf "$work/job"
  "$bin" run --transport sim --fabric "$work/$design.net" --wiring "$work/$design.csv" --duration 1ms \
    --degrade "$cable=0.25" --out "$work/job" --quiet "$@" >"$work/out" 2>&1 || true
  report "$label" "$work/job" "$(awk "BEGIN{print $(date +%s.%N) - $start}")" "$cable"
}

# Leaf uplinks are ports 33..64; a spine's core uplinks too (docs/wiring.md).
run_case "field-notes adaptive, leaf-spine pod1-leaf03[37]" fn "pod1-leaf03[37]" --routing adaptive
run_case "field-notes adaptive, spine-core pod2-spine05[40]" fn "pod2-spine05[40]" --routing adaptive
run_case "32k adaptive, leaf-spine pod01-leaf03[37]" 32k "pod01-leaf03[37]" --routing adaptive
run_case "32k adaptive, spine-core pod02-spine05[40]" 32k "pod02-spine05[40]" --routing adaptive

# Static routes: opensm's ftree tables from the simulated fabric, flow-based localisation.
if command -v ibsim >/dev/null && command -v opensm >/dev/null; then
  sim=$root/scripts/simfabric
  eval "$("$sim" start "$work/fn.net" --opensm-args "-R ftree" --dir "$work/sim")" >/dev/null
  trap '"$sim" stop --dir "$work/sim" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
  "$sim" resweep --dir "$work/sim" >/dev/null  # every port active before discovery
  "$sim" run --dir "$work/sim" "$bin" topo discover -o "$work/fn.json" >"$work/out" 2>&1 || cat "$work/out"
  # plan exits 1 for the cable directions no ftree route uses; the tables are what is needed.
  "$sim" run --dir "$work/sim" "$bin" plan --fabric live --save-lfts "$work/lfts.json" -o "$work/p.json" \
    >/dev/null 2>&1 || true
  "$sim" stop --dir "$work/sim" >/dev/null || true
  start=$(date +%s.%N)
  rm -rf "$work/job"
  "$bin" run --transport sim --fabric "$work/fn.json" --node-name-map "$work/fn.node-name-map" \
    --wiring "$work/fn.csv" --lfts "$work/lfts.json" \
    --duration 1ms --degrade "pod1-leaf03[37]=0.25" --out "$work/job" --quiet >"$work/out" 2>&1 || true
  report "field-notes LFT (ftree), leaf-spine pod1-leaf03[37]" "$work/job" \
    "$(awk "BEGIN{print $(date +%s.%N) - $start}")" "pod1-leaf03[37]"
  python3 - "$work/job/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
print("    flow suspects:", [(x["cable"], round(x["confidence"], 2)) for x in s.get("suspects", [])][:3])
PY
fi
