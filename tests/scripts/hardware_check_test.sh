#!/usr/bin/env bash
# scripts/hardware-check.sh's argument handling, and its --dry-run plan: the commands it would
# run on two nodes (nothing runs; no RDMA device needed).
#   usage: hardware_check_test.sh REPO
set -uo pipefail
script=$1/scripts/hardware-check.sh
fails=0
expect() {  # expect NAME STATUS PATTERN -- ARGS...
  local name=$1 status=$2 pattern=$3 out rc
  shift 4
  out=$(bash "$script" "$@" 2>&1)
  rc=$?
  if [[ $rc != "$status" ]] || ! grep -qE -- "$pattern" <<< "$out"; then
    echo "FAIL $name: exit $rc (want $status), output lacks /$pattern/:" >&2
    echo "$out" | head -20 >&2
    fails=$((fails + 1))
  fi
}

bash -n "$script" || { echo "FAIL: bash -n" >&2; exit 1; }
expect help 0 "Usage: scripts/hardware-check.sh --peer NODE_B" -- --help
expect no-peer 2 "--peer is required" --
expect unknown 2 "unknown option --bogus" -- --peer b --bogus
expect missing-value 2 "--qps needs a value" -- --peer b --qps
expect bad-qps 2 "--qps 0: expected a positive integer" -- --peer b --qps 0
expect bad-size 2 "--msg-size 8X" -- --peer b --msg-size 8X
expect bad-device 2 "'mlx5_0' is not DEV:PORT" -- --peer b --device mlx5_0
expect bad-gpu 2 "--gpu x: expected a CUDA ordinal" -- --peer b --gpu x
# The plan (one dry run): perftest and ibburn on the same devices and shape on both nodes,
# GPU and negative tests included, then the table.
plan=$(bash "$script" --peer nodeB --peer-device mlx5_3:1 --msg-size 1M --qps 2 --gpu 1 --dry-run 2>&1)
[[ $? == 0 ]] || { echo "FAIL dry run: exit status" >&2; fails=$((fails + 1)); }
for pattern in "\[nodeB\] timeout 90 ib_write_bw -d mlx5_3 -i 1 -s 1048576 -q 2 -D 30" \
  "ib_write_bw -d mlx5_0 -i 1 -s 1048576 -q 2 -D 30 .* nodeB" \
  "mpirun -np 2 -H [^ ]+:1,nodeB:1 .* --transport verbs .*--map .*--qps 2 --msg-size 1M" \
  "--use_cuda=1 --use_cuda_dmabuf" "--gpu 1,1 --verify" "negative: kill .*DRY" \
  "^check +\| measured +\| expected +\| ratio +\| verdict"; do
  grep -qE -- "$pattern" <<< "$plan" || { echo "FAIL dry run lacks /$pattern/" >&2; fails=$((fails + 1)); }
done
exit $((fails > 0))
