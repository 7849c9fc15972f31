#!/usr/bin/env bash
# The first run of ibburn's verbs transport on real hardware, as one script a site engineer
# runs on node A of two NDR nodes (docs/verbs.md, "First run on two nodes"). Node B is
# reached by ssh (without a password) and by mpirun. Each check adds one row to the table
# printed at the end: what was measured, what was expected, the ratio, and a verdict.
#
# Usage: scripts/hardware-check.sh --peer NODE_B [options]
#   --peer HOST          node B (required)
#   --device DEV:PORT    the HCA port on node A (default mlx5_0:1)
#   --peer-device D:P    the HCA port on node B (default: the same as --device)
#   --gpu N              also measure from GPU memory (CUDA ordinal N on both nodes)
#   --msg-size SIZE      message size, e.g. 8M (default 8M)
#   --qps N              QPs per flow (default 4)
#   --seconds N          seconds per measurement (default 30)
#   --gid N              RoCE GID index (default: the RoCE v2 IPv4-mapped entry)
#   --ibburn PATH        the ibburn binary, same path on both nodes (default build/ibburn)
#   --out DIR            keep logs and results here (default: a temporary directory, removed)
#   --no-negative        skip the kill / stop / link-down tests
#   --dry-run            print the commands instead of running them
#   -h, --help           this text
# Pass: ibburn >= 0.97 x ib_write_bw on every shape with no failure and no mismatch, the
# HCA's byte count 1.00-1.02 x ibburn's (headers), no HCA error counter rising, and each
# negative test failing the flow with the expected reason.
# Exit: 0 every check passed (or was skipped), 1 a check failed, 2 usage.
set -uo pipefail

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
die_usage() {
  echo "hardware-check: $*" >&2
  echo "run with --help for the options" >&2
  exit 2
}

peer="" device="mlx5_0:1" peer_device="" gpu="" size="8M" qps=4 seconds=30 gid="" ibburn="build/ibburn"
out="" negative=1 dry_run=0
while [[ $# -gt 0 ]]; do
  case $1 in
    -h | --help) usage; exit 0 ;;
    --no-negative) negative=0; shift; continue ;;
    --dry-run) dry_run=1; shift; continue ;;
    --peer | --device | --peer-device | --gpu | --msg-size | --qps | --seconds | --gid | --ibburn | --out)
      [[ $# -ge 2 ]] || die_usage "$1 needs a value" ;;
    *) die_usage "unknown option $1" ;;
  esac
  case $1 in
    --peer) peer=$2 ;; --device) device=$2 ;; --peer-device) peer_device=$2 ;; --gpu) gpu=$2 ;;
    --msg-size) size=$2 ;; --qps) qps=$2 ;; --seconds) seconds=$2 ;; --gid) gid=$2 ;;
    --ibburn) ibburn=$2 ;; --out) out=$2 ;;
  esac
  shift 2
done

[[ -n $peer ]] || die_usage "--peer is required (node B's host name)"
peer_device=${peer_device:-$device}
for p in "$device" "$peer_device"; do
  [[ $p =~ ^[A-Za-z0-9_.-]+:[0-9]+$ ]] || die_usage "'$p' is not DEV:PORT, e.g. mlx5_0:1"
done
[[ $qps =~ ^[1-9][0-9]*$ ]] || die_usage "--qps $qps: expected a positive integer"
[[ $seconds =~ ^[1-9][0-9]*$ ]] || die_usage "--seconds $seconds: expected a positive integer"
[[ $size =~ ^[1-9][0-9]*[KMG]?$ ]] || die_usage "--msg-size $size: expected a size such as 8M"
[[ -z $gpu || $gpu =~ ^[0-9]+$ ]] || die_usage "--gpu $gpu: expected a CUDA ordinal"
[[ -z $gid || $gid =~ ^[0-9]+$ ]] || die_usage "--gid $gid: expected an index"

