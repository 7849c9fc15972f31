#!/usr/bin/env bash
# scripts/check-layering passes on this repository and fails, naming file:line, on a copy of
# its module layout where topo/ includes wiring/ (the cycle it was written to prevent) and
# where cuda/ includes burn/.
#   usage: layering_test.sh REPO WORKDIR
set -euo pipefail
repo=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

bash "$repo/scripts/check-layering" "$repo"

fake=$work/tree
for m in common topo wiring check counters rdma host cuda burn plan report run app; do
  mkdir -p "$fake/$m"
  echo '#include "common/error.h"' >"$fake/$m/ok.h"
done
mkdir -p "$fake/scripts"
cp "$repo/scripts/check-layering" "$fake/scripts/"
bash "$fake/scripts/check-layering" "$fake" >/dev/null  # a clean tree passes

printf '#pragma once\n#include "wiring/wiring.h"\n' >"$fake/topo/bad.h"
printf '#include <vector>\n\n  #include "burn/transport.h"\n' >"$fake/cuda/bad.cpp"
if out=$(bash "$fake/scripts/check-layering" "$fake" 2>&1); then
  echo "FAIL: the bad includes were accepted"; echo "$out"; exit 1
fi
grep -q '^topo/bad.h:2: topo may not include wiring/' <<<"$out" || { echo "FAIL: topo/bad.h:2 not named"; echo "$out"; exit 1; }
grep -q '^cuda/bad.cpp:3: cuda may not include burn/' <<<"$out" || { echo "FAIL: cuda/bad.cpp:3 not named"; echo "$out"; exit 1; }
echo "layering_test: bad includes rejected with file:line"
