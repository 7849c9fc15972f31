#!/usr/bin/env bash
# scripts/simfabric end to end: start (with opensm), run, console (accepted and rejected),
# resweep, stop leaves no process and no directory. Exit 77 = skipped (no ibsim).
#   usage: simfabric_test.sh REPO WORKDIR
set -euo pipefail
root=$1
work=$2
command -v ibsim >/dev/null && command -v opensm >/dev/null || exit 77
sim=$root/scripts/simfabric
rm -rf "$work"
mkdir -p "$work/tmp"
trap 'SIMFABRIC_DIR= "$sim" stop --dir "$work/sim" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
# simfabric's last-fabric file and anything its commands write go to $TMPDIR; umad2sim
# makes ./sys-<pid> in the working directory.
export TMPDIR=$work/tmp
cd "$work"
cat >"$work/net" <<'NET'
Switch 8 "sf-sw1"
[1] "sf-h1"[1] # lid 0 4xHDR
[2] "sf-sw2"[2] # lid 0 4xHDR

Switch 8 "sf-sw2"
[2] "sf-sw1"[2] # lid 0 4xHDR
[1] "sf-h2"[1] # lid 0 4xHDR

Hca 1 "sf-h1"
[1] "sf-sw1"[1] # lid 0 4xHDR

Hca 1 "sf-h2"
[1] "sf-sw2"[1] # lid 0 4xHDR
NET
fail() { echo "FAIL: $*" >&2; exit 1; }
env_out=$("$sim" start "$work/net" --opensm --dir "$work/sim")
grep -q '^export IBSIM_SOCKNAME=' <<<"$env_out" || fail "start printed no exports: $env_out"
ibsim_pid=$(cat "$work/sim/ibsim.pid")
disc=$("$sim" run --dir "$work/sim" ibnetdiscover 2>/dev/null)
[[ $(grep -c '^Switch' <<<"$disc") == 2 ]] || fail "expected 2 switches: $disc"
grep -q '"sf-h2" lid [1-9]' <<<"$disc" || grep -q 'lid [1-9][0-9]* lmc 0 "sf-sw2"' <<<"$disc" || fail "no LIDs: $disc"
"$sim" console --dir "$work/sim" 'Unlink "sf-sw1"[2]' >/dev/null || fail "Unlink rejected"
if "$sim" console --dir "$work/sim" 'Unlink "no-such-node"[1]' >/dev/null; then fail "bad node accepted"; fi
"$sim" resweep --dir "$work/sim" || fail "resweep"
disc=$("$sim" run --dir "$work/sim" ibnetdiscover 2>/dev/null)
[[ $(grep -c '^Switch' <<<"$disc") == 1 ]] || fail "sf-sw2 should be cut off: $disc"
"$sim" stop --dir "$work/sim" >/dev/null
# (a zombie is dead: the container's init may be slow to reap it)
grep -qs '^State:[[:space:]]*[^Z]' "/proc/$ibsim_pid/status" && fail "ibsim still running"
[[ ! -e $work/sim/ibsim.pid ]] || fail "pid file left"
echo "simfabric: ok"
