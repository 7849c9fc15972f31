#!/usr/bin/env bash
# Formats the C++ and CUDA sources with .clang-format (clang-format 14).
#   scripts/format.sh           formats every file in place
#   scripts/format.sh --check   changes nothing; prints the files that differ, exits 1 if any
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
# Every tracked and new (not ignored) C++ and CUDA source: the modules, app/, tests/ and bench/
# all hold them, and a list of folders here would drift from the module graph (it once lacked run/).
mapfile -t files < <(git ls-files --cached --others --exclude-standard -- '*.h' '*.cpp' '*.cu' | sort -u)
if ((!check)); then
  "$clang_format" -i "${files[@]}"
  exit 0
fi
differ=0
for f in "${files[@]}"; do
  if ! "$clang_format" "$f" | cmp -s - "$f"; then
    echo "$f"
    differ=1
  fi
done
if ((differ)); then
  echo "format: the files above are not formatted; run scripts/format.sh" >&2
fi
exit "$differ"
