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
# judges them against that rate. Emulation also drops packets inside the guests (rxe resends
# ~0.5% of them: rcvd_seq_err, duplicate_request), which a real lossless fabric never does:
# --max-retry-rate 0.05 lets the healthy burns pass while a failure counter still counts.
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
burn() {  # burn OUT_DIR ARGS...: mpirun over both guests (`ibburn $command`, burn unless set); returns its status
  local o=$1
  shift
  vm 1 -- timeout 240 mpirun -H vm01,vm02 -np 2 $ibburn ${command:-burn} --transport verbs --host-memory \
    --msg-size 64K --max-retry-rate 0.05 --quiet --out "$o" "$@"
}
rcvd_pkts() { vm "$1" -- cat /sys/class/infiniband/rxe0/ports/1/hw_counters/rcvd_pkts; }
wait_traffic() {  # wait_traffic I BASE: until guest I's rxe0 received 3000 packets past BASE (60 s at most)
  for _ in $(seq 120); do
    (( $(rcvd_pkts "$1") > $2 + 3000 )) && return 0
    sleep 0.5
  done
  fail "no traffic reached vm0$1"
}
restore_nic() {  # restore_nic I: data0 up and rxe0's RoCE v2 GID back (index 1), at most 30 s
  vm "$1" -- bash -c 'ip link set dev data0 up; for i in $(seq 60); do
    grep -q ACTIVE /sys/class/infiniband/rxe0/ports/1/state && grep -q "^0000:0000:0000:0000:0000:ffff" /sys/class/infiniband/rxe0/ports/1/gids/1 && exit 0
    sleep 0.5; done; exit 1' || fail "vm0$1's rxe0 did not come back"
}
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
nic_down_burn() {  # nic_down_burn: a 20 s burn into $out/r with vm02's data NIC set down mid-stage, then
  # back up; sets rc to the burn's status
  local base pid
  base=$(rcvd_pkts 2)
  burn "$out/r" --duration 20s --threshold 0.01 > "$out/log" 2>&1 &
  pid=$!
  wait_traffic 2 "$base"
  vm 2 -- ip link set dev data0 down || fail "cannot set data0 down on vm02"
  wait "$pid"
  rc=$?
  restore_nic 2
}

case $case in
  burn)
    # Both directions of the pair, patterned data checked, per-second samples, exit 0.
    burn "$out/r" --verify --duration 8s --threshold 0.01 > "$out/log" 2>&1 || { cat "$out/log"; fail "burn exited $?"; }
    grep -q "GID 1 RoCE v2" "$out/log" || fail "no RoCE v2 GID line: $(cat "$out/log")"
    # The path MTU is the ports' active MTU, as libibverbs' own tool reads it in the guest.
    mtu=$(vm 1 -- ibv_devinfo -d rxe0 | awk '$1 == "active_mtu:" { print $2 }')
    [ -n "$mtu" ] && grep -q "verbs rxe0:1, GID 1 RoCE v2, active MTU $mtu " "$out/log" ||
      fail "active MTU ${mtu:-?} (ibv_devinfo) not the one used: $(cat "$out/log")"
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
  nic_down)
    # vm02's data NIC set down mid-stage: its port's error event, the flows failed, a finding
    # naming vm02's port; the NIC is brought back for the cases after this one.
    nic_down_burn
    [ "$rc" = 1 ] || { cat "$out/log"; fail "expected exit 1 (findings), got $rc"; }
    python3 - "$out/r" <<'EOF' || { cat "$out/log"; fail "results"; }
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
assert "failed" in {f["verdict"] for f in s["flows"]}, s["flows"]
vm02 = [e for e in s["endpoints"] if e.get("host") == "vm02"][0]
assert vm02["verdict"] == "failed" and vm02["endpoint"] == "rxe0:1", vm02
assert vm02["port_counters"]["link_downed"] >= 1, vm02  # the kernel's count of it
EOF
    grep -q "vm02 rxe0:1: .*link_downed +[1-9]" "$out/log" || fail "no finding naming vm02's port going down: $(cat "$out/log")"
    ;;
  loss)
    # Every packet vm01 sends to vm02 dropped mid-stage (netem): the retry-exceeded
    # completion fails the flows as a finding, and the burn ends on time.
    # The qdisc is in place before the traffic and only changed under it: replacing a qdisc
    # while rxe has packets queued on it crashes Debian's 6.1 kernel (rxe_skb_tx_dtor).
    vm 1 -- tc qdisc add dev data0 root netem loss 0% || fail "cannot add netem on vm01"
    # An ACK timeout of 268 ms (--opt timeout=16; the default's 1.07 s x 8 tries outlasts the
    # stage) and 6 retries (rxe, unlike an HCA, reads retry_cnt 7 as "retry forever", as the
    # spec has it for RNR only) fail the flows about 2 s after the loss begins. The stage is
    # 30 s: on a busy host the guests run slower and the loss begins later in it, and a stage
    # that ends while the QPs still retry flushes them before the retries are exhausted.
    base=$(rcvd_pkts 2)
    burn "$out/r" --duration 30s --threshold 0.01 --opt timeout=16 --opt retry_cnt=6 > "$out/log" 2>&1 &
    pid=$!
    wait_traffic 2 "$base"
    vm 1 -- tc qdisc change dev data0 root netem loss 100% || fail "cannot change netem on vm01"
    wait "$pid"
    rc=$?
    vm 1 -- tc qdisc change dev data0 root netem loss 0%
    vm 1 -- tc qdisc del dev data0 root
    [ "$rc" = 1 ] || { cat "$out/log"; fail "expected exit 1 (findings), got $rc"; }
    python3 - "$out/r" <<'EOF' || { cat "$out/log"; fail "results"; }
