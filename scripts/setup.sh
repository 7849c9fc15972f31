#!/usr/bin/env bash
# Installs every Debian package ibburn needs (idempotent, non-interactive).
# Only asks apt when something is missing, so repeated runs cost a second.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mapfile -t wanted < <(grep -v '^\s*#' "$here/packages.txt" | sed 's/\s*#.*//' | grep -v '^\s*$')
missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" = 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  # No daemon a package brings (openssh-server's sshd) starts on this machine: the guests of
  # scripts/rdma-vm run their own. policy-rc.d is removed again whatever apt does.
  policy=/usr/sbin/policy-rc.d
  if [ ! -e $policy ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee $policy > /dev/null && $sudo chmod +x $policy
    trap '$sudo rm -f $policy' EXIT
  fi
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
