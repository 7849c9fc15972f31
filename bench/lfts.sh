#!/usr/bin/env bash
# Forwarding-table benchmark (docs/benchmarks.md, "Forwarding tables").
# The field-notes fabric (320 switches, 4,088 HCAs, generated) in ibsim with opensm (ftree):
# every switch's linear forwarding table read by ibburn's reader (bench/lft_read_bench, the
# plan::read_forwarding_tables that `plan --fabric live` and `run` use) against `ibroute -n`
# run once per switch (how a site reads them all today), alternating, REPS times each.
# Checks that both read the same tables, then prints the best (and median) wall and CPU
# times and their ratio, and the reads alone as the reader times them (no process start or
# fabric file load).
# Usage: bench/lfts.sh [REPS]   (BUILD_DIR, JOBS as in the other benches; BEFORE=path: a
# second lft_read_bench, e.g. built against an earlier reader, timed in the same runs)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
reps=${1:-3}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j"${JOBS:-2}" --target ibburn lft_read_bench >/dev/null
ibburn=$build/ibburn
reader=$build/bench/lft_read_bench
sim=$root/scripts/simfabric
for tool in ibsim opensm ibroute python3; do
  command -v "$tool" >/dev/null || { echo "bench: $tool missing" >&2; exit 3; }
done
out=$(mktemp -d)
cleanup() { "$sim" stop --dir "$out/sim" >/dev/null 2>&1 || true; rm -rf "$out"; }
trap cleanup EXIT

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

echo "== forwarding tables of the field-notes fabric in ibsim + opensm ftree ($reps runs each, alternating)"
"$ibburn" wiring gen fat-tree --preset field-notes --rate 4xHDR -o "$out/fn" >/dev/null
"$sim" start "$out/fn.net" --opensm-args "-R ftree" --dir "$out/sim" >/dev/null
# MASTER is not the end: opensm keeps activating ports and writing tables for a while.
# Measure once two discoveries and table reads 5 s apart agree.
: >"$out/prev.json"
for ((i = 0; ; i++)); do
  "$sim" run --dir "$out/sim" "$ibburn" topo discover -o "$out/fn.json" 2>/dev/null
  "$sim" run --dir "$out/sim" "$reader" "$out/fn.json" 1 "$out/lfts.json" >/dev/null 2>&1
  cat "$out/fn.json" "$out/lfts.json" >"$out/now.json"
  cmp -s "$out/now.json" "$out/prev.json" && break
  ((i < 60)) || { echo "bench: the forwarding tables did not settle" >&2; exit 3; }
  mv "$out/now.json" "$out/prev.json"
  sleep 5
done
# The switches' LIDs, for ibroute.
python3 - "$out/fn.json" >"$out/lids" <<'PY'
import json, sys
for n in json.load(open(sys.argv[1]))["nodes"]:
    lid = next((p.get("lid") for p in n["ports"] if p["number"] == 0), None)
    if n["type"] == "Switch" and lid:
        print(lid)
PY
printf 'switches: %d\n' "$(wc -l <"$out/lids")"

# Each run: wall and CPU (user + sys, children included) seconds; CPU time is what to trust
# on a loaded machine (ibsim answers on the same cores).
timed() {  # NAME OUTPUT CMD...
  local name=$1 output=$2; shift 2
  /usr/bin/time -f "%e %U %S" -o "$out/$name.t" "$sim" run --dir "$out/sim" "$@" >"$output" 2>"$out/$name.err"
  awk '{ print $1 }' "$out/$name.t" >>"$out/$name.wall"
  awk '{ print $2 + $3 }' "$out/$name.t" >>"$out/$name.cpu"
}
names=(ibroute ibburn)
[[ -n ${BEFORE:-} ]] && names+=(before)
for n in "${names[@]}"; do : >"$out/$n.wall"; : >"$out/$n.cpu"; : >"$out/$n.read"; done
for ((i = 1; i <= reps; i++)); do
  timed ibroute "$out/ibroute.txt" bash -c 'while read -r lid; do ibroute -n "$lid"; done <"$1"' - "$out/lids"
  timed ibburn "$out/ibburn.out" "$reader" "$out/fn.json" 1 "$out/ibburn.json"
  [[ -n ${BEFORE:-} ]] && timed before "$out/before.out" "$BEFORE" "$out/fn.json" 1 "$out/before.json"
  # The reads alone, as the reader times them (no process start, no fabric file load).
  for n in "${names[@]:1}"; do sed -n 's/^run 1: .* in \([0-9]*\) ms wall.*/\1/p' "$out/$n.out" >>"$out/$n.read"; done
  line="run $i:"
  for n in "${names[@]}"; do
    line+=$(printf ' %s %.2f s wall / %.2f s CPU' "$n" "$(tail -1 "$out/$n.wall")" "$(tail -1 "$out/$n.cpu")")
    [[ $n == ibroute ]] || line+=" (read: $(tail -1 "$out/$n.read") ms)"
    line+=,
  done
  echo "${line%,}"
done

# The times mean something only if every reader saw the same tables: ibroute's valid
# entries (LID, port) per switch GUID against each ibburn-lfts file.
python3 - "$out/ibroute.txt" "$out/ibburn.json" ${BEFORE:+"$out/before.json"} <<'PY'
import json, re, sys
routes, current = {}, None
for line in open(sys.argv[1]):
    m = re.match(r"Unicast lids .* guid (0x[0-9a-f]+)", line)
    if m:
        current = routes.setdefault(int(m.group(1), 16), {})
        continue
    m = re.match(r"(0x[0-9a-f]{4}) (\d{3})", line)
    if m and current is not None:
        current[int(m.group(1), 16)] = int(m.group(2))
for path in sys.argv[2:]:
    ours = {int(g, 16): {lid: p for lid, p in enumerate(t) if p != 255}
            for g, t in json.load(open(path))["switches"].items()}
    if ours != routes:
        sys.exit(f"bench: {path} differs from ibroute's tables")
print(f"tables: {len(routes)} switches, {sum(map(len, routes.values()))} routes, the same in every reader")
PY

for kind in wall cpu; do
  b_ref=$(sort -g "$out/ibroute.$kind" | head -1)
  m_ref=$(median <"$out/ibroute.$kind")
  for n in "${names[@]:1}"; do
    b=$(sort -g "$out/$n.$kind" | head -1)
    m=$(median <"$out/$n.$kind")
    printf 'best of %d %s: ibroute on every switch %.2f s, %s %.2f s, ratio %s; median ratio %s\n' "$reps" "$kind" \
      "$b_ref" "$n" "$b" "$(ratio "$b" "$b_ref")" "$(ratio "$m" "$m_ref")"
  done
done
for n in "${names[@]:1}"; do
  printf 'best of %d: %s read every table in %d ms (median %d ms)\n' "$reps" "$n" "$(sort -g "$out/$n.read" | head -1)" \
    "$(median <"$out/$n.read")"
done
