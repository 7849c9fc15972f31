#!/usr/bin/env bash
# Planning time and peak RSS (docs/benchmarks.md, "plan"): the field-notes fabric with
# adaptive routing and with opensm's ftree forwarding tables read from ibsim, and a
# 32k-HCA fabric with adaptive routing; then the same plans as `burn --transport sim` (the
# fluid model, every HCA a rank), healthy and with one cable at 25% (localised, with probes). The public python planner's dense route table is
# (leaves+1)^2 x switches^2 float64 entries; its size is printed for comparison (that
# planner is not packaged, so it is not run here). The simulated burns pass `--duration 1ms`:
# the sim transport waits --duration per stage in wall-clock time, and this measures the
# model. RUNS (default 3) repeats each simulated burn; take the best.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bin=${IBBURN:-$build/ibburn}
[[ -x $bin ]] || { cmake -S "$root" -B "$build" >/dev/null && cmake --build "$build" -j2 --target ibburn >/dev/null; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT

measure() {  # label, command...: prints wall, CPU and peak RSS
  local label=$1; shift
  /usr/bin/time -f "%e %U %S %M" -o "$work/t" "$@" >"$work/out" 2>&1 || true
  # time(1) puts "Command exited with non-zero status" first when plan exits 1.
  read -r wall user sys rss < <(tail -n 1 "$work/t")
  printf '%-40s wall %6.2f s  cpu %6.2f s  peak RSS %6d MiB  | %s\n' "$label" "$wall" \
    "$(awk "BEGIN{print $user + $sys}")" $((rss / 1024)) "$(grep -E '^plan:|simulated for|suspect cable' "$work/out" | head -3 | tr '\n' ' ')"
}
dense() {  # leaves switches: the dense table's bytes
  echo "$(( ($1 + 1) * ($1 + 1) * $2 * $2 * 8 / 1024 / 1024 )) MiB"
}

"$bin" wiring gen fat-tree --preset field-notes --rate 4xHDR -o "$work/fn" >/dev/null
"$bin" wiring gen fat-tree --hosts 4096 --rate 4xHDR -o "$work/32k" >/dev/null
measure "field-notes, adaptive" "$bin" plan --fabric "$work/fn.net" --routing adaptive -o "$work/fn-plan.json"
echo "  dense route table of the python planner: $(dense 128 320)"
measure "32k HCAs, adaptive" "$bin" plan --fabric "$work/32k.net" --routing adaptive -o "$work/32k-plan.json"
echo "  dense route table of the python planner: $(dense 1024 2560)"
runs=${RUNS:-3}
sim=(burn --transport sim --duration 1ms)
for ((i = 1; i <= runs; ++i)); do
  measure "field-notes, adaptive: burn --transport sim" "$bin" "${sim[@]}" --fabric "$work/fn.net" \
    --routing adaptive --plan "$work/fn-plan.json" --out "$work/run" --quiet
done
for ((i = 1; i <= runs; ++i)); do
  measure "32k HCAs, adaptive: burn --transport sim" "$bin" "${sim[@]}" --fabric "$work/32k.net" \
    --routing adaptive --plan "$work/32k-plan.json" --out "$work/run" --quiet
done

# The routes opensm (ftree) really installs, read from the simulated fabric once.
if command -v ibsim >/dev/null && command -v opensm >/dev/null; then
  eval "$("$root/scripts/simfabric" start "$work/fn.net" --opensm-args "-R ftree" --dir "$work/sim")" >/dev/null
  trap '"$root/scripts/simfabric" stop --dir "$work/sim" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
  "$root/scripts/simfabric" run --dir "$work/sim" "$bin" topo discover -o "$work/fn.json" >/dev/null 2>&1
  measure "field-notes, live: discover+LFTs+plan" "$root/scripts/simfabric" run --dir "$work/sim" "$bin" plan --fabric live --save-lfts "$work/lfts.json" -o "$work/p.json"
  "$root/scripts/simfabric" stop --dir "$work/sim"
  measure "field-notes, ftree LFTs from file" "$bin" plan --fabric "$work/fn.json" --lfts "$work/lfts.json" -o "$work/p.json"
  measure "field-notes, LFTs: burn --transport sim" "$bin" "${sim[@]}" --fabric "$work/fn.json" \
    --lfts "$work/lfts.json" --plan "$work/p.json" --out "$work/run" --quiet
  measure "  ... pod3-spine05[7] at 25%" "$bin" "${sim[@]}" --fabric "$work/fn.json" \
    --lfts "$work/lfts.json" --node-name-map "$work/fn.node-name-map" --plan "$work/p.json" \
    --degrade 'pod3-spine05[7]=0.25' --out "$work/run"
fi
