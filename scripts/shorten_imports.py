#!/usr/bin/env python3
"""Trunk post-build hook: gives each wasm module's imports from its wasm-bindgen glue short names.

wasm-bindgen names every function the wasm imports from its JS glue `__wbg_<name>_<16 hex>`, and
writes each name twice: in the wasm's import section and in the glue. The hash part does not
compress: over the page's ~240 imports that is ~5.8 KB of brotli. This renames each such import
to a short name (`a`, `b`, … `aB`) in both files, in the staging folder, after wasm-opt. Nothing
else changes: the wasm's other sections are copied byte for byte, and a name is replaced in the
glue only where it occurs exactly once (anything else stops the build, rather than guess).

Runs on every `<name>_bg.wasm` with its `<name>.js` beside it: the page's module, the log worker,
the embed builder and the frame.
"""
import os
import re
import sys

from wasmfile import imports, sections, uleb

WBG = re.compile(r"^__wbg_[A-Za-z0-9_]+_[0-9a-f]{16}$")
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def short(k):
    """The k-th short name: a … Z, aa … ZZ, …"""
    name, k = "", k + 1
    while k:
        k -= 1
        name = LETTERS[k % 52] + name
        k //= 52
    return name


def rename_imports(wasm):
    """The wasm with its `__wbg_…` imports renamed, and the renaming."""
    out, renamed = bytearray(wasm[:8]), {}
    for sid, body in sections(wasm):
        if sid == 2:
            entries = list(imports(body))
            new = bytearray(uleb(len(entries)))
            for module, name, kind, description in entries:
                if WBG.match(name):
                    name = renamed.setdefault(name, short(len(renamed)))
                encoded = name.encode()
                new += uleb(len(module)) + module + uleb(len(encoded)) + encoded + bytes([kind]) + description
            body = bytes(new)
        out += bytes([sid]) + uleb(len(body)) + body
    return bytes(out), renamed


def main():
    staging = os.environ.get("TRUNK_STAGING_DIR")
    if not staging:
        sys.exit("shorten_imports: TRUNK_STAGING_DIR is not set (run me as a Trunk post_build hook)")
    for wasm_name in sorted(f for f in os.listdir(staging) if f.endswith("_bg.wasm")):
        js_path = os.path.join(staging, wasm_name[: -len("_bg.wasm")] + ".js")
        wasm_path = os.path.join(staging, wasm_name)
        if not os.path.exists(js_path):
            sys.exit(f"shorten_imports: {wasm_name} has no glue {os.path.basename(js_path)} beside it")
        with open(wasm_path, "rb") as f:
            wasm, renamed = rename_imports(f.read())
        with open(js_path, encoding="utf-8") as f:
            js = f.read()
        for old, new in renamed.items():
            if js.count(old) != 1:
                sys.exit(f"shorten_imports: {old} occurs {js.count(old)} times in {os.path.basename(js_path)}, not once")
            js = js.replace(old, new)
        with open(wasm_path, "wb") as f:
            f.write(wasm)
        with open(js_path, "w", encoding="utf-8") as f:
            f.write(js)


if __name__ == "__main__":
    main()
