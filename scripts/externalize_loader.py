#!/usr/bin/env python3
"""A step of every build (`trunk serve` too), run by post_build.py first: moves Trunk's inline
loader out of index.html into a file of its own, and makes it pick the module a link needs.

Reads, in Trunk's staging folder, index.html: Trunk's one inline `<script type="module">`, whose
import line names the page's module (`import init, * as bindings from '<public url>ratelimit-
playground-<hash>.js';`), Trunk's preload links for that module, and the stylesheet links of
cluster-*.css and whole-*.css. Reads, from the source, the textbook algorithms' `algo=` names, at
the head of src/sim/products/mod.rs's ALGO_NAMES (any other `algo` is a product model's).

Writes `loader-<hash of its content>.js` into the staging folder, and index.html with
`<script type="module" src="./loader-….js">` in place of the inline script, without the preloads,
and with the two whole-page stylesheet links moved into `<template id="whole-page-css">`.

The loader starts `ratelimit-full`, the whole page (src/bin/ratelimit-full.rs, which draws a
frame for an embed link), for a multi-node or compare link or a page link to a product model,
after adding the stylesheets in the template; `ratelimit-frame` (src/bin/ratelimit-frame.rs, one
server's cards) for any other frame's link (`embed=1`); the page's first module for every other
link. The first two are ES modules Trunk builds without loading (index.html: its worker type with
wasm-bindgen's `web` target), which the loader imports. It also defines `rlpStartWhole`, with
which a first module hands over to the whole page (app::whole_page).

Why: a strict Content-Security-Policy (no 'unsafe-inline') then allows every script the page
runs by origin alone, `script-src 'self' 'wasm-unsafe-eval'` (static/_headers). The file name
carries a hash of its content, like Trunk's other assets, so it can be cached forever. The
preloads go because a frame would fetch the page's module with them, for nothing; the whole
page's stylesheets wait because the first modules never show what they style.

Whatever it does not find as described stops the build, naming it.
"""
import hashlib
import json
import os
import re
import sys

staging = os.environ.get("TRUNK_STAGING_DIR")
if not staging:
    sys.exit("externalize_loader: TRUNK_STAGING_DIR is not set (post_build.py runs me, as Trunk's post-build hook)")
index = os.path.join(staging, "index.html")
with open(index, encoding="utf-8") as f:
    html = f.read()

inline = re.compile(r'<script type="module">(.*?)</script>', re.DOTALL)
scripts = inline.findall(html)
if len(scripts) != 1:
    sys.exit(f"externalize_loader: expected one inline module script in index.html, found {len(scripts)}")
trunk = scripts[0].strip()
static_import = re.compile(r"^import init, \* as bindings from '([^']*/)([^'/]+\.js)';$", re.MULTILINE)
found = static_import.findall(trunk)
if len(found) != 1:
    sys.exit("externalize_loader: Trunk's loader no longer imports the page's module as this step rewrites it, "
             "\"import init, * as bindings from '<public url><module>.js';\" on a line of its own")
base = found[0][0]  # "./" for a release build (--public-url ./), "/" for trunk serve
page = static_import.sub(r"const bindings = await import('\1\2');\nconst init = bindings.default;", trunk)
def start_module(module, first=""):
    """Starts `module`, which Trunk builds but does not load (its worker type) with wasm-bindgen's
    `web` target (index.html's data-bindgen-target): an ES module whose default export starts it.
    Imports it, then runs `first`, then starts it."""
    return f"""const {{ default: init }} = await import("{base}{module}.js");
{first}const wasm = await init({{ module_or_path: "{base}{module}_bg.wasm" }});
dispatchEvent(new CustomEvent("TrunkApplicationStarted", {{detail: {{wasm}}}}));"""