dev_a=${device%%:*} port_a=${device##*:} dev_b=${peer_device%%:*} port_b=${peer_device##*:}
bytes=$(numfmt --from=iec "$size")
node_a=$(hostname -s)
if [[ -n $out ]]; then
  work=$out
  mkdir -p "$work"
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# --- the table ---
rows=()
failed=0
# row CHECK MEASURED EXPECTED RATIO VERDICT
row() {
  rows+=("$1|$2|$3|$4|$5")
  [[ $5 == FAIL ]] && failed=1
  printf '  %-30s %s\n' "$1" "$5" >&2
}
print_table() {
  printf '\n%-30s | %-28s | %-22s | %-6s | %s\n' check measured expected ratio verdict
  printf '%s\n' "------------------------------------------------------------------------------------------------------"
  local r
  for r in "${rows[@]}"; do
    IFS='|' read -r c m e q v <<< "$r"
    printf '%-30s | %-28s | %-22s | %-6s | %s\n' "$c" "$m" "$e" "$q" "$v"
  done
}

# --- running things: on node A, on node B, or only printed with --dry-run (on fd 3, the
# terminal, even where a command's output goes to a log) ---
exec 3>&2
on_a() {
  if ((dry_run)); then echo "+ [$node_a] $*" >&3; return 0; fi
  bash -c "$*"
}
on_b() {
  if ((dry_run)); then echo "+ [$peer] $*" >&3; return 0; fi
  ssh -o BatchMode=yes "$peer" "$*"
}
sysfs_port() { echo "/sys/class/infiniband/$1/ports/$2"; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "-" }'; }
at_least() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

# Sums the "gbps" and "bytes" of every direction of stage $2 in results file $1 and lists
# the failure reasons, verify mismatches and lost ranks: "GBPS BYTES REASONS".
stage_result() {
  python3 - "$1" "$2" << 'PY'
import json, sys
gbps = nbytes = 0.0
reasons = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r.get("type") == "rank_lost":
        reasons.append("rank_lost: " + r.get("reason", ""))
    if r.get("type") != "stage" or r.get("name") != sys.argv[2]:
        continue
    for f in r["flows"]:
        for d in f["directions"]:
            gbps += d.get("gbps", 0)
            nbytes += d.get("bytes", 0)
            if d.get("status") != "ok":
                reasons.append(d.get("status", "") + ": " + d.get("reason", ""))
            if d.get("mismatches", 0):
                reasons.append(f"{d['mismatches']} mismatched words")
print(f"{gbps:.2f} {nbytes:.0f} {' / '.join(reasons) or '-'}")
PY
}

# --- 0. preconditions, on both nodes ---
echo "hardware-check: $node_a $device <-> $peer $peer_device, $size x $qps QPs, $seconds s" >&2
link_layer=InfiniBand
for side in a b; do
  if [[ $side == a ]]; then run=on_a node=$node_a dev=$dev_a port=$port_a; else run=on_b node=$peer dev=$dev_b port=$port_b; fi
  dir=$(sysfs_port "$dev" "$port")
  state=$($run "cat $dir/state $dir/link_layer $dir/rate 2> /dev/null | tr '\n' ' '")
  if ((dry_run)); then row "$node $dev:$port state" "-" "ACTIVE" "-" DRY; continue; fi
  [[ $side == a && $state == *Ethernet* ]] && link_layer=Ethernet
  if [[ $state == *ACTIVE* ]]; then row "$node $dev:$port state" "${state#*: }" "ACTIVE" "-" PASS
  else row "$node $dev:$port state" "${state:-unreadable}" "ACTIVE" "-" FAIL; fi
  pages=$($run "n=\$(cat /sys/class/infiniband/$dev/device/numa_node); cat /sys/devices/system/node/node\$n/hugepages/hugepages-2048kB/free_hugepages; cat /sys/kernel/mm/transparent_hugepage/enabled" | tr '\n' ' ')
  row "$node huge pages, THP" "${pages:-unreadable}" "free 2 MiB pages, THP" "-" INFO
  if [[ -n $gpu ]]; then
    gd=$($run "lsmod | grep -qE '^(nvidia_peermem|nv_peer_mem)' && echo peermem; modinfo -F license nvidia 2> /dev/null | grep -q 'Dual MIT/GPL' && echo open-module" | tr '\n' ' ')
    if [[ -n $gd ]]; then row "$node GPUDirect path" "$gd" "peermem or open module" "-" PASS
    else row "$node GPUDirect path" "none" "peermem or open module" "-" FAIL; fi
    $run "nvidia-smi topo -m" > "$work/topo-$node.txt" 2>&1
    row "$node GPU<->HCA topology" "$work/topo-$node.txt" "PIX or PXB" "-" INFO
  fi
  if $run "$ibburn host check" > "$work/host-check-$node.txt" 2>&1; then row "$node ibburn host check" "ready" "no findings" "-" PASS
  else row "$node ibburn host check" "findings: $work/host-check-$node.txt" "no findings" "-" FAIL; fi
done
limits=$(on_a "mpirun -np 2 -H $node_a:1,$peer:1 bash -c 'ulimit -l'" | sort -u | tr '\n' ' ')
if ((dry_run)); then row "ulimit -l under mpirun" "-" "unlimited" "-" DRY
elif [[ $limits == "unlimited " ]]; then row "ulimit -l under mpirun" "unlimited" "unlimited" "-" PASS
else row "ulimit -l under mpirun" "${limits:-?} KiB" "unlimited" "-" FAIL; fi

# --- RoCE: the GID both tools use ---
roce_gid() {
  local dir
  dir=$(sysfs_port "$1" "$2")
  "$3" "for i in \$(ls $dir/gids | sort -n); do [ \"\$(cat $dir/gid_attrs/types/\$i 2> /dev/null)\" = 'RoCE v2' ] || continue; case \$(cat $dir/gids/\$i) in 0000:0000:0000:0000:0000:ffff:*) echo \$i; exit;; esac; done"
}
pt_gid="" ib_gid=""
if [[ $link_layer == Ethernet ]]; then
  if [[ -z $gid ]]; then
    ga=$(roce_gid "$dev_a" "$port_a" on_a) gb=$(roce_gid "$dev_b" "$port_b" on_b)
    if [[ -n $ga && $ga == "$gb" ]]; then gid=$ga; row "RoCE v2 IPv4 GID index" "$ga on both" "same on both" "-" PASS
    else row "RoCE v2 IPv4 GID index" "A ${ga:-none}, B ${gb:-none}" "same on both" "-" FAIL; fi
  fi
fi
[[ -n $gid ]] && pt_gid="-x $gid" ib_gid="--opt gid_index=$gid"

# --- 1, 2. perftest baselines; 3. ibburn on the same shape; 4. counters ---
# perftest on this shape: $1 = extra options (-b, GPU); prints the average Gb/s.
perftest() {
  local common="-d DEV -i PORT -s $bytes -q $qps -D $seconds -F --report_gbits $pt_gid $1"
  on_b "timeout $((seconds + 60)) ib_write_bw ${common//DEV -i PORT/$dev_b -i $port_b}" > "$work/pt-server.txt" 2>&1 &
  local server=$!
  ((dry_run)) || sleep 3
  on_a "timeout $((seconds + 60)) ib_write_bw ${common//DEV -i PORT/$dev_a -i $port_a} $peer" > "$work/pt-client.txt" 2>&1
  wait "$server"
  awk -v b="$bytes" '$1 == b && NF >= 5 { v = $4 } END { print v }' "$work/pt-client.txt"
}

plan() {
  cat > "$work/plan-$1.json" << JSON
{"version": 1, "stages": [{"name": "$1", "flows": [{"src": 0, "dst": 1, "bidirectional": $2}]}]}
JSON
}
plan "a->b" false
plan "a<->b" true

# ibburn on a plan: $1 = stage, $2 = output dir, $3 = extra options. Runs in the background
# when $4 = bg (for the negative tests); returns mpirun's status.
ibburn_run() {
  local cmd="timeout $((seconds + 120)) mpirun -np 2 -H $node_a:1,$peer:1 --map-by node --bind-to none \
--mca pml ob1 --mca btl self,tcp $ibburn burn --transport verbs --plan '$work/plan-$1.json' \
--bind $device --qps $qps --msg-size $size --duration ${seconds}s --out '$2' --quiet $ib_gid $3"
  [[ $device == "$peer_device" ]] || cmd=${cmd/--bind $device/--map '$work/map.txt'}
  printf '0 %s %s\n1 %s %s\n' "$node_a" "$device" "$peer" "$peer_device" > "$work/map.txt"
  if [[ ${4:-} == bg ]]; then on_a "$cmd" > "$2.log" 2>&1 & return 0; fi
  on_a "$cmd" > "$2.log" 2>&1
}

counter() { on_a "cat $(sysfs_port "$dev_a" "$port_a")/$1 2> /dev/null || echo 0"; }
hw_errors="out_of_sequence packet_seq_err local_ack_timeout_err rnr_nak_retry_err duplicate_request implied_nak_seq_err req_cqe_error resp_cqe_error"
hw_sum() {
  local c v s=0
  for c in $hw_errors; do
    v=$(counter "hw_counters/$c")
    s=$((s + ${v:-0}))
  done
  echo $s
}

# One shape: $1 = name, $2 = stage, $3 = perftest options, $4 = ibburn options.
shape() {
  local pt ib bytes_ib reasons xmit0 xmit1 err0 err1 dir
  pt=$(perftest "$3")
  dir="$work/out-$(echo "$1" | tr -c 'a-z0-9' -)"
  xmit0=$(counter counters/port_xmit_data) err0=$(hw_sum)
  ibburn_run "$2" "$dir" "$4"
  xmit1=$(counter counters/port_xmit_data) err1=$(hw_sum)
  if ((dry_run)); then row "$1 ibburn / ib_write_bw" "-" ">= 0.97" "-" DRY; return; fi
  [[ -n $pt ]] || { row "$1 ib_write_bw" "no result ($work/pt-client.txt)" "a rate" "-" FAIL; return; }
  read -r ib bytes_ib reasons < <(stage_result "$dir/results.jsonl" "$2" 2> /dev/null || echo "0 0 no-results")
  local q
  q=$(ratio "$ib" "$pt")
  if [[ $reasons != - ]]; then row "$1 ibburn / ib_write_bw" "$ib vs $pt Gb/s: $reasons" ">= 0.97, no failure" "$q" FAIL
  elif at_least "$q" 0.97; then row "$1 ibburn / ib_write_bw" "$ib vs $pt Gb/s" ">= 0.97" "$q" PASS
  else row "$1 ibburn / ib_write_bw" "$ib vs $pt Gb/s" ">= 0.97" "$q" FAIL; fi
  # port_xmit_data counts 4-byte words, headers included (about 0.6 % at MTU 4096). Only
  # node A's transmit side is compared: on a two-way stage it sent half of ibburn's bytes.
  [[ $2 == "a->b" ]] || return
  local wire=$(((${xmit1:-0} - ${xmit0:-0}) * 4))
  q=$(ratio "$wire" "$bytes_ib")
  if at_least "$q" 1.0 && at_least 1.02 "$q"; then row "$1 HCA bytes / ibburn bytes" "$wire / $bytes_ib" "1.00-1.02" "$q" PASS
  else row "$1 HCA bytes / ibburn bytes" "$wire / $bytes_ib" "1.00-1.02" "$q" FAIL; fi
  if ((err1 == err0)); then row "$1 HCA error counters" "+0" "+0" "-" PASS
  else row "$1 HCA error counters" "+$((err1 - err0)) ($hw_errors)" "+0" "-" FAIL; fi
}

shape "host a->b" "a->b" "" "--host-memory"
shape "host a<->b" "a<->b" "-b" "--host-memory"
if [[ -n $gpu ]]; then
  shape "GPU a->b" "a->b" "--use_cuda=$gpu --use_cuda_dmabuf" "--gpu $gpu,$gpu --verify"
fi

# --- 6. negative tests: kill, stop, local link down ---
# The rank on node B: its pid by the plan path, which only this run uses.
peer_rank() { on_b "pgrep -f -- '$work/plan-$1.json' | head -1"; }
negative_test() {
  local name=$1 expect=$2 dir="$work/out-neg-$1"
  ibburn_run "a->b" "$dir" "--host-memory --stall-timeout 10s" bg
  ((dry_run)) || sleep 8
  shift 2
  "$@"
  ((dry_run)) && { row "negative: $name" "-" "$expect" "-" DRY; return; }
  wait
  local ib bytes_ib reasons
  read -r ib bytes_ib reasons < <(stage_result "$dir/results.jsonl" "a->b" 2> /dev/null || echo "0 0 no-results")
  if [[ $reasons =~ $expect ]]; then row "negative: $name" "${reasons:0:60}" "$expect" "-" PASS
  else row "negative: $name" "${reasons:0:60}" "$expect" "-" FAIL; fi
}
kill_peer() { on_b "kill -9 \$(pgrep -f -- '$work/plan-a->b.json' | head -1)"; }
stop_peer() {
  on_b "kill -STOP \$(pgrep -f -- '$work/plan-a->b.json' | head -1)"
  ((dry_run)) || sleep 15
  on_b "kill -CONT \$(pgrep -f -- '$work/plan-a->b.json' | head -1)"
}
netdev=$(on_a "ls /sys/class/infiniband/$dev_a/device/net 2> /dev/null | head -1")
link_flap() {
  on_a "ip link set $netdev down; sleep 2; ip link set $netdev up"
}
if ((negative)); then
  negative_test kill "unreachable|rank_lost" kill_peer
  negative_test stop "no data" stop_peer
  if [[ $link_layer == Ethernet && -n $netdev ]]; then
    negative_test "local link down" "local port $dev_a:$port_a" link_flap
  else
    row "negative: local link down" "not automated on IB" "local port $dev_a:$port_a" "-" SKIP
    echo "  local link down on InfiniBand: disable the switch port facing $node_a for 2 s during a run" \
      "(ibportstate <switch LID> <port> disable / enable) and check that the reason names local port $device" >&2
  fi
fi

print_table
exit $failed
