#!/usr/bin/env python3
"""Trunk post-build hook: gives each wasm module's no-modules glue a global name of its own.

wasm-bindgen's no-modules glue (Trunk's worker type) declares `let wasm_bindgen = …` at the top
level of a classic script: a global binding, and a second such script on the same page fails
with "Identifier 'wasm_bindgen' has already been declared". A page can run three of them — a
first module hands over to the whole page (`ratelimit-full`), which opens the Embed panel's
builder (`ratelimit-embed`); a frame (`ratelimit-frame`) hands over to the whole page — so each
gets the name of its file: `ratelimit_full`, `ratelimit_frame`, `ratelimit_embed`. The loader
(externalize_loader.py), `app::whole_page` and static/embed-builder.js use those names. The log
worker's glue runs in a worker, a global of its own, and keeps its name.
"""
import os
import sys

staging = os.environ.get("TRUNK_STAGING_DIR")
if not staging:
    sys.exit("name_globals: TRUNK_STAGING_DIR is not set (run me as a Trunk post_build hook)")
DECLARATION = "let wasm_bindgen = (function(exports) {"
for module in ("ratelimit-full", "ratelimit-frame", "ratelimit-embed"):
    path = os.path.join(staging, f"{module}.js")
    if not os.path.exists(path):
        sys.exit(f"name_globals: {module}.js is not in the staging folder: index.html builds no {module} worker")
    with open(path, encoding="utf-8") as f:
        glue = f.read()
    if glue.count(DECLARATION) != 1 or not glue.startswith(DECLARATION):
        sys.exit(f"name_globals: {module}.js no longer starts with wasm-bindgen's declaration {DECLARATION!r}")
    glue = glue.replace(DECLARATION, f"let {module.replace('-', '_')} = (function(exports) {{", 1)
    with open(path, "w", encoding="utf-8") as f:
        f.write(glue)
