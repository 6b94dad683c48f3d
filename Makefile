# Two commands are all a newcomer needs: `make serve` and `make test`. Both install whatever is
# missing first (scripts/bootstrap.sh: quick when everything is already there).
SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

BINARYEN_BIN := $(HOME)/.cache/ratelimit-playground/binaryen-132/node_modules/.bin
ESBUILD_BIN := $(HOME)/.cache/ratelimit-playground/esbuild-0.24.2/node_modules/.bin
export PATH := $(BINARYEN_BIN):$(ESBUILD_BIN):$(HOME)/.cargo/bin:$(PATH)
export CHROMEDRIVER ?= /usr/bin/chromedriver
# Every wasm32 build made through make (the release build, the wasm tests, clippy): the rustflags
# of .cargo/config.toml, and the crates' registry folder left out of the panic locations the
# wasm keeps ("/root/.cargo/registry/src/index.crates.io-<hash>/leptos-0.8.8/src/…" becomes
# "leptos-0.8.8/src/…"), kept for the first module's size: see docs/size.md. The folder is where
# cargo ≥ 1.85 keeps crates.io's sources under CARGO_HOME.
CARGO_HOME ?= $(HOME)/.cargo
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS := --cfg erase_components --remap-path-prefix=$(CARGO_HOME)/registry/src/index.crates.io-1949cf8c6b5b557f/=
PYVENV := $(HOME)/.cache/ratelimit-playground/python-venv
PORT ?= 8080
WASM := wasm32-unknown-unknown

.PHONY: python python-test help serve test bootstrap bootstrap-test lint test-build-steps build-fixtures loader-route unit wasm-test dist size bench fuzz ff-wasm redis-table cycles clean

help:
	@echo "make serve   install missing tools, then run the app at http://127.0.0.1:$(PORT)/"
	@echo "make test    install missing tools, then every check (fmt, clippy, unit, browser, e2e)"
	@echo "make test-build-steps  the build's rewriting steps (scripts/post_build.py) on a captured build, in seconds"
	@echo "make build-fixtures    capture that build anew, after upgrading Trunk, wasm-bindgen or wasm-opt"
	@echo "make loader-route      print the loader's routing from src/present/share/route.rs into scripts/loader/"
	@echo "make size    release wasm/JS/CSS sizes (raw, gzip, brotli), bytes by crate; fails above scripts/size-budget"
	@echo "make python  the Python package (ratelimit_sim: PyO3, abi3) as a wheel in target/wheels/"
	@echo "make bench   engine and browser benchmarks"
	@echo "make fuzz    a million random queries through the parser and validation"
	@echo "make ff-wasm the engine's fast-forward (1 h at 1 000 req/s) as wasm, timed in Node's V8"
	@echo "make redis-table  the README's real-Redis tables: measured against simulated (~17 min)"
	@echo "make cycles  import circles and imports against the layers in src/ (exit 1 if any; see scripts/module_cycles.py)"

bootstrap:
	@scripts/bootstrap.sh

bootstrap-test:
	@scripts/bootstrap.sh --test

serve: bootstrap
	@echo "ratelimit-playground: serving on http://127.0.0.1:$(PORT)/ (Ctrl-C to stop)"
	trunk serve --port $(PORT)

test: bootstrap-test cycles lint test-build-steps dist size unit wasm-test python-test
	@echo "make test: all checks passed"

lint:
	cargo fmt --check
	cargo clippy --all-targets --locked -- -D warnings
	cargo clippy --locked --test e2e --test e2e_share --test e2e_cluster --test e2e_engines -- -D warnings # test = false: not in --all-targets
	cargo clippy --all-targets --locked --target $(WASM) -- -D warnings
	cargo fmt --check --manifest-path python/Cargo.toml
	CARGO_TARGET_DIR=target/python cargo clippy --locked --manifest-path python/Cargo.toml -- -D warnings

# The build's last mile: the steps scripts/post_build.py runs after wasm-bindgen and wasm-opt, each
# on a copy of a captured staging folder (scripts/tests/fixtures/), with the pinned wasm-opt and
# esbuild and Node; no build, a few seconds. A step whose input changed shape fails here, naming
# what it no longer finds, before any release build.
test-build-steps:
	BUILD_STEPS_REQUIRE_TOOLS=1 python3 -m unittest discover -s scripts/tests

