#!/usr/bin/env python3
"""A step of every build (`trunk serve` too), run by post_build.py first: puts the committed loader
(scripts/loader/) in place of Trunk's inline one, so a link starts the module it needs.

Reads, in Trunk's staging folder, index.html: Trunk's one inline `<script type="module">`, of
which it takes only the page's module's file names and the folder they are served from (`import
init, * as bindings from '<public url>ratelimit-playground-<hash>.js';` and the `_bg.wasm` beside
it), after checking it does nothing else than scripts/loader/loader.js does for that module;
Trunk's preload links for that module; the stylesheet links of cluster-*.css and whole-*.css.
Reads, beside this file, scripts/loader/route.js, the routing `route(search)` printed from
src/present/share/route.rs (`make loader-route`; tests/loader_route.rs fails while it is stale),
and scripts/loader/loader.js, the hand-written rest.

Writes `loader-<hash of its content>.js` into the staging folder: route.js, then loader.js, with
its placeholders ({{base}}, {{page_glue}}, {{page_wasm}}) filled in from Trunk's script. Writes
index.html with `<script type="module" async src="./loader-….js">` in place of the inline script
(async: it starts the module's downloads as soon as it arrives, not after the body is parsed),
without the preloads, with the two whole-page stylesheet links moved into
`<template id="whole-page-css">`, and a frame's stylesheet (embed-*.css) into
`<template id="frame-parts">`, which static/first-paint.js adds for an embed link.

The loader starts `ratelimit-full`, the whole page (src/bin/ratelimit-full.rs, which draws a
frame for an embed link), for a link `route` sends there (multi-node, Compare all, a page link to
a product model), after adding the stylesheets in the template; `ratelimit-frame`
(src/bin/ratelimit-frame.rs, one server's cards) for any other frame's link (`embed=1`); the
page's first module for every other link. The first two are ES modules Trunk builds without
loading (index.html: its worker type with wasm-bindgen's `web` target), which the loader imports.
It also defines `rlpStartWhole`, with which a first module hands over to the whole page
(app::split::whole_page).

Why: a strict Content-Security-Policy (no 'unsafe-inline') then allows every script the page
runs by origin alone, `script-src 'self' 'wasm-unsafe-eval'` (static/_headers). The file name
carries a hash of its content, like Trunk's other assets, so it can be cached forever. The
preloads go because a frame would fetch the page's module with them, for nothing; the whole
page's stylesheets wait because the first modules never show what they style.

Whatever it does not find as described stops the build, naming it.
"""
import hashlib
import os
import re
import sys

LOADER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "loader")


def fail(message):
    sys.exit(f"externalize_loader: {message}")


staging = os.environ.get("TRUNK_STAGING_DIR")
if not staging:
    fail("TRUNK_STAGING_DIR is not set (post_build.py runs me, as Trunk's post-build hook)")
index = os.path.join(staging, "index.html")
with open(index, encoding="utf-8") as f:
    html = f.read()

# Trunk's loader, which scripts/loader/loader.js does for the page's module: what it names is all
# this step takes from it. Anything else in it (an initializer, another binding) stops the build,
# for loader.js would not do it.
inline = re.compile(r'<script type="module">(.*?)</script>', re.DOTALL)
scripts = inline.findall(html)
if len(scripts) != 1:
    fail(f"expected one inline module script in index.html, found {len(scripts)}")
trunk = scripts[0].strip()
static_import = re.compile(r"^import init, \* as bindings from '([^']*/)([^'/]+\.js)';$", re.MULTILINE)
found = static_import.findall(trunk)
if len(found) != 1:
    fail("Trunk's loader no longer imports the page's module as scripts/loader/loader.js does, "
         "\"import init, * as bindings from '<public url><module>.js';\" on a line of its own")
base, page_glue = found[0]  # base: "./" for a release build (--public-url ./), "/" for trunk serve
trunk_shape = re.compile(
    r"import init, \* as bindings from '[^']*';\s*"
    rf"const wasm = await init\(\{{ module_or_path: '{re.escape(base)}([^'/]+_bg\.wasm)' \}}\);\s*"
    r"window\.wasmBindings = bindings;\s*"
    r'dispatchEvent\(new CustomEvent\("TrunkApplicationStarted", \{detail: \{wasm\}\}\)\);'
)
shape = trunk_shape.fullmatch(trunk)
if not shape:
    fail("Trunk's loader no longer does what scripts/loader/loader.js does for the page's module "
         "(import, init with its wasm beside it, window.wasmBindings, TrunkApplicationStarted); it is now:\n" + trunk)
page_wasm = shape.group(1)

# The loader: the routing printed from Rust (route.js), then the hand-written rest (loader.js),
# with where Trunk put the modules filled in.
sources = []
for name in ("route.js", "loader.js"):
    path = os.path.join(LOADER, name)
    if not os.path.isfile(path):
        fail(f"scripts/loader/{name} is missing" + (" (`make loader-route` prints it)" if name == "route.js" else ""))
    with open(path, encoding="utf-8") as f:
        sources.append(f.read())
if "const route = (search) =>" not in sources[0]:
    fail("scripts/loader/route.js does not define route(search): run `make loader-route`")
body = "\n".join(sources)
for placeholder, value in (("{{base}}", base), ("{{page_glue}}", page_glue), ("{{page_wasm}}", page_wasm)):
    if placeholder not in body:
        fail(f"scripts/loader/loader.js no longer has {placeholder}, which this step fills in")
    body = body.replace(placeholder, value)
left = re.findall(r"\{\{\w+\}\}", body)
if left:
    fail(f"scripts/loader/loader.js has placeholders this step does not fill in: {sorted(set(left))}")

# The whole page's own stylesheets (the multi-node view's, and Compare all's and the panels')
# are its alone: they wait in a <template>, which the loader's startWhole adds first (for a link
# that needs the whole page, or on a first module's hand-over).
whole_css = re.compile(r'\s*<link rel="stylesheet" href="[^"]*/(?:cluster|whole)-[0-9a-f]+\.css"[^>]*>')
links = [link.strip() for link in whole_css.findall(html)]
if len(links) != 2:
    fail(f"expected the cluster-*.css and whole-*.css links in index.html, found {links}")
html = whole_css.sub("", html, count=1)
html = whole_css.sub(f'\n    <template id="whole-page-css">{"".join(links)}</template>', html, count=1)
# A frame's own stylesheet is a frame's alone: it waits in a <template> in its place (before
# first-paint.js, which adds it for an embed link).
embed_css = re.compile(r'<link rel="stylesheet" href="[^"]*/embed-[0-9a-f]+\.css"[^>]*>')
found = embed_css.findall(html)
if len(found) != 1:
    fail(f"expected one embed-*.css link in index.html, found {found}")
def frame_parts(link):
    """The frame's stylesheet link, with the id the loader finds it by, and its fallback script
    (static/frame-fallback.js), in their template."""
    with_id = re.sub(r"/?>$", ' id="frame-css"/>', link.group(0))
    return f'<template id="frame-parts">{with_id}<script src="./frame-fallback.js"></script></template>'


html = embed_css.sub(frame_parts, html, count=1)
preloads = re.compile(r'<link rel="(?:modulepreload|preload)" href="[^"]*ratelimit-playground-[^"]*"[^>]*>')
html = preloads.sub("", html)
name = f"loader-{hashlib.sha256(body.encode()).hexdigest()[:16]}.js"
with open(os.path.join(staging, name), "w", encoding="utf-8") as f:
    f.write(body)
html = inline.sub(f'<script type="module" async src="./{name}"></script>', html)
with open(index, "w", encoding="utf-8") as f:
    f.write(html)
