#!/usr/bin/env bash
# clang-tidy (.clang-tidy's checks) over every translation unit of the modules, tests/ and
# bench/ in BUILD/compile_commands.json, and over the headers of the same folders they
# include. The folders come from CMakeLists.txt's module graph (scripts/module-graph).
# Prints each warning; exits 1 when there is any, so CI holds the code at zero.
#   usage: scripts/tidy.sh [BUILD]     (BUILD: a configured build dir, default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${1:-build}
if [[ ! -f $build/compile_commands.json ]]; then
  echo "tidy: no $build/compile_commands.json (configure the build first)" >&2
  exit 2
fi
runner=$(command -v run-clang-tidy-14 || command -v run-clang-tidy || true)
if [[ -z $runner ]]; then
  echo "tidy: run-clang-tidy not found (Debian: apt-get install clang-tidy)" >&2
  exit 2
fi
folders="($(bash scripts/module-graph . --names | tr '\n' '|')tests|bench)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# The sources' regex keeps out the generated header-check units and the build dir's files.
"$runner" -quiet -p "$build" -j "$(nproc)" -header-filter="^$root/$folders/.*\.h$" "^$root/$folders/.*\.(cpp|cu)$" \
  >"$log" 2>&1 || true
if grep -E '^/.*: (warning|error):' "$log" | sort -u | tee /dev/stderr | grep -q .; then
  echo "tidy: the warnings above (checks: .clang-tidy)" >&2
  exit 1
fi
echo "tidy: $(grep -c '"file"' "$build/compile_commands.json") compile commands, no warning"
