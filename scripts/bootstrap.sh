#!/usr/bin/env bash
# Installs every tool the build and the tests need, idempotently: each step checks the installed
# version first and does nothing when it already matches, so a warm run takes about a second.
# Tools go where they outlive a clone (cargo's bin folder, ~/.cache), so a fresh clone reuses them.
#
#   scripts/bootstrap.sh          build tools (wasm32 target, trunk, wasm-bindgen-cli, wasm-opt,
#                                 esbuild)
#   scripts/bootstrap.sh --test   the same plus Debian chromium + chromium-driver, firefox-esr +
#                                 geckodriver (crates.io), webkit2gtk-driver + xvfb, brotli, and
#                                 redis-server and nginx-light (tests/real starts its own), Ruby's
#                                 and PHP's libraries from Debian, and the npm and PyPI packages
#                                 tests/real drives in Node and Python, at pinned versions, a JRE
#                                 and the Python package's venv (maturin, pyarrow, Dask, pyspark)
set -euo pipefail

cd "$(dirname "$0")/.."
TRUNK_VERSION=0.21.14
BINARYEN_VERSION=132
CACHE="${XDG_CACHE_HOME:-$HOME/.cache}/ratelimit-playground"
BINARYEN_DIR="$CACHE/binaryen-$BINARYEN_VERSION"
ESBUILD_VERSION=0.24.2
ESBUILD_DIR="$CACHE/esbuild-$ESBUILD_VERSION"
CARGO_BIN="${CARGO_HOME:-$HOME/.cargo}/bin"
export PATH="$BINARYEN_DIR/node_modules/.bin:$ESBUILD_DIR/node_modules/.bin:$CARGO_BIN:$PATH"

say() { printf '\033[1mbootstrap:\033[0m %s\n' "$*"; }
have_version() { # have_version CMD EXPECTED-SUBSTRING
  # grep reads all of it (no -q): a tool whose --version has more lines would otherwise be cut
  # off with SIGPIPE, which pipefail reports as a failure.
  command -v "$1" >/dev/null 2>&1 && "$1" --version 2>/dev/null | grep -F -- "$2" >/dev/null
}

# 1. Rust's wasm32 target.
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

# 2. trunk 0.21.x (0.22 needs a newer rustc than this machine has).
if ! have_version trunk "trunk 0.21."; then
  say "installing trunk $TRUNK_VERSION (first time only, ~8 min)"
  cargo install --locked "trunk@$TRUNK_VERSION"
fi

# 3. wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock.
WB_VERSION=$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
if [[ -z "$WB_VERSION" ]]; then echo "bootstrap: no wasm-bindgen in Cargo.lock" >&2; exit 1; fi
if ! have_version wasm-bindgen "wasm-bindgen $WB_VERSION" \
  || ! have_version wasm-bindgen-test-runner "$WB_VERSION"; then
  say "installing wasm-bindgen-cli $WB_VERSION (first time only, ~4 min)"
  # --locked fails for this crate: one pinned dependency version is no longer on the registry.
  cargo install --force wasm-bindgen-cli --version "$WB_VERSION"
fi
if ! grep -q "wasm_bindgen = \"$WB_VERSION\"" Trunk.toml; then
  echo "bootstrap: Trunk.toml [tools] wasm_bindgen must be \"$WB_VERSION\" (the version in Cargo.lock)" >&2
  exit 1
fi

# 4. wasm-opt from npm's binaryen (Debian's binaryen 108 emits wasm that fails to load).
if ! have_version wasm-opt "version $BINARYEN_VERSION"; then
  say "installing binaryen@$BINARYEN_VERSION from npm into $BINARYEN_DIR"
  mkdir -p "$BINARYEN_DIR"
  npm install --silent --no-audit --no-fund --prefix "$BINARYEN_DIR" "binaryen@$BINARYEN_VERSION"
  have_version wasm-opt "version $BINARYEN_VERSION" || { echo "bootstrap: wasm-opt still missing" >&2; exit 1; }
fi

