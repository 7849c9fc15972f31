#!/usr/bin/env bash
# ibburn's verbs transport against perftest's ib_write_bw on real hardware: the same two
# ports, GID, message size, QP count and duration, one direction, run one after the other.
# Prints both rates, the ratio, and the share of the link layer's payload ceiling
# (docs/verbs.md).
#
#   bench/verbs-vs-perftest.sh [-a mlx5_0:1] [-b mlx5_1:1] [-s 8M] [-q 4] [-t 30] [-g GPU] [-x GID]
#
# -a / -b: sending and receiving port (default: the first two active ports in name order;
# on a DGX give them: the first ones can be storage or Ethernet ports; they must reach each
# other through the fabric). -g: GPU memory on both sides (perftest --use_cuda_dmabuf).
# -x: RoCE GID index for both tools (default on RoCE: the RoCE v2 IPv4-mapped entry, which
# must have the same index on both ports). Needs: RDMA hardware, perftest (ib_write_bw),
# mpirun, build/ibburn. Exit: 0 measured, 2 usage, 3 no RDMA device / missing tool.
set -euo pipefail
cd "$(dirname "$0")/.."

port_a="" port_b="" size="8M" qps=4 seconds=30 gpu="" gid=""
while getopts "a:b:s:q:t:g:x:h" opt; do
  case $opt in
    a) port_a=$OPTARG ;; b) port_b=$OPTARG ;; s) size=$OPTARG ;; q) qps=$OPTARG ;;
    t) seconds=$OPTARG ;; g) gpu=$OPTARG ;; x) gid=$OPTARG ;;
    *) sed -n '2,15p' "$0"; exit 2 ;;
  esac
done

die_env() { echo "verbs-vs-perftest: $*" >&2; exit 3; }

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

if ! compgen -G "/sys/class/infiniband/*" > /dev/null; then
  die_env "no RDMA device on this host (/sys/class/infiniband is empty): this benchmark needs real InfiniBand or RoCE hardware with two active ports"
fi
mapfile -t ports < <(active_ports)
[[ -n $port_a ]] || port_a=${ports[0]:-}
[[ -n $port_b ]] || port_b=${ports[1]:-}
[[ -n $port_a && -n $port_b ]] || die_env "need two active RDMA ports, found: ${ports[*]:-none}"
command -v ib_write_bw > /dev/null || die_env "ib_write_bw not found (apt-get install perftest)"
command -v mpirun > /dev/null || die_env "mpirun not found (apt-get install openmpi-bin)"
[[ -x build/ibburn ]] || die_env "build/ibburn not built (cmake --build build)"

bytes=$(numfmt --from=iec "${size%B}")
dev_a=${port_a%%:*} ib_a=${port_a##*:} dev_b=${port_b%%:*} ib_b=${port_b##*:}
link_layer=$(cat /sys/class/infiniband/"$dev_a"/ports/"$ib_a"/link_layer 2>/dev/null || echo InfiniBand)
[[ $link_layer == $(cat /sys/class/infiniband/"$dev_b"/ports/"$ib_b"/link_layer 2>/dev/null || echo InfiniBand) ]] ||
  die_env "$port_a and $port_b have different link layers"
# Payload ceiling per link layer at MTU 4096: IB 26 B of headers per packet, RoCE v2 82 B
# with Ethernet framing (docs/verbs.md).
overhead=26
pt_gid=() ib_gid=()
if [[ $link_layer == Ethernet ]]; then
  overhead=82
  if [[ -z $gid ]]; then
    gid_a=$(roce_v2_gid "$dev_a" "$ib_a") gid_b=$(roce_v2_gid "$dev_b" "$ib_b")
    [[ -n $gid_a && $gid_a == "$gid_b" ]] ||
      die_env "no common RoCE v2 IPv4 GID index on $port_a (${gid_a:-none}) and $port_b (${gid_b:-none}): pass -x"
    gid=$gid_a
  fi
fi
[[ -n $gid ]] && pt_gid=(-x "$gid") ib_gid=(--opt "gid_index=$gid")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- perftest: server on port b, client on port a (TCP handshake over loopback) ---
pt_gpu=()
[[ -n $gpu ]] && pt_gpu=(--use_cuda="$gpu" --use_cuda_dmabuf)
pt_common=(-s "$bytes" -q "$qps" -D "$seconds" -F --report_gbits -m 4096 "${pt_gid[@]}" "${pt_gpu[@]}")
timeout $((seconds + 60)) ib_write_bw -d "$dev_b" -i "$ib_b" "${pt_common[@]}" > "$work/pt-server.txt" 2>&1 &
server=$!
sleep 2
timeout $((seconds + 60)) ib_write_bw -d "$dev_a" -i "$ib_a" "${pt_common[@]}" localhost > "$work/pt-client.txt" 2>&1 ||
  { cat "$work/pt-client.txt" >&2; die_env "ib_write_bw failed"; }
wait "$server" || true
# Result line: "#bytes #iterations BW peak[Gb/sec] BW average[Gb/sec] MsgRate[Mpps]".
perftest_gbps=$(awk -v b="$bytes" '$1 == b && NF >= 5 { print $4 }' "$work/pt-client.txt" | tail -1)
[[ -n $perftest_gbps ]] || { cat "$work/pt-client.txt" >&2; die_env "no bandwidth line in ib_write_bw output"; }

# --- ibburn: rank 0 on port a sends to rank 1 on port b ---
cat > "$work/plan.json" <<JSON
{"version": 1, "name": "verbs-vs-perftest",
 "stages": [{"name": "a to b", "flows": [{"src": 0, "dst": 1, "bidirectional": false}]}]}
JSON
ib_gpu=()
[[ -n $gpu ]] && ib_gpu=(--gpu "$gpu,$gpu")
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
timeout $((seconds + 120)) mpirun -np 2 --oversubscribe build/ibburn burn --plan "$work/plan.json" \
  --transport verbs --bind "$port_a,$port_b" --qps "$qps" --msg-size "$size" \
  --duration "${seconds}s" --out "$work/out" --quiet "${ib_gid[@]}" "${ib_gpu[@]}" > "$work/ibburn.txt" 2>&1 ||
  true  # exit 1 = below threshold, still measured
ibburn_gbps=$(grep -o '"gbps":[0-9.e+-]*' "$work/out/results.jsonl" 2>/dev/null | head -1 | cut -d: -f2)
[[ -n $ibburn_gbps ]] || { cat "$work/ibburn.txt" >&2; die_env "ibburn produced no result"; }

rate=$(cat /sys/class/infiniband/"$dev_a"/ports/"$ib_a"/rate 2>/dev/null || echo "400 Gb/sec (assumed)")
awk -v i="$ibburn_gbps" -v p="$perftest_gbps" -v s="$size" -v q="$qps" -v t="$seconds" -v r="$rate" \
    -v o="$overhead" -v l="$link_layer" -v g="${gid:-none}" '
  BEGIN {
    ceiling = (r + 0) * 4096 / (4096 + o)
    printf "ports %s -> %s (%s, %s, GID index %s), %s messages, %d QPs, %d s\n", "'"$port_a"'", "'"$port_b"'", r, l, g, s, q, t
    printf "ib_write_bw  %8.2f Gb/s\n", p
    printf "ibburn       %8.2f Gb/s\n", i
    printf "ratio ibburn/ib_write_bw = %.3f\n", (p > 0 ? i / p : 0)
    printf "share of the %s payload ceiling (%.1f Gb/s at MTU 4096): %.1f%% (target >= 97%%)\n", l, ceiling, 100 * i / ceiling
  }'
