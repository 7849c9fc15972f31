#!/usr/bin/env bash
# run_fuzz.sh FUZZER SEED_DIR WORK_DIR SECONDS: fuzzes for a bounded time, starting from a
# writable copy of the seed files; a crash leaves its input in WORK_DIR and fails. Exits 77
# (skipped) when SEED_DIR is absent: the real captures are not part of the repository.
set -euo pipefail
fuzzer=$1 seeds=$2 work=$3 seconds=$4
if [[ ! -d $seeds ]]; then
  echo "skipped: seed directory $seeds is absent (set IBBURN_CORPUS_DIR to the corpus)"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work/corpus"
cp "$seeds"/* "$work/corpus/"
"$fuzzer" "$work/corpus" -max_total_time="$seconds" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$work/" 2>&1 | tail -25