# 4b. esbuild from npm: a release build minifies its JS and CSS with it (scripts/minify.py).
if ! have_version esbuild "$ESBUILD_VERSION"; then
  say "installing esbuild@$ESBUILD_VERSION from npm into $ESBUILD_DIR"
  mkdir -p "$ESBUILD_DIR"
  npm install --silent --no-audit --no-fund --prefix "$ESBUILD_DIR" "esbuild@$ESBUILD_VERSION"
  have_version esbuild "$ESBUILD_VERSION" || { echo "bootstrap: esbuild still missing" >&2; exit 1; }
fi

# 5. For the tests: Debian's Chromium and its driver, brotli for `make size`, and redis-server for
#    tests/real (each test starts its own server on a free loopback port); Go and its x/time/rate
#    source, which tests/real/go.rs builds offline.
if [[ "${1:-}" == "--test" ]]; then
  missing=()
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)
  command -v brotli >/dev/null 2>&1 || missing+=(brotli)
  command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
  [[ -x /usr/sbin/nginx ]] || missing+=(nginx-light)
  [[ -x /usr/sbin/haproxy ]] || missing+=(haproxy)
  command -v go >/dev/null 2>&1 || missing+=(golang-go)
  command -v java >/dev/null 2>&1 || missing+=(default-jre-headless)  # Spark, for python/tests
  # Every reader's browser (tests/e2e_engines.rs): Firefox ESR, and WebKitGTK's WebDriver server
  # with its MiniBrowser, which draws into a virtual X display (xvfb-run).
  [[ -x /usr/bin/firefox-esr ]] || missing+=(firefox-esr)
  [[ -x /usr/bin/WebKitWebDriver ]] || missing+=(webkit2gtk-driver)
  command -v xvfb-run >/dev/null 2>&1 || missing+=(xvfb)
  [[ -f /usr/share/gocode/src/golang.org/x/time/rate/rate.go ]] || missing+=(golang-golang-x-time-dev)
  # Ruby's Rack::Attack with Timecop and ActiveSupport's cache, PHP's Laravel RateLimiter: the
  # libraries tests/real/rack_attack.rs and laravel.rs drive (Debian bookworm: 6.6.1, 8.83.26).
  for pkg in ruby ruby-rack-attack ruby-timecop ruby-activesupport php-cli php-illuminate-cache; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    say "installing ${missing[*]} from Debian"
    SUDO=""; [[ $(id -u) == 0 ]] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
fi
# 5b. For the tests: geckodriver, Firefox's WebDriver server, from crates.io (Debian has none).
GECKODRIVER_VERSION=0.37.1
if [[ "${1:-}" == "--test" ]] && ! have_version geckodriver "geckodriver $GECKODRIVER_VERSION"; then
  say "installing geckodriver $GECKODRIVER_VERSION (first time only, ~3 min)"
  cargo install --locked "geckodriver@$GECKODRIVER_VERSION"
fi
# 6. For the tests: the npm libraries tests/real/node/replay.mjs and rlflex.mjs run under fake timers
#    (and rlflex.mjs's RateLimiterRedis with ioredis, on the test's redis-server).
# npm_pinned DIR PACKAGE@VERSION...: installs the packages into DIR unless DIR/.pinned says they are.
npm_pinned() {
  local dir=$1; shift
  if [[ "$(cat "$dir/.pinned" 2>/dev/null)" != "$*" ]]; then
    say "installing $* from npm into $dir"
    mkdir -p "$dir"
    npm install --silent --no-audit --no-fund --prefix "$dir" "$@"
    echo "$*" > "$dir/.pinned"
  fi
}
if [[ "${1:-}" == "--test" ]]; then
  npm_pinned "$CACHE/node-real" express-rate-limit@8.7.4 @upstash/ratelimit@2.2.0 @sinonjs/fake-timers@15.5.0 \
    rate-limiter-flexible@11.4.0 ioredis@6.1.0
fi
# 6b. For the tests: NestJS's throttler with NestJS itself and TypeScript (tests/real/nestjs.rs
#     drives its guard and compiles the exported module), in a folder of their own: NestJS's
#     express is not express-rate-limit's.
if [[ "${1:-}" == "--test" ]]; then
  npm_pinned "$CACHE/node-nest" @nestjs/throttler@6.7.1 @nestjs/common@11.2.12 @nestjs/core@11.2.12 \
    @nestjs/platform-express@11.2.12 reflect-metadata@0.2.2 rxjs@7.8.2 typescript@5.9.3 @types/node@20.19.43 \
    @sinonjs/fake-timers@15.5.0
