#!/usr/bin/env python3
"""A step of every build, run by post_build.py after drop_stream_exports.py: gives each wasm
module's imports from its glue, and the exports its glue calls closures through, short names.

Reads each `<name>_bg.wasm` in Trunk's staging folder and its glue `<name>.js` (the page's first
module, the log worker, the embed builder, a frame's and the whole page's). Writes both back:

- each import named `__wbg_<name>_<16 hex>` or `__wbindgen_generic_<16 hex>` becomes `a`, `b`,
  … `aB`, in the wasm's import section and in the glue's import object;
- the module every import comes from, `./<name>_bg.js`, becomes `a`, in each import entry of the
  wasm and as the glue's import object's key (it is written once per import: 184 times in the
  page's first module, ~0.2 KB of its brotli);
- each export named `wasm_bindgen__convert__closures_____invoke__h<16 hex>[_<n>]` becomes `_a`,
  `_b`, …, in the wasm's export section and where the glue calls it as `wasm.<name>`.

The wasm's other sections are copied byte for byte; the glue's own wrapper function of an
export's name is a local name, which minify.py shortens.

Why: wasm-bindgen writes each of those names twice, in the wasm and in the glue, and their
hashes do not compress: several KB of brotli on the page.

An import's name is replaced in the glue only where it occurs exactly once, and an export's only
where it is called as `wasm.<name>`; an export read any other way, or a name of either prefix
hashed otherwise (a wasm-bindgen upgrade), stops the build rather than guess.
"""
import os
import re
import sys

from wasmfile import exports, imports, sections, uleb

WBG = re.compile(r"^__wbg_[A-Za-z0-9_]+_[0-9a-f]{16}$")
GENERIC = re.compile(r"^__wbindgen_generic_[0-9a-f]{16}$")
GLUE_MODULE = re.compile(r"^\./[A-Za-z0-9_-]+_bg\.js$")
SHORT_MODULE = b"a"
CLOSURE_PREFIX = "wasm_bindgen__convert__closures_"
HASHED_EXPORT = re.compile(rf"^{CLOSURE_PREFIX}+invoke__h[0-9a-f]{{16}}(_[0-9]+)?$")
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def short(k):
    """The k-th short name: a … Z, aa … ZZ, …"""
    name, k = "", k + 1
    while k:
        k -= 1
        name = LETTERS[k % 52] + name
        k //= 52
    return name


def unexpected(wasm_name, what, name, shape):
    """Stops the build: `name` looks like one this step renames, but not exactly (an upgrade)."""
    sys.exit(f"shorten_imports: {wasm_name} {what} {name}, which is not shaped {shape} as the names this step "
             "shortens are: has wasm-bindgen changed how it names them?")


def rename_exports(body, renamed, wasm_name):
    """An export section's body with its hashed closure exports renamed `_a`, `_b`, … (added to
    `renamed`)."""
    entries = list(exports(body))
    taken = {name for name, _ in entries}
    new = bytearray(uleb(len(entries)))
    for name, description in entries:
        if name.startswith(CLOSURE_PREFIX) and not HASHED_EXPORT.match(name):
            unexpected(wasm_name, "exports", name, "wasm_bindgen__convert__closures_____invoke__h<16 hex>[_<n>]")
        if HASHED_EXPORT.match(name):
            short_name = "_" + short(len(renamed))
            if short_name in taken:
                sys.exit(f"shorten_imports: an export is already named {short_name}")
            name = renamed.setdefault(name, short_name)
        encoded = name.encode()
        new += uleb(len(encoded)) + encoded + description
    return bytes(new)


def rename_imports(wasm, wasm_name):
    """The wasm with its `__wbg_…` and `__wbindgen_generic_…` imports, their module and its hashed
    exports renamed, and the three renamings (the module's: its old name, or `None`)."""
    out, renamed, exported, glue_module = bytearray(wasm[:8]), {}, {}, None
    for sid, body in sections(wasm):
        if sid == 7:
            body = rename_exports(body, exported, wasm_name)
        if sid == 2:
            entries = list(imports(body))
            new = bytearray(uleb(len(entries)))
            for module, name, kind, description in entries:
                if name.startswith("__wbg_") and not WBG.match(name):
                    unexpected(wasm_name, "imports", name, "__wbg_<name>_<16 hex>")
                if WBG.match(name) or GENERIC.match(name):
                    name = renamed.setdefault(name, short(len(renamed)))
                if GLUE_MODULE.match(module.decode("utf-8", "replace")):
                    if glue_module not in (None, module):
                        sys.exit(f"shorten_imports: {wasm_name} imports from {glue_module!r} and {module!r}, not one glue")
                    glue_module, module = module, SHORT_MODULE
                encoded = name.encode()
                new += uleb(len(module)) + module + uleb(len(encoded)) + encoded + bytes([kind]) + description
            body = bytes(new)
        out += bytes([sid]) + uleb(len(body)) + body
    return bytes(out), renamed, exported, glue_module and glue_module.decode()


def main():
    staging = os.environ.get("TRUNK_STAGING_DIR")
    if not staging:
        sys.exit("shorten_imports: TRUNK_STAGING_DIR is not set (post_build.py runs me, as Trunk's post-build hook)")
    for wasm_name in sorted(f for f in os.listdir(staging) if f.endswith("_bg.wasm")):
        js_path = os.path.join(staging, wasm_name[: -len("_bg.wasm")] + ".js")
        wasm_path = os.path.join(staging, wasm_name)
        if not os.path.exists(js_path):
            sys.exit(f"shorten_imports: {wasm_name} has no glue {os.path.basename(js_path)} beside it")
        with open(wasm_path, "rb") as f:
            wasm, renamed, exported, glue_module = rename_imports(f.read(), wasm_name)
        with open(js_path, encoding="utf-8") as f:
            js = f.read()
        if glue_module:
            key = f'"{glue_module}":'
            if js.count(key) != 1:
                sys.exit(f"shorten_imports: the import object's key {key} occurs {js.count(key)} times in "
                         f"{os.path.basename(js_path)}, not once")
            js = js.replace(key, SHORT_MODULE.decode() + ":")
        for old, new in renamed.items():
            if js.count(old) != 1:
                sys.exit(f"shorten_imports: {old} occurs {js.count(old)} times in {os.path.basename(js_path)}, not once")
            js = js.replace(old, new)
        for old, new in exported.items():
            called = re.compile(rf"\bwasm\.{old}\b")
            js, uses = called.subn("wasm." + new, js)
            other = re.search(rf"[.'\"`\[]{old}\b", js)
            if uses == 0 or other:
                sys.exit(f"shorten_imports: export {old} is called {uses} times as wasm.{old} in {os.path.basename(js_path)}"
                         + (f" and read otherwise: {js[other.start() - 20:other.end()]!r}" if other else ""))
        with open(wasm_path, "wb") as f:
            f.write(wasm)
        with open(js_path, "w", encoding="utf-8") as f:
            f.write(js)


if __name__ == "__main__":
    main()
