#!/usr/bin/env python3
"""Trunk post-build hook: moves Trunk's inline module loader out of index.html into its own file.

A strict Content-Security-Policy (no 'unsafe-inline') then allows every script the page runs by
origin alone: script-src 'self' 'wasm-unsafe-eval'. The file name carries a hash of its content,
like Trunk's other assets, so it can be cached forever.
"""
import hashlib
import os
import re
import sys

staging = os.environ.get("TRUNK_STAGING_DIR")
if not staging:
    sys.exit("externalize_loader: TRUNK_STAGING_DIR is not set (run me as a Trunk post_build hook)")
index = os.path.join(staging, "index.html")
with open(index, encoding="utf-8") as f:
    html = f.read()

inline = re.compile(r'<script type="module">(.*?)</script>', re.DOTALL)
scripts = inline.findall(html)
if len(scripts) != 1:
    sys.exit(f"externalize_loader: expected one inline module script in index.html, found {len(scripts)}")
body = scripts[0].strip() + "\n"
name = f"loader-{hashlib.sha256(body.encode()).hexdigest()[:16]}.js"
with open(os.path.join(staging, name), "w", encoding="utf-8") as f:
    f.write(body)
html = inline.sub(f'<script type="module" src="./{name}"></script>', html)
with open(index, "w", encoding="utf-8") as f:
    f.write(html)
