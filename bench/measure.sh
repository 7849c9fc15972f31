# Sourced by the benchmarks that time whole commands (bench/price.sh, bench/planes.sh).
# measure LABEL COMMAND...: runs it (its output in $work/out), prints wall and peak RSS and its
# exit code, and sets $wall. Needs $work.
measure() {
  local label=$1; shift
  local rc=0
  /usr/bin/time -f "%e %M" -o "$work/t" "$@" >"$work/out" 2>&1 || rc=$?
  read -r wall rss < <(tail -n 1 "$work/t")
  printf '%-58s wall %7.2f s  peak RSS %6d MiB  exit %d\n' "$label" "$wall" $((rss / 1024)) "$rc"
}
