#!/usr/bin/env bash
# Planes at scale (docs/benchmarks.md, "Planes"): issue #46's target, the whole sim job
# (`ibburn run --transport sim`) on 8 planes x 16,384 HCAs (131,072 HCAs; each plane a 3-tier
# fat tree, its own subnet, one --fabric per plane), target <= 90 s and <= 6 GiB. Beside it,
# the same job on one plane alone: the ratio says what the other seven cost over 8x one.
# usage: bench/planes.sh   (BUILD_DIR, IBBURN override the binary; HOSTS=N for a smaller run)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bin=${IBBURN:-$build/ibburn}
[[ -x $bin ]] || { echo "planes.sh: no $bin (build first)" >&2; exit 2; }
hosts=${HOSTS:-16384}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export IBBURN_SITE_CONFIG=

# shellcheck source=bench/measure.sh
source "$root/bench/measure.sh"

measure "generate: 8 planes x $hosts HCAs" "$bin" wiring gen fat-tree --hosts "$hosts" --hcas-per-host 8 \
  --planes 8 -o "$work/p"
fabrics=()
for k in 1 2 3 4 5 6 7 8; do fabrics+=(--fabric "$work/p.plane$k.net"); done
measure "8 planes x $hosts HCAs: ibburn run --transport sim (adaptive)" "$bin" run --transport sim "${fabrics[@]}" \
  --routing adaptive --wiring "$work/p.csv" --duration 1ms --out "$work/run8" --quiet
all=$wall
python3 -c 'import json,sys; [print("    step %-12s %6.2f s  %s" % (s["name"], s["seconds"], s["outcome"])) for s in json.load(open(sys.argv[1]))["job"]["steps"]]' \
  "$work/run8/summary.json"
awk -F, '/^#/ || /^a_node/ || $7 == 1' "$work/p.csv" > "$work/p1.csv"
measure "  one plane alone: ibburn run --transport sim (adaptive)" "$bin" run --transport sim \
  --fabric "$work/p.plane1.net" --routing adaptive --wiring "$work/p1.csv" --duration 1ms --out "$work/run1" --quiet
awk -v a="$all" -v b="$wall" 'BEGIN { if (b > 0) printf "    ratio: 8 planes cost %.1f times one plane\n", a / b }'
