#!/usr/bin/env bash
# Prepares the two peers `make bench` times beside the app (benches/native/peers.rs), in the tool
# cache and never in this repository:
#
#   $PEERS/ratelimiter-simulator/        amir-h-rassafi/ratelimiter-simulator's public/, as it is
#   $PEERS/token-bucket-visualisation/   ukslim/token-bucket-visualisation, `vite build --base ./`
#
# PEERS is $RLP_PEERS or ~/.cache/ratelimit-playground/peers. Each source comes from a bare mirror
# under $PEERS_MIRROR/OWNER+NAME/repo when there is one (a machine without GitHub), else from a
# shallow clone of github.com/OWNER/NAME. vite is the version the peer's package-lock.json pins,
# installed with npm into the tool cache. A peer already prepared from the same commit is kept.
# A peer that cannot be had is reported and skipped: the peers are a comparison, not a gate.
set -uo pipefail

CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/ratelimit-playground"
PEERS="${RLP_PEERS:-$CACHE/peers}"
MIRROR="${PEERS_MIRROR:-/work/.mirror}"
VITE_VERSION=6.2.2
VITE_DIR="$CACHE/vite-$VITE_VERSION"

say() { printf '\033[1mpeers:\033[0m %s\n' "$*"; }

# source OWNER/NAME DIR: the repository's HEAD as files in DIR; prints its commit.
source_of() {
  local repo="$1" dir="$2" git_dir="$MIRROR/${1/\//+}/repo"
  mkdir -p "$dir"
  if [ -d "$git_dir" ]; then
    git --git-dir="$git_dir" archive HEAD | tar -x -C "$dir" || return 1
    git --git-dir="$git_dir" rev-parse HEAD
  else
    git clone --quiet --depth 1 "https://github.com/$repo.git" "$dir" >&2 || return 1
    git -C "$dir" rev-parse HEAD
  fi
}

# fresh NAME COMMIT: whether $PEERS/NAME was prepared from COMMIT.
fresh() {
  [ -f "$PEERS/$1/index.html" ] && [ "$(cat "$PEERS/$1.commit" 2>/dev/null)" = "$2" ]
}

mkdir -p "$PEERS"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# amir-h-rassafi/ratelimiter-simulator: its public/ folder is the site.
if commit="$(source_of amir-h-rassafi/ratelimiter-simulator "$work/simulator")"; then
  if fresh ratelimiter-simulator "$commit"; then
    say "ratelimiter-simulator: ready ($commit)"
  else
    rm -rf "$PEERS/ratelimiter-simulator"
    cp -r "$work/simulator/public" "$PEERS/ratelimiter-simulator"
    echo "$commit" >"$PEERS/ratelimiter-simulator.commit"
    say "ratelimiter-simulator: public/ of $commit"
  fi
else
  say "ratelimiter-simulator: not available (no mirror under $MIRROR and github.com unreachable)"
fi

# ukslim/token-bucket-visualisation: built by vite, whose config imports "vite" from node_modules.
if commit="$(source_of ukslim/token-bucket-visualisation "$work/bucket")"; then
  if fresh token-bucket-visualisation "$commit"; then
    say "token-bucket-visualisation: ready ($commit)"
  else
    if ! [ -x "$VITE_DIR/node_modules/.bin/vite" ]; then
      say "installing vite@$VITE_VERSION into $VITE_DIR"
      npm install --silent --no-audit --no-fund --prefix "$VITE_DIR" "vite@$VITE_VERSION"
    fi
    ln -s "$VITE_DIR/node_modules" "$work/bucket/node_modules"
    rm -rf "$PEERS/token-bucket-visualisation"
    if (cd "$work/bucket" && "$VITE_DIR/node_modules/.bin/vite" build --base ./ --logLevel warn --emptyOutDir \
      --outDir "$PEERS/token-bucket-visualisation"); then
      echo "$commit" >"$PEERS/token-bucket-visualisation.commit"
      say "token-bucket-visualisation: vite build of $commit"
    else
      say "token-bucket-visualisation: the vite build failed"
    fi
  fi
else
  say "token-bucket-visualisation: not available (no mirror under $MIRROR and github.com unreachable)"
fi
exit 0
