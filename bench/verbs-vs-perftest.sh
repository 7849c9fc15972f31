#!/usr/bin/env bash
# ibburn's verbs transport against perftest's ib_write_bw: the same two ports, GID, message
# size, QP count and duration, one direction, host or GPU memory on both, run one after the
# other. Prints both rates, the ratio, and on hardware the share of the link layer's payload
# ceiling (docs/verbs.md).
#
#   bench/verbs-vs-perftest.sh [-V DIR] [-i IBBURN] [-r ROUNDS] [-a mlx5_0:1] [-b mlx5_1:1] [-s 8M] [-q 4] [-t 30] [-g GPU] [-x GID]
#
# -a / -b: sending and receiving port (default: the first two active ports in name order;
# on a DGX give them: the first ones can be storage or Ethernet ports; they must reach each
# other through the fabric). -g: GPU memory on both sides (perftest --use_cuda_dmabuf);
# without it both send from host memory. -x: RoCE GID index for both tools (default on RoCE:
# the RoCE v2 IPv4-mapped entry, which must have the same index on both ports). -i: the
# ibburn binary (default build/ibburn). -r: rounds, each tool once per round in turn; the
# medians are compared (default 1, 3 with -V).
# -V DIR: on the soft-RoCE guests of `scripts/rdma-vm up -n 2 --dir DIR` (docs/verbs.md,
# "Soft-RoCE in VMs"): port a on vm01, port b on vm02 (default: each one's first active port),
# ib_write_bw's server on vm02 and client on vm01, ibburn launched from vm01 with `mpirun -H
# vm01,vm02`; defaults -s 64K -t 15, host memory only. The guests' CPU is emulated (TCG), so
# only the ratio means anything (issue #44: >= 0.9), not the rate against the port's.
# Needs: RDMA hardware or DIR's guests, perftest (ib_write_bw), mpirun, the ibburn binary.
# Exit: 0 measured, 2 usage, 3 no RDMA device / missing tool.
set -euo pipefail
cd "$(dirname "$0")/.."

port_a="" port_b="" size="" qps=4 seconds="" gpu="" gid="" vm="" ibburn=build/ibburn rounds=""
while getopts "V:i:r:a:b:s:q:t:g:x:h" opt; do
  case $opt in
    V) vm=$OPTARG ;; i) ibburn=$OPTARG ;; r) rounds=$OPTARG ;;
    a) port_a=$OPTARG ;; b) port_b=$OPTARG ;; s) size=$OPTARG ;; q) qps=$OPTARG ;;
    t) seconds=$OPTARG ;; g) gpu=$OPTARG ;; x) gid=$OPTARG ;;
    *) sed -n '2,22p' "$0"; exit 2 ;;
  esac
done
if [[ -n $vm ]]; then
  [[ -z $gpu ]] || { echo "verbs-vs-perftest: -g: the guests have no GPU" >&2; exit 2; }
  vm=$(realpath -m "$vm")
  : "${size:=64K}" "${seconds:=15}" "${rounds:=3}"  # 1 MiB messages signal progress only every few seconds there
else
  : "${size:=8M}" "${seconds:=30}" "${rounds:=1}"
fi

die_env() { echo "verbs-vs-perftest: $*" >&2; exit 3; }

# on a|b CMD...: CMD on the host of port a or b (this machine, or guest vm01 / vm02).
on() {
  local side=$1
  shift
  if [[ -n $vm ]]; then
    scripts/rdma-vm exec --dir "$vm" "$([[ $side == a ]] && echo 1 || echo 2)" -- "$@" < /dev/null
  else
    "$@"
  fi
}
# on_fn a|b FUNCTION ARGS...: one of this script's functions, there.
on_fn() {
  local side=$1 fn=$2
  shift 2
  on "$side" bash -c "$(declare -f "$fn"); $fn \"\$@\"" "$fn" "$@"
}

