#!/usr/bin/env bash
# Pricing at scale (docs/benchmarks.md, "Pricing"): issue #38's targets.
#  1. `ibburn price` of 20 defects (10 host cables, 10 leaf uplinks, at 25%) on a 32k-HCA fat
#     tree (4,096 hosts x 8 rails, adaptive routing): three collectives at three job sizes
#     (a leaf, a pod, all), target <= 10 s wall and <= 2 GiB. Beside it, the peer it replaces: one
#     fluid-model stage of the same fabric's ring step (`burn --transport sim --pattern ring`),
#     the brute-force way to price one defect for one collective at one size; the ratio says how
#     many such stages the whole pricing costs.
#  2. The whole sim job (`ibburn run --transport sim`) on the largest fabric one subnet can address,
#     `wiring gen fat-tree --hosts 5632` (45,056 HCAs, 3,840 switches), localisation and pricing
#     included: target <= 60 s and <= 4 GiB.
# usage: bench/price.sh   (BUILD_DIR, IBBURN override the binary; SKIP_45K=1 skips part 2)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
bin=${IBBURN:-$build/ibburn}
[[ -x $bin ]] || { echo "price.sh: no $bin (build first)" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export IBBURN_SITE_CONFIG=

# shellcheck source=bench/measure.sh
source "$root/bench/measure.sh"

"$bin" wiring gen fat-tree --hosts 4096 -o "$work/32k" >/dev/null
degrade=()
for h in 1 300 700 1100 1500 1900 2300 2700 3100 3900; do
  degrade+=(--degrade "$(printf 'host%04d' "$h") mlx5_$((h % 8))[1]=0.25")
done
leaves=$(grep -o '"pod[0-9]*-leaf[0-9]*"' "$work/32k.net" | sort -u | head -10 | tr -d '"')
uplink=33  # radix 64: ports 1-32 face the HCAs, 33-64 go up
for l in $leaves; do degrade+=(--degrade "$l[$uplink]=0.25"); done
measure "32k HCAs: price 20 defects, 3 collectives x 3 sizes" "$bin" price --fabric "$work/32k.net" \
  --routing adaptive "${degrade[@]}" --json "$work/price.json"
price_wall=$wall
grep -E '^price:|fabric as measured|repair 1' "$work/out" | head -5 | sed 's/^/    /'
measure "  peer: one fluid stage of the ring step (burn --transport sim)" "$bin" burn --transport sim \
  --fabric "$work/32k.net" --routing adaptive --pattern ring --duration 1ms --out "$work/ring" --quiet
awk -v a="$price_wall" -v b="$wall" 'BEGIN { if (b > 0) printf "    ratio: the whole pricing costs %.1f fluid stages of the ring\n", a / b }'

if [[ -z ${SKIP_45K:-} ]]; then
  "$bin" wiring gen fat-tree --hosts 5632 -o "$work/45k" >/dev/null
  measure "45,056 HCAs: ibburn run --transport sim (adaptive)" "$bin" run --transport sim --fabric "$work/45k.net" \
    --routing adaptive --wiring "$work/45k.csv" --duration 1ms --out "$work/run45" --quiet \
    --degrade "host0001 mlx5_0[1]=0.25"
  python3 -c 'import json,sys; [print("    step %-8s %6.2f s  %s" % (s["name"], s["seconds"], s["outcome"])) for s in json.load(open(sys.argv[1]))["job"]["steps"]]' \
    "$work/run45/summary.json"
fi