fi
# 6c. For the tests: axe-core, which tests/e2e_cluster/axe.rs runs in the page at every step of
#     the tour and in every view, light and dark.
if [[ "${1:-}" == "--test" ]]; then
  npm_pinned "$CACHE/node-axe" axe-core@4.14.1
fi
# 7. For the tests: the PyPI libraries tests/real/python/ drives under a fake clock (limits,
#    with redis-py for its RedisStorage, django-ratelimit on Django), at
#    pinned versions (with their dependencies' versions pinned too), into a folder of their own.
if [[ "${1:-}" == "--test" ]]; then
  PYTHON_REAL="$CACHE/python-real"
  PYTHON_PKGS=(limits==5.8.0 deprecated==1.3.1 wrapt==2.5.2 packaging==26.4 typing_extensions==4.16.0
    django-ratelimit==4.1.0 Django==5.2.19 asgiref==3.13.0 sqlparse==0.6.1 redis==8.2.0)
  if [[ "$(cat "$PYTHON_REAL/.pinned" 2>/dev/null)" != "${PYTHON_PKGS[*]}" ]]; then
    say "installing ${PYTHON_PKGS[*]} from PyPI into $PYTHON_REAL"
    rm -rf "$PYTHON_REAL" && mkdir -p "$PYTHON_REAL"
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --target "$PYTHON_REAL" "${PYTHON_PKGS[@]}"
    echo "${PYTHON_PKGS[*]}" > "$PYTHON_REAL/.pinned"
  fi
fi
# 7b. For the Python package (make python, make python-test): maturin, pyarrow, Dask and pyspark
#     (Spark 4 runs on the JRE of step 5), every version pinned in python/requirements.txt, in a
#     venv of their own; rebuilt when that file changes.
if [[ "${1:-}" == "--test" ]]; then
  PYVENV="$CACHE/python-venv"
  PYPINS="$(sha256sum python/requirements.txt | cut -c1-16)"
  if [[ "$(cat "$PYVENV/.pinned" 2>/dev/null)" != "$PYPINS" ]]; then
    say "installing python/requirements.txt from PyPI into $PYVENV (first time only, ~2 min)"
    rm -rf "$PYVENV" && python3 -m venv "$PYVENV"
    "$PYVENV/bin/pip" install --quiet --disable-pip-version-check -r python/requirements.txt
    echo "$PYPINS" > "$PYVENV/.pinned"
  fi
fi
# redis-cell, the Redis module the tests load (tests/real/redis_cell.rs): built from its crates.io
# source, checked against the pinned hash, with the dependency versions of the committed lock file.
if [[ "${1:-}" == "--test" ]]; then
  REDIS_CELL="$CACHE/redis-cell-0.2.2"
  if [[ ! -f "$REDIS_CELL/libredis_cell.so" ]]; then
    say "building redis-cell 0.2.2 from crates.io into $REDIS_CELL"
    rm -rf "$REDIS_CELL" && mkdir -p "$REDIS_CELL/src"
    curl -fsSL -o "$REDIS_CELL/redis-cell.crate" https://static.crates.io/crates/redis-cell/redis-cell-0.2.2.crate
    echo "9a7fc93a6257cff317af736529c8462842b9ef7cce23acb20b6b454014ebec3d  $REDIS_CELL/redis-cell.crate" | sha256sum -c --quiet
    tar -xzf "$REDIS_CELL/redis-cell.crate" -C "$REDIS_CELL/src" --strip-components=1
    cp tests/real/redis_cell/Cargo.lock "$REDIS_CELL/src/"
    RUSTFLAGS="--cap-lints=allow" cargo build --quiet --release --locked --manifest-path "$REDIS_CELL/src/Cargo.toml" --target-dir "$REDIS_CELL/target"
    cp "$REDIS_CELL/target/release/libredis_cell.so" "$REDIS_CELL/"
  fi
fi
say "tools ready: $(trunk --version), $(wasm-bindgen --version), $(wasm-opt --version | head -1), esbuild $(esbuild --version)"