indent = lambda code: "\n".join("  " + line if line else line for line in code.splitlines())
# A link the page's and the frame's first modules do not draw: a multi-node one, as
# `cluster::presets::is_cluster` and `LinkView` read it, Compare all (a frame's `show=compare`), and
# the whole page runs it (`app::WholeApp`: a frame for an embed link). Should this miss one, the
# first module hands over to the whole page itself (app::whole_page): only slower.
multi_node = (
    'query.get("view") === "cluster" || Number(query.get("nodes")) > 1'
    ' || (query.has("store") && query.get("store") !== "local")'
)
compare = '(embed ? (query.get("show") || "").split(",").includes("compare") : query.get("view") === "compare")'
# A page link to a product model (`algo=nginx`, …): the page's first module has no product models
# (`sim::products::models`), so the whole page runs it; a frame has them. Any `algo` that is not a
# textbook algorithm is a product's (or unknown, which the whole page explains): the textbook
# names are the first entries of the engine's table of `algo` values, `sim::products::ALGO_NAMES`,
# so a product added to the registry needs nothing here.
registry = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "sim", "products", "mod.rs"), encoding="utf-8").read()
algo_names = re.search(r"pub const ALGO_NAMES: [^=]*= \{(.*?)\n\};", registry, re.S)
textbook = re.findall(r'\("(\w+)", Algorithm::(?:TokenBucket|FixedWindow|SlidingWindow|SlidingLog|Gcra)\)', algo_names.group(1) if algo_names else "")
if sorted(textbook) != ["fixed_window", "gcra", "sliding_log", "sliding_window", "token_bucket"]:
    sys.exit(f"externalize_loader: expected the five textbook names in src/sim/products/mod.rs's ALGO_NAMES, found {textbook}")
product = f'(!embed && query.has("algo") && !{json.dumps(sorted(textbook))}.includes(query.get("algo")))'
# The whole page's own stylesheets (the multi-node view's, and Compare all's and the panels')
# are its alone: the first modules keep them in a <template>, and startWhole below adds them first
# (for a link here, or on a first module's hand-over), so a page or frame that never shows those
# parts does not download them.
whole_css = re.compile(r'\s*<link rel="stylesheet" href="[^"]*/(?:cluster|whole)-[0-9a-f]+\.css"[^>]*>')
links = [link.strip() for link in whole_css.findall(html)]
if len(links) != 2:
    sys.exit(f"externalize_loader: expected the cluster-*.css and whole-*.css links in index.html, found {links}")
html = whole_css.sub("", html, count=1)
html = whole_css.sub(f'\n    <template id="whole-page-css">{"".join(links)}</template>', html, count=1)
whole_page_css = """const css = document.getElementById("whole-page-css");
const styled = Promise.all([...(css ? css.content.children : [])].map((sheet) => new Promise((settled) => {
  const link = sheet.cloneNode();
  link.onload = link.onerror = settled;
  document.head.append(link);
})));
css?.remove();
"""
# The whole page is started by one function: here, for a link that needs it, and by a first module
# on a hand-over (app::whole_page calls it as `rlpStartWhole`), so there is one copy of how.
start_whole = start_module("ratelimit-full", "await styled;\n").replace(
    'dispatchEvent(new CustomEvent("TrunkApplicationStarted", {detail: {wasm}}));', "return wasm;"
)
if "return wasm;" not in start_whole:
    sys.exit("externalize_loader: the whole page's start no longer ends as this hook expects")
body = (
    "// Starts the whole page's module (ratelimit-full), its own stylesheets first; resolves once\n"
    + "// it has mounted. A first module hands over to it with this (app::whole_page).\n"
    + "const startWhole = async () => {\n"
    + indent(whole_page_css + start_whole)
    + "\n};\n"
    + "globalThis.rlpStartWhole = startWhole;\n"
    + "// A multi-node or compare link, or a page link to a product model, runs the whole page's\n"
    + "// module (ratelimit-full: a frame for an embed link); any other frame (embed=1)\n"
    + "// ratelimit-frame, one server's cards; any other link the page's first module, one server's\n"
    + "// limiter.\n"
    + "const query = new URLSearchParams(location.search);\n"
    + 'const embed = query.get("embed") === "1";\n'
    + f"if ({multi_node} || {compare} || {product}) {{\n"
    + indent('const wasm = await startWhole();\ndispatchEvent(new CustomEvent("TrunkApplicationStarted", {detail: {wasm}}));')
    + "\n} else if (embed) {\n"
    + indent(start_module("ratelimit-frame"))
    + "\n} else {\n"
    + indent(page)
    + "\n}\n"
)
preloads = re.compile(r'<link rel="(?:modulepreload|preload)" href="[^"]*ratelimit-playground-[^"]*"[^>]*>')
html = preloads.sub("", html)
name = f"loader-{hashlib.sha256(body.encode()).hexdigest()[:16]}.js"
with open(os.path.join(staging, name), "w", encoding="utf-8") as f:
    f.write(body)
html = inline.sub(f'<script type="module" src="./{name}"></script>', html)
with open(index, "w", encoding="utf-8") as f:
    f.write(html)
