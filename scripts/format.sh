#!/usr/bin/env bash
# Formats the C++ and CUDA sources with .clang-format (clang-format 14).
#   scripts/format.sh           formats every file in place
#   scripts/format.sh --check   changes nothing; prints the files that differ, exits 1 if any
# Run by `sh` too: bash is what it needs.
if [ -z "${BASH_VERSION:-}" ]; then exec bash "$0" "$@"; fi
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac
clang_format=$(command -v clang-format-14 || command -v clang-format || true)
if [ -z "$clang_format" ]; then
  echo "format: clang-format not found (Debian: apt-get install clang-format)" >&2
  exit 2
fi
# The folders: every module, then tests/ and bench/, written out on the command that lists the
# files, so a reader (and a check) sees what is formatted. Every module of CMakeLists.txt's
# IBBURN_MODULE_GRAPH (read through scripts/check-layering --graph, its one reader) must have
# files in that list, or this script stops: no module goes unformatted (run/ once did).
mapfile -t files < <(find common/ topo/ wiring/ topo_check/ audit/ counters/ rdma/ host/ cuda/ burn/ routing/ route_check/ planner/ fluid/ localization/ plan/ price/ report/ health/ slurm/ run/ app/ tests/ bench/ -type f \( -name '*.h' -o -name '*.cpp' -o -name '*.cu' \) | sort)
# A set of the listed folders, not `printf | grep -q`: grep -q exits at its first match, the
# printf then dies of SIGPIPE, and pipefail turns a found module into a missing one.
declare -A listed
for f in "${files[@]}"; do listed[${f%%/*}]=1; done
for module in $(bash scripts/check-layering --graph | sed 's/:.*//'); do
  [[ -n "${listed[$module]:-}" ]] ||
    { echo "format: module $module/ of CMakeLists.txt's graph is not in scripts/format.sh's list" >&2; exit 2; }
done
if ((!check)); then
  "$clang_format" -i "${files[@]}"
  exit 0
fi
# One clang-format run for every file (a process per file took 64 s of CI; this, 2 s).
out=$("$clang_format" --dry-run --Werror "${files[@]}" 2>&1) && exit 0
mapfile -t differ < <(sed -nE 's/^(.+):[0-9]+:[0-9]+: error: code should be clang-formatted.*$/\1/p' <<<"$out" | sort -u)
if ((${#differ[@]} == 0)); then
  echo "$out" >&2
  echo "format: clang-format failed" >&2
  exit 2
fi
printf '%s\n' "${differ[@]}"
echo "format: the files above are not formatted; run scripts/format.sh" >&2
exit 1
