#!/bin/sh
# `ibburn host check --slurm` as a HealthCheckProgram or prolog: how long one check takes on
# this host (docs/slurm.md: it must take seconds; slurmd's HealthCheckInterval runs it on
# every node). Prints min/median/max of N runs (default 20). A passing check calls no scontrol.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
ibburn=${IBBURN:-$root/build/ibburn}
n=${1:-20}
for _ in $(seq "$n"); do
  s=$(date +%s.%N)
  "$ibburn" host check --slurm >/dev/null 2>&1 || true
  e=$(date +%s.%N)
  echo "$e - $s" | bc
done | sort -n | awk '{ t[NR] = $1 } END { printf "host check --slurm: %d runs, min %.3f s, median %.3f s, max %.3f s\n", NR, t[1], t[int((NR + 1) / 2)], t[NR] }'