import json, sys
s = json.load(open(sys.argv[1] + "/summary.json"))
assert s["complete"], s
failed = [f for f in s["flows"] if f["verdict"] == "failed"]
assert failed, s["flows"]
assert any("retr" in f.get("reason", "") for f in failed), failed
assert any(e["port_counters"].get("retry_exceeded_err", 0) > 0 for e in s["endpoints"]), s["endpoints"]
EOF
    grep -q "rxe0:1: the port's own counters during the burn: .*retry_exceeded_err +[1-9]" "$out/log" ||
      fail "no finding naming retry_exceeded_err: $(cat "$out/log")"
    ;;
  memlock)
    # Locked-memory limit too small for the buffers: exit 3 and a message naming the limit.
    # Root has CAP_IPC_LOCK, which lifts the limit: drop it, as a site's non-root user lacks it.
    vm 1 -- bash -c "ulimit -l 64 && timeout 120 setpriv --bounding-set -ipc_lock --inh-caps -ipc_lock mpirun -H vm01,vm01 -np 2 --oversubscribe $ibburn burn --transport verbs --host-memory --duration 3s --out $out/r" > "$out/log" 2>&1
    rc=$?
    # Every flow failed on the hosts' environment, none reached the fabric: exit 3, not 1.
    [ "$rc" = 3 ] || { cat "$out/log"; fail "expected exit 3, got $rc"; }
    grep -q "no flow could run on these hosts" "$out/log" || fail "no environment conclusion: $(cat "$out/log")"
    grep -q "ibv_reg_mr of [0-9]* bytes failed: .*RLIMIT_MEMLOCK is 64 KiB (ulimit -l)" "$out/log" ||
      fail "no message naming the limit and the size: $(cat "$out/log")"
    [ "$(json "$out/r/summary.json" 'len(d["flows"])')" = 2 ] || fail "summary.json lacks the failed flows"
    ;;
  run | run_nic_down)
    # The whole job (`ibburn run`) on a RoCE fabric: the steps over the subnet say it has none
    # and are skipped; the burn, verdict, drain.txt, cables.csv and the page as on any fabric.
    # run_nic_down: vm02's NIC set down mid-stage, as in nic_down, drains vm02 and gives
    # cables.csv its host port with no far end (no fabric names the cable).
    command=run
    if [ "$case" = run ]; then
      burn "$out/r" --duration 4s --threshold 0.01 > "$out/log" 2>&1
      rc=$?
      want=0
    else
      nic_down_burn
      want=1
    fi
    [ "$rc" = "$want" ] || { cat "$out/log"; fail "expected exit $want, got $rc"; }
    for f in summary.json results.jsonl drain.txt cables.csv report.html ibburn.prom; do
      [ -f "$out/r/$f" ] || { cat "$out/log"; fail "no $f written"; }
    done
    python3 - "$out/r" "$case" <<'EOF' || { cat "$out/log"; fail "results"; }
import json, sys
d, case = sys.argv[1], sys.argv[2]
s = json.load(open(d + "/summary.json"))
steps = {st["name"]: st["outcome"] for st in s["job"]["steps"]}
assert steps["topo"].startswith("skipped: a RoCE fabric has no subnet management packets"), steps
for name in ("routes", "endpoints", "counters", "price"):
    assert steps[name].startswith("skipped: "), (name, steps)
assert "no fabric to plan over" in steps["plan"] and steps["burn"] in ("ok", "findings"), steps
assert s["complete"] and len(s["flows"]) == 2, s
drain = open(d + "/drain.txt").read()
cables = open(d + "/cables.csv").read().splitlines()
assert cables[0].startswith("a_node,a_port,b_node,b_port"), cables
if case == "run":
    assert s["verdict"] == "pass" and drain == "" and len(cables) == 1, (s.get("findings"), drain, cables)
else:
    # vm02's port went down (its link_downed): vm02 is drained, not its healthy peer vm01.
    assert s["verdict"] == "fail" and drain.startswith("vm02\t") and "vm01" not in drain, drain
    assert any(c.startswith('"vm02 rxe0",1,"",0,') for c in cables[1:]), cables
    assert any("vm02 rxe0" in p["node"] for f in s["findings"] for p in f["ports"]), s["findings"]
EOF
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
