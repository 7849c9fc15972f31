#!/usr/bin/env bash
# scripts/check-layering passes on this repository and fails, naming file:line, on a copy of
# its module layout where topo/ includes wiring/ (the cycle it was written to prevent) and
# where cuda/ includes burn/; and it fails on an edge the graph declares that nothing uses.
#   usage: layering_test.sh REPO WORKDIR
set -euo pipefail
repo=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

bash "$repo/scripts/check-layering" "$repo"

fake=$work/tree
mkdir -p "$fake/scripts" "$fake/tests" "$fake/bench"
cp "$repo/scripts/check-layering" "$fake/scripts/"
cp "$repo/CMakeLists.txt" "$fake/"
# Each module of the real graph, including exactly the modules it declares.
while read -r entry; do
  m=${entry%%:*}
  mkdir -p "$fake/$m"
  : >"$fake/$m/ok.h"
  for d in ${entry#*:}; do echo "#include \"$d/ok.h\"" >>"$fake/$m/ok.h"; done
done < <(bash "$repo/scripts/check-layering" "$repo" --graph)
bash "$fake/scripts/check-layering" "$fake" >/dev/null  # a clean tree passes

printf '#pragma once\n#include "wiring/wiring.h"\n' >"$fake/topo/bad.h"
printf '#include <vector>\n\n  #include "burn/transport.h"\n' >"$fake/cuda/bad.cpp"
if out=$(bash "$fake/scripts/check-layering" "$fake" 2>&1); then
  echo "FAIL: the bad includes were accepted"; echo "$out"; exit 1
fi
grep -q '^topo/bad.h:2: topo may not include wiring/' <<<"$out" || { echo "FAIL: topo/bad.h:2 not named"; echo "$out"; exit 1; }
grep -q '^cuda/bad.cpp:3: cuda may not include burn/' <<<"$out" || { echo "FAIL: cuda/bad.cpp:3 not named"; echo "$out"; exit 1; }
rm "$fake/topo/bad.h" "$fake/cuda/bad.cpp"
sed -i '/"topo\//d' "$fake/wiring/ok.h"
if out=$(bash "$fake/scripts/check-layering" "$fake" 2>&1); then
  echo "FAIL: an unused edge was accepted"; echo "$out"; exit 1
fi
grep -q 'lets wiring include topo, but nothing in wiring/ does' <<<"$out" || { echo "FAIL: unused edge not named"; echo "$out"; exit 1; }
echo "layering_test: bad includes rejected with file:line, an unused edge rejected"
