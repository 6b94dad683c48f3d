#!/usr/bin/env python3
"""Trunk post-build hook: runs the build's rewriting steps one after another.

Trunk starts all hooks of a stage at once, and two of these steps read and rewrite the same glue
files (`ratelimit-full.js`, …): as separate hooks, one could write back a file the other had
just rewritten, without the other's change. So this is the only post-build hook, and the steps
run in order, each on what the one before wrote:

1. name_globals.py: each classic-script glue gets a global name of its own;
2. externalize_loader.py: Trunk's inline wasm loader moves to a file (no 'unsafe-inline' CSP);
3. drop_stream_exports.py: wasm-streams' unused exported classes leave each module and glue;
4. shorten_imports.py: short names for each module's imports, in the wasm and its glue;
5. minify.py: every JS and CSS file minified, the stylesheets' SRI hashes redone.
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = ("name_globals.py", "externalize_loader.py", "drop_stream_exports.py", "shorten_imports.py", "minify.py")

for step in STEPS:
    done = subprocess.run([sys.executable, os.path.join(HERE, step)], check=False)
    if done.returncode != 0:
        sys.exit(f"post_build: {step} failed (exit {done.returncode})")
