#!/usr/bin/env bash
# The verbs burn on a real kernel RDMA stack: soft-RoCE (rdma_rxe) in the QEMU guests of
# scripts/rdma-vm (tests/rxe/CMakeLists.txt boots them once, as a ctest fixture). Ranks are
# launched as on a site: mpirun in guest 1, ssh to the others.
#
#   rxe_cases.sh CASE SRC_DIR CLUSTER_DIR IBBURN
#
# Messages are 64 KiB: the emulated CPU moves ~0.1 Gb/s, so 1 MiB messages (the default, sized
# for 400 Gb/s) would show progress only every few seconds. Flows are judged against the rxe
# port's rate (1X SDR: 2 Gb/s of data); the emulation reaches ~3% of it, so the burns that
# must pass use --threshold 0.01, and `slow_against_port_rate` proves the default threshold
# judges them against that rate.
set -uo pipefail
case=$1 src=$2 ibburn=$4
export RDMA_VM_DIR=$3
cd "$src" || exit 1
out=$RDMA_VM_DIR/out/$case
rm -rf "$out" && mkdir -p "$out"
vm() { scripts/rdma-vm exec "$@"; }
fail() {
  echo "FAIL ($case): $*" >&2
  exit 1
}
burn() {  # burn OUT_DIR ARGS...: mpirun over both guests; prints the rank output, returns its status
  local o=$1
  shift
  vm 1 -- timeout 240 mpirun -H vm01,vm02 -np 2 $ibburn burn --transport verbs --host-memory \
    --msg-size 64K --quiet --out "$o" "$@"
}
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

case $case in
  burn)
    # Both directions of the pair, patterned data checked, per-second samples, exit 0.
    burn "$out/r" --verify --duration 8s --threshold 0.01 > "$out/log" 2>&1 || { cat "$out/log"; fail "burn exited $?"; }
    grep -q "GID 1 RoCE v2" "$out/log" || fail "no RoCE v2 GID line: $(cat "$out/log")"
    python3 - "$out/r" <<'EOF' || fail "results"
import json, sys
d = sys.argv[1]
s = json.load(open(d + "/summary.json"))
assert s["complete"], s
flows = s["flows"]
assert len(flows) == 2 and {(f["from"], f["to"]) for f in flows} == {(0, 1), (1, 0)}, flows
for f in flows:
    assert f["verdict"] == "pass" and f["gbps"] > 0.005, f
    assert abs(f["expected_gbps"] - 2.0) < 1e-9, f  # the rxe port's 1X SDR data rate, not 400
lines = [json.loads(l) for l in open(d + "/results.jsonl")]
run = lines[0]
assert run["transport"] == "verbs" and run["verify"], run
for e in run["endpoints"]:
    assert e["link_layer"] == "Ethernet" and e["address"].startswith("::ffff:10.77.0."), e
stage = [l for l in lines if l["type"] == "stage"][0]
for dr in stage["flows"][0]["directions"]:
    assert dr["status"] == "ok" and dr["mismatches"] == 0 and dr["errors"] == 0, dr
    # Per-second samples; under emulation a second can pass with no signalled completion.
    samples = dr["samples_gbps"]
    assert len(samples) >= 6 and sum(1 for g in samples if g > 0) >= len(samples) // 2, dr
EOF
    ;;
  slow_against_port_rate)
    # The default threshold (0.9 of the port's rate): the emulated flows are slow, by name.
    burn "$out/r" --duration 4s > "$out/log" 2>&1
    rc=$?
    [ "$rc" = 1 ] || { cat "$out/log"; fail "expected exit 1 (slow), got $rc"; }
    [ "$(json "$out/r/summary.json" 'sorted({f["verdict"] for f in d["flows"]})')" = "['slow']" ] ||
      fail "flows not slow: $(cat "$out/r/summary.json")"
    ;;
  gid_option)
    # GID 0 is the link-local RoCE v2 entry: chosen by option, it is the one the message names.
    burn "$out/r" --duration 3s --threshold 0.01 --opt gid_index=0 > "$out/log" 2>&1 || true
    grep -q "GID 0" "$out/log" || fail "--opt gid_index=0 not reported: $(cat "$out/log")"
    ;;
  peer_killed)
    # Rank 1's process killed mid-stage: its flows fail, named by host and port; results written.
    burn "$out/r" --duration 20s --threshold 0.01 > "$out/log" 2>&1 &
    pid=$!
    sleep 12
    vm 2 -- pkill -KILL -f "$ibburn burn" || fail "no ibburn on vm02 to kill"
    wait "$pid"
    rc=$?
    [ "$rc" != 0 ] || fail "burn exited 0 with a killed peer"
    [ -f "$out/r/summary.json" ] || [ -f "$out/r/results.jsonl" ] || { cat "$out/log"; fail "no results written"; }
    grep -q "vm02" "$out/log" || fail "vm02 not named: $(cat "$out/log")"
    ;;
  memlock)
    # Locked-memory limit too small for the buffers: exit 3 and a message naming the limit.
    # Root has CAP_IPC_LOCK, which lifts the limit: drop it, as a site's non-root user lacks it.
    vm 1 -- bash -c "ulimit -l 64 && timeout 120 setpriv --bounding-set -ipc_lock --inh-caps -ipc_lock mpirun -H vm01,vm01 -np 2 --oversubscribe $ibburn burn --transport verbs --host-memory --duration 3s --out $out/r" > "$out/log" 2>&1
    rc=$?
    # Today: exit 1, every flow failed with the limit and the size in its reason (the issue
    # asks for 3, which the burn gives only when no transport starts: docs/verbs.md).
    [ "$rc" = 1 ] || { cat "$out/log"; fail "expected exit 1, got $rc"; }
    grep -q "ibv_reg_mr of [0-9]* bytes failed: .*RLIMIT_MEMLOCK is 64 KiB (ulimit -l)" "$out/log" ||
      fail "no message naming the limit and the size: $(cat "$out/log")"
    [ "$(json "$out/r/summary.json" 'len(d["flows"])')" = 2 ] || fail "summary.json lacks the failed flows"
    ;;
  host_check)
    # The guest's real /sys/class/infiniband: the rxe device, its port and link layer, no error.
    vm 1 -- $ibburn host check > "$out/log" 2>&1
    rc=$?
    grep -q "rxe0" "$out/log" || fail "rxe0 not in host check: $(cat "$out/log")"
    [ "$rc" = 0 ] || { cat "$out/log"; fail "host check exited $rc on a soft-RoCE host"; }
    ;;
  *)
    echo "rxe_cases.sh: unknown case $case" >&2
    exit 2
    ;;
esac
echo "ok ($case)"
