#!/usr/bin/env bash
# Installs what confined servers need on Linux (the sandbox runtime's dependencies, from Debian's packages):
# bubblewrap (bwrap), socat (the network bridge into the sandbox) and ripgrep (rg). Installed when running as root
# with apt-get (containers, CI); otherwise this says which are missing and how to get them, and goes on: the sandbox
# tests then fail with that reason. It never runs sudo itself. Nothing to do on other platforms.
set -euo pipefail
[ "$(uname -s)" = Linux ] || exit 0
log() { echo "[sandbox-tools] $*" >&2; }
missing=()
command -v bwrap >/dev/null || missing+=(bubblewrap)
command -v socat >/dev/null || missing+=(socat)
command -v rg >/dev/null || missing+=(ripgrep)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  log "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2 || { apt-get update -qq >&2 && apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2; }
else
  log "missing system packages for confined servers: ${missing[*]}"
  log "install them; on Debian or Ubuntu: sudo apt-get install --no-install-recommends ${missing[*]}"
  log "(the sandbox tests fail until then)"
fi
