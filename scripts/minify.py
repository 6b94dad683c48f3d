#!/usr/bin/env python3
"""Trunk post-build step (run by post_build.py, last): minifies every JS and CSS file of a release
build with esbuild, and puts the stylesheets' new SRI hashes into index.html.

wasm-bindgen's glue, the loader and the stylesheets ship as written, indented and commented:
minified they are a quarter smaller even after brotli (the page: glue 5.8 → 4.1 KB, main.css
3.5 → 2.8 KB). esbuild, not Trunk's own `minify` (its JS minifier fails on the classic-script
glue and would leave it unminified, and it runs before these steps, which read the glue as
wasm-bindgen writes it). esbuild transforms one file at a time without a format, so it renames
no top-level name: the glue's global (`ratelimit_full`, …, name_globals.py) and its exports stay.

Trunk wrote each stylesheet's `integrity="sha384-…"` into index.html (the whole page's in the
<template> externalize_loader.py made); each is recomputed for the minified file, and a
stylesheet named there but missing, or a hash of another kind, stops the build. Scripts have no
integrity attribute here (the loader imports the glue), so nothing else refers to their bytes.

Release builds only; esbuild comes from scripts/bootstrap.sh (pinned, in the tool cache).
"""
import base64
import hashlib
import os
import re
import subprocess
import sys

from release_step import release_staging

INTEGRITY = re.compile(r'href="([^"]*?)([^"/]+\.css)"([^>]*?)integrity="([^"]*)"')


def fail(message):
    sys.exit(f"minify: {message}")


def sri(path):
    """The `sha384-…` integrity value of a file."""
    with open(path, "rb") as f:
        return "sha384-" + base64.b64encode(hashlib.sha384(f.read()).digest()).decode()


def minify(esbuild, path):
    """Rewrites `path` minified, in place."""
    done = subprocess.run([esbuild, path, "--minify", "--log-level=warning", "--outfile=" + path,
                           "--allow-overwrite"], check=False)
    if done.returncode != 0:
        fail(f"esbuild failed on {os.path.basename(path)}")


def main():
    release = release_staging("minify", "esbuild")
    if release is None:
        return
    staging, esbuild = release
    for name in sorted(os.listdir(staging)):
        if name.endswith((".js", ".css")):
            minify(esbuild, os.path.join(staging, name))
    html_path = os.path.join(staging, "index.html")
    with open(html_path, encoding="utf-8") as f:
        html = f.read()

    def rehash(m):
        prefix, name, between, old = m.groups()
        path = os.path.join(staging, name)
        if not os.path.exists(path):
            fail(f"index.html names {name}, which the build did not write")
        if not old.startswith("sha384-"):
            fail(f"{name}'s integrity is not sha384 ({old[:10]}…)")
        return f'href="{prefix}{name}"{between}integrity="{sri(path)}"'

    html, count = INTEGRITY.subn(rehash, html)
    if count == 0:
        fail("index.html has no stylesheet with an integrity hash: has Trunk's output changed?")
    with open(html_path, "w", encoding="utf-8") as f:
        f.write(html)


if __name__ == "__main__":
    main()
