#!/usr/bin/env bash
# One cause, one finding, and the drain guard, on the field-notes fabric as files (no ibsim)
# (docs/benchmarks.md, "Systemic causes"): `ibburn run --transport sim` and `ibburn topo check`
# where (a) the plan says 4xNDR and every link trains 4xHDR (the netfile: Debian's ibsim knows
# no NDR), (b) everything trains 4xHDR as planned except rail mlx5_3, which the plan says is
# 4xNDR. Prints per case: exit codes, the rate findings (degraded + systemic), the findings in
# all, drain.txt's host lines, cables.csv's rows and the job's wall time. Fails (exit 1) unless
# each case gives at most 3 rate findings, exit 1, and nobody drained.
#   IBBURN=path/to/ibburn bench/systemic.sh     (default build/ibburn)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${IBBURN:-${BUILD_DIR:-$root/build}/ibburn}
[[ -x $bin ]] || { echo "bench/systemic.sh: no $bin (build the ibburn target)"; exit 3; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$bin" wiring gen fat-tree --preset field-notes -o "$work/ndr" >/dev/null                 # plan 4xNDR, netfile 4xHDR
"$bin" wiring gen fat-tree --preset field-notes --rate 4xHDR -o "$work/hdr" >/dev/null
awk -F, -v OFS=, '$1 ~ / mlx5_3$/ || $3 ~ / mlx5_3$/ { $5 = "4xNDR" } { print }' "$work/hdr.csv" >"$work/rail.csv"

bad=0
measure() {  # NAME PLAN_CSV DESIGN_PREFIX
  local name=$1 plan=$2 design=$3 out=$work/$1 rc_run=0 rc_check=0
  local t0; t0=$(date +%s.%N)
  "$bin" run --transport sim --fabric "$design.net" --node-name-map "$design.node-name-map" --wiring "$plan" \
    --routing adaptive --duration 1ms --quiet --out "$out" >"$work/$name.log" 2>&1 || rc_run=$?
  local wall; wall=$(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $t0}")
  "$bin" topo check --fabric "$design.net" --node-name-map "$design.node-name-map" --wiring "$plan" \
    --json "$work/$name-check.json" >/dev/null 2>&1 || rc_check=$?
  python3 - "$name" "$rc_run" "$rc_check" "$wall" "$out" "$work/$name-check.json" <<'PY' || bad=1
import json, sys
name, rc_run, rc_check, wall, out, check = sys.argv[1:]
def rate(findings):
    return sum(1 for f in findings if f["kind"] == "degraded" or
               (f["kind"] == "systemic" and f["details"]["of_kind"] == "degraded"))
run = json.load(open(out + "/summary.json"))["findings"]
topo = json.load(open(check))["findings"]
drained = [l for l in open(out + "/drain.txt") if l.strip() and not l.startswith("#")]
cables = sum(1 for _ in open(out + "/cables.csv")) - 1
print(f"{name}: run exit {rc_run}, {rate(run)} rate finding(s) of {len(run)}, {len(drained)} host(s) drained, "
      f"{cables} cable(s) in cables.csv, {wall} s; topo check exit {rc_check}, {rate(topo)} rate finding(s) of {len(topo)}")
for f in run:
    print(f"  [{f['severity']}] {f['kind']}: {f['message'][:150]}")
ok = rate(run) <= 3 and rc_run == "1" and not drained and rate(topo) <= 3 and rc_check == "1"
sys.exit(0 if ok else 1)
PY
}
measure fabric-wide "$work/ndr.csv" "$work/ndr"
measure one-rail "$work/rail.csv" "$work/hdr"
((bad)) && { echo "bench/systemic.sh: a target missed (<= 3 rate findings, exit 1, nobody drained)"; exit 1; }
echo "bench/systemic.sh: both cases within target"
