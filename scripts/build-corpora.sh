#!/usr/bin/env bash
# Build the bench's real corpora (bench/corpora/*.ndjson, out of git) from what scripts/install-corpora.sh installed;
# arguments pass on to the builder: corpus names (gcide, manpages, spamassassin; default all) and --out DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run build --silent
node dist/bench/data/corpora/build.js "$@"