# After upgrading Trunk, wasm-bindgen or wasm-opt, or changing index.html's Trunk links (which
# test-build-steps checks): builds the tiny crate in scripts/tests/fixture-app/ with the app's
# index.html and Trunk.toml, and captures its staging folder as the new fixture; then run
# `make test-build-steps` to see which step no longer fits, fix it, and commit both.
build-fixtures: bootstrap
	python3 scripts/tests/refresh_fixtures.py

# The loader's routing is one Rust function (src/present/share/route.rs): this prints it as
# scripts/loader/route.js, with scripts/loader/route-cases.json (its answers for the links
# test-build-steps runs through the built loader in Node); commit both. `cargo test` fails while
# either is stale (tests/loader_route.rs).
loader-route:
	BLESS=1 cargo test --locked --test loader_route

# The release build with relative asset URLs, so it works from any sub-path (the e2e tests serve
# it from one).
dist:
	trunk build --release --public-url ./

# Native unit, property and CLI tests, then end to end: dist/ under a sub-path in headless Chromium,
# and what readers see in Firefox ESR and WebKitGTK.
unit: dist
	cargo test --locked
	cargo test --locked --test e2e
	cargo test --locked --test e2e_share
	cargo test --locked --test e2e_cluster
	cargo test --locked --test e2e_engines

# The engine as a Python package (python/: PyO3, maturin, an abi3 wheel for CPython ≥ 3.11).
python: bootstrap-test
	cd python && CARGO_TARGET_DIR=../target/python $(PYVENV)/bin/maturin build --release --locked -o ../target/wheels

# The package in the tool cache's venv against the CLI: every log format, Arrow sources, a Dask
# LocalCluster of two workers and a local Spark (python/tests/).
python-test: python
	$(PYVENV)/bin/pip install --quiet --disable-pip-version-check --force-reinstall --no-deps target/wheels/ratelimit_sim-0.1.0-*.whl
	cargo build --locked --bin ratelimit-sim
	cd python/tests && RATELIMIT_SIM=../../target/debug/ratelimit-sim $(PYVENV)/bin/python -m unittest -v test_package test_dask test_spark

# wasm-bindgen-test in headless Chromium: the app mounted for real, the engine's golden output.
wasm-test:
	cargo test --locked --target $(WASM) --test wasm_app --test wasm_charts --test wasm_determinism --test wasm_crash

size: bootstrap-test dist
	@scripts/size.sh dist

# The browser part times first visits beside two peers, which scripts/peers.sh prepares in the
# tool cache (never in this repository); a peer it cannot get is left out of the table.
bench: bootstrap-test dist python
	cargo bench --locked --bench engine
	scripts/peers.sh
	cargo bench --locked --bench browser
	@scripts/size.sh dist
	$(PYVENV)/bin/pip install --quiet --disable-pip-version-check --force-reinstall --no-deps target/wheels/ratelimit_sim-0.1.0-*.whl
	cargo build --locked --release --bin ratelimit-sim
	RATELIMIT_SIM=target/release/ratelimit-sim $(PYVENV)/bin/python python/benches/shadow.py

fuzz:
	FUZZ_CASES=1000000 cargo test --locked --release --test fuzz_query -- --nocapture

# The quick loop for engine speed in wasm: examples/ff.rs built as the app is (opt-level z,
# wasm-opt -Oz) and timed in Node, whose V8 runs wasm as Chromium does; `make bench` has the
# browser's figure.
ff-wasm: bootstrap
	cargo build --locked --release --target $(WASM) --example ff
	wasm-opt -Oz --low-memory-unused --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
		target/$(WASM)/release/examples/ff.wasm -o target/$(WASM)/release/examples/ff.opt.wasm
	node scripts/ff-wasm.mjs target/$(WASM)/release/examples/ff.opt.wasm

# Starts its own redis-server, runs ratelimit-sim redis for each row, and rewrites the README's
# table, docs/redis-measured.json and src/present/cluster/redis_measured.rs from that one run.
redis-table: bootstrap-test
	cargo build --locked --release --bin ratelimit-sim
	python3 scripts/redis-table.py

# Import circles between src/'s files, and imports from a lower layer into a higher one (the layers
# are LAYERS in scripts/module_cycles.py): `make test` fails on any, the script says which lines.
cycles:
	python3 scripts/module_cycles.py --self-test
	python3 scripts/module_cycles.py

clean:
	cargo clean
	rm -rf dist
