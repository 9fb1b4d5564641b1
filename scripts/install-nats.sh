#!/bin/sh
# Installs Debian's nats-server (JetStream included) for cluster mode, `npm run cluster` and the cluster tests
# (test/cluster/), unless it is already there. Run as root (or through sudo). The cluster tests skip themselves
# when nats-server is missing.
set -eu
if command -v nats-server >/dev/null 2>&1; then
  echo "nats-server is already installed: $(nats-server --version 2>/dev/null || command -v nats-server)"
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "run as root (or with sudo): apt-get needs it" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y nats-server
nats-server --version