active_ports() {
  local p
  for p in /sys/class/infiniband/*/ports/*; do
    [[ -r $p/state ]] || continue
    if grep -q ACTIVE "$p/state"; then
      echo "$(basename "$(dirname "$(dirname "$p")")"):$(basename "$p")"
    fi
  done | sort -V  # mlx5_2 before mlx5_10, as the devices are numbered
}

# The RoCE v2 GID index with an IPv4-mapped address of DEV:PORT (the entry perftest and NCCL prefer).
roce_v2_gid() {
  local dir=/sys/class/infiniband/$1/ports/$2 i
  for i in $(ls "$dir/gids" 2>/dev/null | sort -n); do
    [[ $(cat "$dir/gid_attrs/types/$i" 2>/dev/null) == "RoCE v2" ]] || continue
    [[ $(cat "$dir/gids/$i") == 0000:0000:0000:0000:0000:ffff:* ]] && { echo "$i"; return; }
  done
}

# wait_listening PORT: until a TCP socket listens on PORT here (perftest's server), at most 60 s.
wait_listening() {
  local i
  for i in $(seq 120); do
    ss -Hltn "sport = :$1" | grep -q . && return 0
    sleep 0.5
  done
  return 1
}

# The guests run this machine's root: the tools found here are theirs.
command -v ib_write_bw > /dev/null || die_env "ib_write_bw not found (apt-get install perftest)"
command -v mpirun > /dev/null || die_env "mpirun not found (apt-get install openmpi-bin)"
[[ -x $ibburn ]] || die_env "$ibburn not built (cmake --build build)"
if [[ -n $vm ]]; then
  [[ -f $vm/guest.env ]] || die_env "no rdma-vm cluster in $vm (scripts/rdma-vm up -n 2 --dir $vm)"
  grep -q 'RDMA_VM_HOSTS=vm01,vm02' "$vm/guest.env" || die_env "$vm has fewer than two guests (up -n 2)"
  mapfile -t ports < <(on_fn a active_ports)
  [[ -n $port_a ]] || port_a=${ports[0]:-}
  mapfile -t ports < <(on_fn b active_ports)
  [[ -n $port_b ]] || port_b=${ports[0]:-}
  [[ -n $port_a && -n $port_b ]] || die_env "need an active RDMA port on vm01 (${port_a:-none}) and vm02 (${port_b:-none})"
  server=vm02 host_a="vm01 " host_b="vm02 "
else
  if ! compgen -G "/sys/class/infiniband/*" > /dev/null; then
    die_env "no RDMA device on this host (/sys/class/infiniband is empty): this benchmark needs real InfiniBand or RoCE hardware with two active ports"
  fi
  mapfile -t ports < <(active_ports)
  [[ -n $port_a ]] || port_a=${ports[0]:-}
  [[ -n $port_b ]] || port_b=${ports[1]:-}
  [[ -n $port_a && -n $port_b ]] || die_env "need two active RDMA ports, found: ${ports[*]:-none}"
  server=localhost host_a="" host_b=""
fi

bytes=$(numfmt --from=iec "${size%B}")
dev_a=${port_a%%:*} ib_a=${port_a##*:} dev_b=${port_b%%:*} ib_b=${port_b##*:}
sys_a=/sys/class/infiniband/$dev_a/ports/$ib_a sys_b=/sys/class/infiniband/$dev_b/ports/$ib_b
link_layer=$(on a cat "$sys_a/link_layer" 2>/dev/null || echo InfiniBand)
[[ $link_layer == $(on b cat "$sys_b/link_layer" 2>/dev/null || echo InfiniBand) ]] ||
  die_env "$host_a$port_a and $host_b$port_b have different link layers"
# Payload ceiling per link layer at MTU 4096: IB 26 B of headers per packet, RoCE v2 82 B
# with Ethernet framing (docs/verbs.md).
overhead=26
pt_gid=() ib_gid=()
if [[ $link_layer == Ethernet ]]; then
  overhead=82
  if [[ -z $gid ]]; then
    gid_a=$(on_fn a roce_v2_gid "$dev_a" "$ib_a") gid_b=$(on_fn b roce_v2_gid "$dev_b" "$ib_b")
    [[ -n $gid_a && $gid_a == "$gid_b" ]] ||
      die_env "no common RoCE v2 IPv4 GID index on $host_a$port_a (${gid_a:-none}) and $host_b$port_b (${gid_b:-none}): pass -x"
    gid=$gid_a
  fi
fi
[[ -n $gid ]] && pt_gid=(-x "$gid") ib_gid=(--opt "gid_index=$gid")
# In DIR, which the guests mount read-write at the same path (their /tmp is their own).
work=$(mktemp -d "${vm:-${TMPDIR:-/tmp}}/verbs-vs-perftest.XXXXXX")
trap 'rm -rf "$work"' EXIT

# --- perftest: server on port b, client on port a (TCP handshake over loopback / ctl) ---
pt_gpu=()
[[ -n $gpu ]] && pt_gpu=(--use_cuda="$gpu" --use_cuda_dmabuf)
pt_common=(-s "$bytes" -q "$qps" -D "$seconds" -F --report_gbits -m 4096 -p 18515 "${pt_gid[@]}" "${pt_gpu[@]}")
run_perftest() {  # prints ib_write_bw's average Gb/s
  on b timeout $((seconds + 60)) ib_write_bw -d "$dev_b" -i "$ib_b" "${pt_common[@]}" > "$work/pt-server.txt" 2>&1 &
  local server_pid=$!
  on_fn b wait_listening 18515 || { cat "$work/pt-server.txt" >&2; die_env "ib_write_bw's server did not listen"; }
  on a timeout $((seconds + 60)) ib_write_bw -d "$dev_a" -i "$ib_a" "${pt_common[@]}" "$server" > "$work/pt-client.txt" 2>&1 ||
    { cat "$work/pt-client.txt" >&2; die_env "ib_write_bw failed"; }
  wait "$server_pid" || true
  # Result line: "#bytes #iterations BW peak[Gb/sec] BW average[Gb/sec] MsgRate[Mpps]". The
  # average from the message rate: the Gb/s column has 2 decimals, too coarse below 1 Gb/s.
  local gbps
  gbps=$(awk -v b="$bytes" '$1 == b && NF >= 5 { printf "%.6g\n", $5 * b * 8 / 1000 }' "$work/pt-client.txt" | tail -1)
  [[ -n $gbps ]] || { cat "$work/pt-client.txt" >&2; die_env "no bandwidth line in ib_write_bw output"; }
  echo "$gbps"
}

# --- ibburn: rank 0 on port a sends to rank 1 on port b ---
cat > "$work/plan.json" <<JSON
{"version": 1, "name": "verbs-vs-perftest",
 "stages": [{"name": "a to b", "flows": [{"src": 0, "dst": 1, "bidirectional": false}]}]}
JSON
ib_mem=(--host-memory)
[[ -n $gpu ]] && ib_mem=(--gpu "$gpu,$gpu")
if [[ -n $vm ]]; then
  # A copy in DIR: the guests cannot see this machine's /tmp, and a binary rebuilt under
  # running guests crashes them. Judged at 0.01 of the rxe port's rate: the emulation is slow.
  cp "$ibburn" "$work/ibburn"
  printf 'vm01 0 %s\nvm02 0 %s\n' "$port_a" "$port_b" > "$work/ranks.map"
  launch=(on a timeout $((seconds + 240)) mpirun -H "vm01,vm02" -np 2 "$work/ibburn")
  ib_place=(--map "$work/ranks.map" --threshold 0.01)
else
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  launch=(timeout $((seconds + 120)) mpirun -np 2 --oversubscribe "$ibburn")
  ib_place=(--bind "$port_a,$port_b")
fi
run_ibburn() {  # prints the flow's Gb/s
  rm -rf "$work/out"
  "${launch[@]}" burn --plan "$work/plan.json" --transport verbs "${ib_place[@]}" --qps "$qps" --msg-size "$size" \
    --duration "${seconds}s" --out "$work/out" --quiet "${ib_gid[@]}" "${ib_mem[@]}" > "$work/ibburn.txt" 2>&1 ||
    true  # exit 1 = below threshold, still measured
  local gbps
  gbps=$(grep -o '"gbps":[0-9.e+-]*' "$work/out/results.jsonl" 2>/dev/null | head -1 | cut -d: -f2)
  [[ -n $gbps ]] || { cat "$work/ibburn.txt" >&2; die_env "ibburn produced no result"; }
  echo "$gbps"
}

# Alternating rounds, so that drift in the machine (another guest's load, the emulator's
# caches) falls on both tools alike; the medians are compared.
pt_all=() ib_all=()
for ((round = 1; round <= rounds; round++)); do
  pt_all+=("$(run_perftest)")
  ib_all+=("$(run_ibburn)")
  echo "round $round: ib_write_bw ${pt_all[-1]} Gb/s, ibburn ${ib_all[-1]} Gb/s" >&2
done
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
perftest_gbps=$(median "${pt_all[@]}") ibburn_gbps=$(median "${ib_all[@]}")

rate=$(on a cat "$sys_a/rate" 2>/dev/null || echo "400 Gb/sec (assumed)")
awk -v i="$ibburn_gbps" -v p="$perftest_gbps" -v s="$size" -v q="$qps" -v t="$seconds" -v r="$rate" \
    -v o="$overhead" -v l="$link_layer" -v g="${gid:-none}" -v a="$host_a$port_a" -v b="$host_b$port_b" \
    -v vm="$vm" -v n="$rounds" '
  BEGIN {
    ceiling = (r + 0) * 4096 / (4096 + o)
    printf "ports %s -> %s (%s, %s, GID index %s), %s messages, %d QPs, %d s\n", a, b, r, l, g, s, q, t
    printf "ib_write_bw  %8.3f Gb/s (median of %d)\n", p, n
    printf "ibburn       %8.3f Gb/s (median of %d)\n", i, n
    printf "ratio ibburn/ib_write_bw = %.3f (target >= %s)\n", (p > 0 ? i / p : 0), (vm != "" ? "0.9" : "0.97")
    if (vm != "")
      print "emulated CPU (QEMU TCG guests, soft-RoCE): a comparison of the two tools, not a line rate"
    else
      printf "share of the %s payload ceiling (%.1f Gb/s at MTU 4096): %.1f%% (target >= 97%%)\n", l, ceiling, 100 * i / ceiling
  }'
