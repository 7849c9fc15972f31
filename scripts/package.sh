#!/usr/bin/env bash
# Builds the Debian package from a configured build dir and runs lintian on it (no error allowed).
#   scripts/package.sh [BUILD]                   BUILD (default build) -> BUILD/ibburn_<version>_amd64.deb
#   scripts/package.sh [BUILD] --install-check   then installs and removes it (CI, as root)
# --install-check is for a throwaway machine (CI's): it installs the package (dpkg -i), runs the
# installed /usr/bin/ibburn --version, runs the installed `ibburn run --transport sim` with only
# /etc/ibburn/ibburn.conf for its site options, renders every installed man page (man -l, no
# warning allowed), completes a command with the installed completion, removes the package (dpkg -r)
# and fails on any file of it left but the conffile, then purges it (dpkg -P: the conffile
# goes too). It refuses where dpkg already knows an ibburn package, which it would replace.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
install_check=0
for arg; do
  case $arg in
    --install-check) install_check=1 ;;
    -*) echo "usage: $0 [BUILD] [--install-check]" >&2; exit 2 ;;
    *) build=$arg ;;
  esac
done
fail() { echo "package: $*" >&2; exit 1; }
[[ -f $build/CMakeCache.txt ]] || { echo "package: $build is not a configured build dir" >&2; exit 2; }

rm -f "$build"/ibburn_*.deb
cmake --build "$build" -j"$(nproc)" --target package
debs=("$build"/ibburn_*_"$(dpkg --print-architecture)".deb)
[[ -f ${debs[0]} ]] || fail "cpack wrote no $build/ibburn_<version>_$(dpkg --print-architecture).deb"
deb=${debs[0]}
lintian --fail-on error "$deb"
echo "package: $deb (lintian: no errors)"
((install_check)) || exit 0

[[ $(id -u) == 0 ]] || fail "--install-check installs the package: run it as root"
if [[ $(dpkg-query -W -f='${Status}' ibburn 2>/dev/null || true) =~ (installed|config-files) ]]; then
  fail "an ibburn package is known to dpkg already; remove it (dpkg -P ibburn) or check elsewhere"
fi
conffile=/etc/ibburn/ibburn.conf
# The package's paths, and those already there before (/usr, /usr/bin ...: not its to remove).
mapfile -t paths < <(dpkg-deb --fsys-tarfile "$deb" | tar -t | sed -e 's|^\.||' -e 's|/$||' | grep .)
before=()
for p in "${paths[@]}"; do [[ -e $p ]] && before+=("$p"); done
dpkg -i "$deb" || DEBIAN_FRONTEND=noninteractive apt-get -f install -y -qq
/usr/bin/ibburn --version

mapfile -t pages < <(dpkg -L ibburn | grep '^/usr/share/man/man8/.*\.8\.gz$')
built=$(cd "$build/man" && ls ./*.8.gz | wc -l)
((${#pages[@]} == built)) || fail "${#pages[@]} man pages installed, $built built"
for page in "${pages[@]}"; do
  warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
  [[ -z $warnings ]] || fail "man -l $page: $warnings"
done
echo "package: ${#pages[@]} man pages render"
# The installed binary runs the job on a generated fabric with only the site file for its
# options (the package's example, as a site edits it: here a [run] section added).
work=$(mktemp -d)
/usr/bin/ibburn wiring gen fat-tree --tiers 2 --radix 8 --hosts 8 --hcas-per-host 1 --rate 4xHDR -o "$work/demo" >/dev/null
cp "$conffile" "$work/conf.orig"
printf '[run]\nfabric = %s\nwiring = %s\nrouting = adaptive\nduration = 1s\nprobes = 0\nout = %s\n' \
  "$work/demo.net" "$work/demo.csv" "$work/run" >>"$conffile"
/usr/bin/ibburn run --transport sim --quiet || fail "the installed ibburn run with $conffile's options did not pass"
grep -q '"verdict": "pass"' "$work/run/summary.json" || fail "$work/run/summary.json: verdict is not pass"
grep -q "^wiring = $work/demo.csv  # $conffile:[0-9]*$" <<<"$(/usr/bin/ibburn config show run)" ||
  fail "ibburn config show run does not name $conffile for wiring"
cp "$work/conf.orig" "$conffile"
rm -rf "$work"
echo "package: the installed ibburn run took its options from $conffile alone"
[[ -f /usr/share/ibburn/grafana/ibburn-dashboard.json ]] || fail "no Grafana dashboard installed"

bash -c 'source /usr/share/bash-completion/completions/ibburn; COMP_WORDS=(ibburn ru); COMP_CWORD=1; _ibburn
         [[ ${COMPREPLY[*]} == run ]]' || fail "the installed completion does not complete 'ibburn ru' to run"

dpkg -r ibburn
left=()
for p in "${paths[@]}"; do
  [[ $p == "$conffile" || $p == "${conffile%/*}" ]] && continue
  [[ " ${before[*]} " == *" $p "* ]] && continue
  [[ -e $p ]] && left+=("$p")
done
((${#left[@]} == 0)) || fail "dpkg -r left ${left[*]}"
[[ -f $conffile ]] || fail "dpkg -r removed the conffile $conffile"
dpkg -P ibburn
[[ ! -e $conffile ]] || fail "dpkg -P left $conffile"
echo "package: installed, checked and removed; only the conffile outlived dpkg -r"
