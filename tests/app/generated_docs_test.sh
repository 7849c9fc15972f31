#!/usr/bin/env bash
# What the build wrote from the command tree (ibburn --write-docs: app/CMakeLists.txt) against
# the binary's own --help, command by command: each command's man page section lists exactly
# the options its --help lists, every page renders without a warning (man -l), the completion
# offers exactly those options and the subcommands; and --version names the version, the
# commit the tree is at and what the build holds.
#   usage: generated_docs_test.sh IBBURN MAN_DIR COMPLETION SOURCE_DIR VERSION HAVE_CUDA WORK
set -euo pipefail
ibburn=$1 man_dir=$2 completion=$3 src=$4 version=$5 have_cuda=$6 work=$7
bad=0
fail() { echo "FAIL: $*" >&2; bad=1; }
rm -rf "$work" && mkdir -p "$work"
cd "$work"  # empty: the completion of an argument finds no file here

out=$("$ibburn" --version)
[[ $(sed -n 1p <<<"$out") == "ibburn $version" ]] || fail "--version's first line is not 'ibburn $version': $out"
commit=$(sed -n 's/^commit: //p' <<<"$out")
if [[ $(git -C "$src" rev-parse --show-toplevel 2>/dev/null) -ef $src ]]; then
  # The tree may have changed since the build (-dirty or not); the commit may not.
  [[ ${commit%-dirty} == "$(git -C "$src" describe --always --abbrev=12)" ]] ||
    fail "--version says commit '$commit', the tree is at $(git -C "$src" describe --always --abbrev=12)"
else
  [[ $commit == unknown ]] || fail "--version says commit '$commit' outside a git checkout"
fi
grep -qE '^verbs: libibverbs [0-9]' <<<"$out" || fail "--version names no libibverbs: $out"
if [[ $have_cuda == ON ]]; then want='^CUDA: [0-9]'; else want='^CUDA: no '; fi
grep -qE "$want" <<<"$out" || fail "--version's CUDA line does not match a build with CUDA $have_cuda: $out"

# The sections of `ibburn PATH --help` (CLI11's format: "Options:" then "  -x,--name TYPE ..." lines).
help_options() {
  "$ibburn" $1 --help | awk '/^[A-Z][a-z]*:$/ { s = $0 } s == "Options:" && /^  -/ { print $1 }' | tr ',' '\n' | sort
}
help_commands() { "$ibburn" $1 --help | awk '/^[A-Z][a-z]*:$/ { s = $0 } s == "Subcommands:" && /^  [a-z]/ { print $1 }'; }
# The options a man page section lists: `\fB\-\-name\fR` on the line after each .TP.
man_options() {
  # The section's heading through ENVIRON: awk -v would read its `\-` as an escape.
  START=$2 awk 'index($0, ".S") == 1 { on = ($0 == ENVIRON["START"]) } on && prev == ".TP" { print } { prev = $0 }' "$1" |
    grep -oE '\\fB(\\-)+[A-Za-z0-9][A-Za-z0-9\\-]*\\fR' | sed -e 's/^\\fB//' -e 's/\\fR$//' -e 's/\\-/-/g' | sort
}
completions() {
  bash -c 'source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ibburn; printf "%s\n" "${COMPREPLY[@]}"' \
    "$completion" "$@" | grep . | sort || true
}

pages=("$man_dir"/ibburn.8)
commands=0
# Every command, from the root down: PATH is "" or e.g. "topo show".
walk() {
  local path=$1 top=${1%% *} sub
  local -a words=()
  [[ -n $path ]] && read -r -a words <<<"$path"
  local options own
  options=$(help_options "$path")
  own=$(grep -vxE -- '-h|--help' <<<"$options" || true)
  local subs
  subs=$(help_commands "$path")
  commands=$((commands + 1))
  [[ $(completions ibburn "${words[@]}" -) == "$options" ]] ||
    fail "completion of 'ibburn $path -' differs from --help's options"
  if [[ -n $subs ]]; then
    [[ $(completions ibburn "${words[@]}" "") == "$(sort <<<"$subs")" ]] ||
      fail "completion of 'ibburn $path ' differs from --help's subcommands"
  fi
  if [[ -z $path ]]; then
    [[ $(man_options "$man_dir/ibburn.8" ".SH OPTIONS") == "$options" ]] || fail "ibburn.8's options differ from --help's"
  elif [[ -n $own || -z $subs ]]; then
    local page=$man_dir/ibburn-$top.8 section
    if grep -qx '.SH COMMANDS' "$page"; then section=".SS ibburn ${path//-/\\-}"; else section=".SH OPTIONS"; fi
    [[ $(man_options "$page" "$section") == "$own" ]] ||
      fail "ibburn-$top.8 '$section' lists other options than 'ibburn $path --help': $(diff <(man_options "$page" "$section") <(echo "$own") | tr '\n' ' ')"
  fi
  for sub in $subs; do
    [[ -z $path ]] && pages+=("$man_dir/ibburn-$sub.8")
    walk "${path:+$path }$sub"
  done
}
walk ""

# Exactly the pages of the root and each command, each rendering without a warning.
[[ $(printf '%s\n' "${pages[@]}" | sort) == "$(ls "$man_dir"/*.8 | sort)" ]] ||
  fail "$man_dir holds other pages than ibburn.8 and one per command: $(ls "$man_dir")"
for page in "${pages[@]}"; do
  warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
  [[ -z $warnings ]] || fail "man -l $page: $warnings"
  [[ -f $page.gz ]] && zcmp -s "$page.gz" "$page" || fail "$page.gz is not $page gzipped"
done
echo "generated_docs: $commands commands, ${#pages[@]} man pages checked"
exit $bad
