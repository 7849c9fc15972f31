#!/usr/bin/env bash
# The report page at scale (docs/benchmarks.md, "The report page"): builds bench/report_bench,
# writes the page of a run on the field-notes fabric (4,088 HCAs) and on 32,768 HCAs, and opens
# each in headless Chromium at #bench: page.js draws the whole fabric, then every pod's view,
# a switch's ports and a search, and writes its timings into the DOM. Prints, per fabric: the
# page's build time and size, Chromium's wall time from start to the DOM dump (browser start
# included), the page's own time to interactive (performance.now(), from navigation start) and
# each view's time, and the DOM's element count. Fails (exit 1) on a script error or no timings.
#   BUILD_DIR=build bench/report.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$root/build}
command -v chromium >/dev/null || { echo "bench/report.sh: chromium not installed"; exit 3; }
cmake --build "$build" --target report_bench >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bad=0
for hosts in 511 4096; do
  page=$work/report-$hosts.html
  "$build/bench/report_bench" --hosts "$hosts" "$page"
  t0=$(date +%s.%N)
  timeout 120 chromium --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$work/profile" --window-size=1400,1000 \
    --dump-dom "file://$page#bench" >"$work/dom.html" 2>/dev/null
  wall=$(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $t0}")
  python3 - "$work/dom.html" "$wall" <<'PY' || bad=1
import json, re, sys
dom, wall = open(sys.argv[1]).read(), sys.argv[2]
m = re.search(r'<pre id="bench">(.*?)</pre>', dom)
if not m or '<pre id="js-errors" style="color:#d93025"></pre>' not in dom:
    print("  no timings, or script errors"); sys.exit(1)
t = json.loads(m.group(1))
print(f"  chromium wall {wall} s; interactive at {t['interactive_ms']/1000:.2f} s (script {t['fabric_view_ms']:.0f} ms "
      f"for the whole fabric); pod view {t['pod_view_ms']:.0f} ms, switch view {t['switch_view_ms']:.0f} ms, "
      f"search {t['search_ms']:.0f} ms ({t['search_hits']} hits); {t['dom_nodes']} elements")
PY
done
exit $bad
