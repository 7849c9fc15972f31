#!/usr/bin/env bash
# Throughput of ibburn's TCP transport against iperf3 on loopback, same stream count and
# duration, in the same run (alternating, best of ROUNDS each). Target: ratio >= 0.9.
#   bench/tcp-vs-iperf3.sh [BUILD_DIR] [STREAMS] [DURATION_S] [ROUNDS]
set -euo pipefail
build=${1:-build}
streams=${2:-4}
duration=${3:-10}
rounds=${4:-2}
ibburn="$build/ibburn"
[[ -x $ibburn ]] || { echo "no $ibburn: build it first" >&2; exit 2; }
command -v iperf3 >/dev/null || { echo "iperf3 not installed" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
work=$(mktemp -d)
trap 'rm -rf "$work"; [[ -n ${srv:-} ]] && kill $srv 2>/dev/null || true' EXIT

# One one-way flow, rank 0 -> rank 1, like an iperf3 client -> server.
cat > "$work/plan.json" <<JSON
{"stages":[{"name":"one way","flows":[{"src":0,"dst":1,"bidirectional":false,"streams":$streams}]}]}
JSON

ibburn_gbps() {
  mpirun --oversubscribe -np 2 "$ibburn" burn --plan "$work/plan.json" --duration "${duration}s" \
    --out "$work/burn" --quiet >"$work/burn.log" 2>&1 || true
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); print("%.3f" % s["flows"][0]["gbps"])' \
    "$work/burn/summary.json"
}

iperf3_gbps() {
  local port=$((20000 + RANDOM % 20000))
  iperf3 -s -1 -B 127.0.0.1 -p $port >/dev/null 2>&1 & srv=$!
  sleep 0.5
  iperf3 -c 127.0.0.1 -p $port -P "$streams" -t "$duration" -J >"$work/iperf3.json"
  wait $srv 2>/dev/null || true
  srv=
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print("%.3f" % (j["end"]["sum_received"]["bits_per_second"]/1e9))' \
    "$work/iperf3.json"
}

best_ib=0 best_ip=0
for ((i = 1; i <= rounds; i++)); do
  ib=$(ibburn_gbps); ip=$(iperf3_gbps)
  echo "round $i: ibburn tcp $ib Gb/s, iperf3 $ip Gb/s"
  best_ib=$(python3 -c "print(max($best_ib, $ib))")
  best_ip=$(python3 -c "print(max($best_ip, $ip))")
done
ratio=$(python3 -c "print('%.3f' % ($best_ib / $best_ip if $best_ip > 0 else 0))")
echo "streams=$streams duration=${duration}s best: ibburn tcp $best_ib Gb/s, iperf3 $best_ip Gb/s, ratio $ratio (target >= 0.9)"
