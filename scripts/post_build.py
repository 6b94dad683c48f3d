#!/usr/bin/env python3
"""Trunk's post-build hook (Trunk.toml): runs the build's rewriting steps one after another in
Trunk's staging folder, the files `trunk build` is about to move into dist/.

Trunk starts all hooks of a stage at once, and several of these steps read and rewrite the same
files (a module's glue and wasm, index.html): as separate hooks, one could write back a file the
other had just rewritten, without the other's change. So this is the only post-build hook, and the steps
run in order, each on what the one before wrote:

1. externalize_loader.py: Trunk's inline wasm loader moves to a file (no 'unsafe-inline' CSP);
2. drop_stream_exports.py: wasm-streams' unused exported classes leave each module and glue, and
   each module is optimised once more without them;
3. shorten_imports.py: short names for each module's imports, in the wasm and its glue;
4. minify.py: every JS and CSS file minified, the stylesheets' SRI hashes redone.

Each step stops the build, naming what it did not find, when its input does not look as it
expects (a wasm-bindgen or Trunk upgrade): scripts/tests runs each on a captured staging folder
(`make test-build-steps`). With POST_BUILD_CAPTURE=DIR set, the staging folder is first copied to
DIR as the steps will find it: that is how `make build-fixtures` makes those fixtures.
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = ("externalize_loader.py", "drop_stream_exports.py", "shorten_imports.py", "minify.py")

capture = os.environ.get("POST_BUILD_CAPTURE")
if capture:
    staging = os.environ.get("TRUNK_STAGING_DIR")
    if not staging:
        sys.exit("post_build: TRUNK_STAGING_DIR is not set (post_build.py runs me, as Trunk's post-build hook)")
    shutil.rmtree(capture, ignore_errors=True)
    shutil.copytree(staging, capture)

for step in STEPS:
    done = subprocess.run([sys.executable, os.path.join(HERE, step)], check=False)
    if done.returncode != 0:
        sys.exit(f"post_build: {step} failed (exit {done.returncode})")
