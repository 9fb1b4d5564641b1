#!/usr/bin/env bash
# What `npm run peers` installs: better-sqlite3 12.9.0, the bench's SQLite FTS5 peer, into a scratch project under
# bench/peer-packages/ (out of git), never into Tessera's package.json or node_modules. It is the one peer that
# compiles from source on Node 20 (no prebuilt binary on the npm registry; 13.x needs Node 22): about 140 s of one
# core for SQLite's amalgamation, which every `npm install`, and so every CI run, paid while it was a development
# dependency. The bench finds it there (bench/peers/peers.ts) and, without it, measures the other peers and says so.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=bench/peer-packages
version=12.9.0
installed=$(node -p "try { require('./$dir/node_modules/better-sqlite3/package.json').version } catch { '' }" 2>/dev/null || true)
if [ "$installed" = "$version" ] && [ -f "$dir/node_modules/better-sqlite3/build/Release/better_sqlite3.node" ]; then
  echo "peers: better-sqlite3 $version is installed in $dir"
  exit 0
fi
mkdir -p "$dir"
# A package.json of its own makes the scratch directory npm's project root (else npm would pick Tessera's).
[ -f "$dir/package.json" ] || echo '{ "private": true, "description": "scratch project: the bench peers that compile from source" }' > "$dir/package.json"
echo "peers: npm install better-sqlite3@$version into $dir (compiles SQLite: 2-3 minutes on 2 cores)"
# Saved in the scratch project's own package.json, so a later npm install there keeps it.
(cd "$dir" && npm install --save-exact --no-audit --no-fund --loglevel=error "better-sqlite3@$version")
echo "peers: done"
