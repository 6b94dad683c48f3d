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

WBG = re.compile(r"^__wbg_[A-Za-z0-9_]+_[0-9a-f]{16}$")
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def leb(b, i):
    """An unsigned LEB128 at b[i]: (value, index after it)."""
    value = shift = 0
    while True:
        byte = b[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def uleb(n):
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def short(k):
    """The k-th short name: a … Z, aa … ZZ, …"""
    name, k = "", k + 1
    while k:
        k -= 1
        name = LETTERS[k % 52] + name
        k //= 52
    return name


def import_end(body, k):
    """The index after the import description starting at body[k] (its kind byte)."""
    kind = body[k]
    k += 1
    if kind == 0:  # function: type index
        _, k = leb(body, k)
    elif kind in (1, 2):  # table (reftype + limits) or memory (limits)
        if kind == 1:
            k += 1
        flags, k = leb(body, k)
        _, k = leb(body, k)
        if flags & 1:
            _, k = leb(body, k)
    elif kind == 3:  # global: valtype + mutability
        k += 2
    else:
        sys.exit(f"shorten_imports: unknown import kind {kind}")
    return k


def rename_imports(wasm):
    """The wasm with its `__wbg_…` imports renamed, and the renaming."""
    assert wasm[:4] == b"\0asm", "not a wasm module"
    out, i, renamed = bytearray(wasm[:8]), 8, {}
    while i < len(wasm):
        sid = wasm[i]
        size, j = leb(wasm, i + 1)
        body = wasm[j:j + size]
        if sid == 2:
            count, k = leb(body, 0)
            new = bytearray(uleb(count))
            for _ in range(count):
                n, k2 = leb(body, k)
                module, k = body[k2:k2 + n], k2 + n
                n, k2 = leb(body, k)
                name, k = body[k2:k2 + n].decode(), k2 + n
                end = import_end(body, k)
                if WBG.match(name):
                    name = renamed.setdefault(name, short(len(renamed)))
                encoded = name.encode()
                new += uleb(len(module)) + module + uleb(len(encoded)) + encoded + body[k:end]
                k = end
            body = bytes(new)
        out += bytes([sid]) + uleb(len(body)) + body
        i = j + size
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
