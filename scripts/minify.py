#!/usr/bin/env python3
"""A step of release builds, run by post_build.py last: minifies every JS and CSS file in Trunk's
staging folder with esbuild, and puts the stylesheets' new SRI hashes into index.html.

Reads every `*.js` and `*.css` in the staging folder (each module's glue, the loader
externalize_loader.py wrote, static/embed-builder.js, Trunk's log-worker shim, the stylesheets)
and index.html's `integrity="sha384-…"` of each stylesheet, in the head and in the <template>s
(the whole page's and a frame's). Writes each file back minified, and index.html with each hash recomputed for the
minified file.

Why: wasm-bindgen's glue, the loader and the stylesheets are written indented and commented;
minified they are about a quarter smaller even after brotli. esbuild rather than Trunk's own
`minify`, which runs before these steps (they read the glue as wasm-bindgen writes it). esbuild
transforms one file at a time, so a classic script keeps its top-level names (the embed builder's
global `wasm_bindgen`) and an ES module its exports.

Scripts carry no integrity attribute here (the loader imports the glue), so nothing else refers to
their bytes. A stylesheet index.html names but the build did not write, a hash of another kind, or
no stylesheet hash at all, stops the build.

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
