#!/bin/sh
# Installs Debian's chromium for the preview page's browser tests (test/src/preview/), unless it is already there.
# Run as root (or through sudo). The tests skip themselves when /usr/bin/chromium is missing.
set -eu
if [ -x /usr/bin/chromium ]; then
  echo "chromium is already installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "run as root (or with sudo): apt-get needs it" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y chromium
/usr/bin/chromium --version
