#!/usr/bin/env bash
# packaging/ibburn.conf, the example /etc/ibburn/ibburn.conf: every line a comment, and from the
# first `# [command]` on each one either empty, a section or `# name = value` naming a long
# option that `ibburn command --help` lists (so the example drifts from no option).
#   usage: example_config_test.sh IBBURN CONF
set -euo pipefail
ibburn=$1 conf=$2
bad=0 options=0 section=""
fail() { echo "FAIL: $conf:$n: $*" >&2; bad=1; }
n=0
while IFS= read -r line; do
  n=$((n + 1))
  if [[ $line != '#'* ]]; then
    fail "not a comment: $line"
  elif [[ $line =~ ^#\ \[([a-z][a-z ]*)\]$ ]]; then
    section=${BASH_REMATCH[1]}
  elif [[ $line =~ ^#\ ([a-z][a-z-]*)\ =\ [^\ ].*$ ]]; then
    name=${BASH_REMATCH[1]}
    options=$((options + 1))
    [[ -n $section ]] || { fail "option $name before any [command]"; continue; }
    # $section unquoted: a nested command's words. The help is read whole first: `grep -q`
    # on the pipe would stop reading at its match, and ibburn's SIGPIPE fail the pipeline.
    help=$("$ibburn" $section --help)
    grep -qE -- "^  (-[A-Za-z],)?--$name([ ,]|$)" <<<"$help" || fail "'ibburn $section' has no option --$name"
  elif [[ -n $section && $line != '#' ]]; then
    fail "neither a [command] nor '# name = value': $line"
  fi
done <"$conf"
((options > 0)) || { n=0; fail "no option in it"; }
echo "example_config: $options options, each one its command's"
exit $bad
