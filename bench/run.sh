#!/usr/bin/env bash
# `ibburn run --transport sim` on the field-notes fabric in ibsim + opensm (-R ftree)
# (docs/benchmarks.md, "ibburn run"): the job's wall time, CPU and peak RSS, the time of each
# step as summary.json records it, and the counters sweep of every port after each stage
# (the issue's target: one sweep of the 24,568 ports in <= 1 s). DURATION per stage
# (default 2s) is wall-clock time the sim waits, as a real burn would.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bin=${IBBURN:-$build/ibburn}
duration=${DURATION:-2s}
[[ -x $bin ]] || { cmake -S "$root" -B "$build" >/dev/null && cmake --build "$build" -j2 --target ibburn >/dev/null; }
command -v ibsim >/dev/null && command -v opensm >/dev/null || { echo "bench/run.sh: needs ibsim and opensm"; exit 3; }
work=$(mktemp -d)
# KEEP=DIR: copy the job's output directory there.
sim=$root/scripts/simfabric
trap '"$sim" stop --dir "$work/sim" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

"$bin" wiring gen fat-tree --preset field-notes --rate 4xHDR -o "$work/fn" >/dev/null
start=$(date +%s.%N)
eval "$("$sim" start "$work/fn.net" --opensm-args "-R ftree" --dir "$work/sim")" >/dev/null
# `start` returns once the SM is master and the local port is active; a second sweep waits
# until every port of 4,088 HCAs is active too (else the topo check rightly says port_not_active).
"$sim" resweep --dir "$work/sim" >/dev/null
echo "simulated fabric up (ibsim + opensm ftree, swept twice): $(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $start}") s"

/usr/bin/time -f "%e %U %S %M" -o "$work/t" "$sim" run --dir "$work/sim" "$bin" run --transport sim \
  --wiring "$work/fn.csv" --node-name-map "$work/fn.node-name-map" --duration "$duration" --probes 0 \
  --out "$work/job" >"$work/out" 2>&1 || true
read -r wall user sys rss < <(tail -n 1 "$work/t")
printf 'ibburn run: wall %.1f s, cpu %.1f s, peak RSS %d MiB, %s\n' "$wall" "$(awk "BEGIN{print $user + $sys}")" \
  $((rss / 1024)) "$(grep -E '^run: (PASS|FAIL|INCOMPLETE)' "$work/out" | head -1)"
[[ -n ${KEEP:-} ]] && cp -r "$work/job" "$KEEP"
python3 - "$work/job/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
for st in s["job"]["steps"]:
    print(f'  {st["name"]:<10} {st["seconds"]:7.2f} s  {st["outcome"]}')
kinds = {}
for f in s.get("findings", []):
    kinds[f["kind"]] = kinds.get(f["kind"], 0) + 1
print(f'  verdict {s["verdict"]}, {s["stages_run"]} stage(s), findings by kind: {kinds}')
PY
