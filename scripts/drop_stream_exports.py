#!/usr/bin/env python3
"""A step of release builds, run by post_build.py after externalize_loader.py: drops wasm-streams'
exported classes, which no module of this app uses, from each module and its glue.

Reads each `<name>_bg.wasm` in Trunk's staging folder (after wasm-opt) and its glue `<name>.js`.
Writes both back, for each module that exports the classes:

- the wasm without its exports named `intounderlying…` and `__wbg_intounderlying…_free`, passed
  again through `wasm-opt -Oz --low-memory-unused` (Trunk's optimisation, index.html), which drops
  the code only they reached and optimises what is left anew: a second round finds more once that
  code is gone (1.4 KB brotli off the whole page, 0.3 to 0.8 KB off each other module, measured
  when it came in);
- the glue without the three classes (each with its `Symbol.dispose` line and, in a no-modules
  glue, `exports.X = X;`), their `FinalizationRegistry` constants and the `ReadableStreamType`
  enum only they used.

Why: leptos turns on server_fn's "browser" feature whatever features it is given (0.8.23, and
0.9.0-rc1 too), and with it wasm-streams, whose `IntoUnderlyingSource`, `IntoUnderlyingSink` and
`IntoUnderlyingByteSource` are `#[wasm_bindgen]` exports: thirteen exports that keep their code
alive in every module, and three JS classes in every glue. Nothing here makes a stream (no server
functions), and nothing in the wasm can make one of those objects (the glue has no constructor
for them). No feature turns them off at the source.

Release builds only (a debug build is not passed through wasm-opt). Whatever does not look
exactly as expected stops the build before anything is written, rather than guess: nothing of the
classes may be left in a glue, and a glue that has them needs a wasm whose exports are named as
above.
"""
import os
import re
import subprocess
import sys

from release_step import release_staging
from wasmfile import leb, sections, uleb

EXPORT = re.compile(r"^(__wbg_)?intounderlying(bytesource|sink|source)(_\w+)?$")
CLASSES = ("IntoUnderlyingByteSource", "IntoUnderlyingSink", "IntoUnderlyingSource")


def fail(message):
    sys.exit(f"drop_stream_exports: {message}")


def drop_exports(wasm):
    """The wasm without the stream classes' exports, and how many went."""
    out, dropped = bytearray(wasm[:8]), 0
    for sid, body in sections(wasm):
        if sid == 7:
            count, i = leb(body, 0)
            kept = []
            for _ in range(count):
                start = i
                n, i = leb(body, i)
                name = body[i:i + n].decode("utf-8", "replace")
                i += n + 1  # the name, then the export's kind
                _, i = leb(body, i)
                if EXPORT.match(name):
                    dropped += 1
                else:
                    kept.append(body[start:i])
            body = uleb(len(kept)) + b"".join(kept)
        out += bytes([sid]) + uleb(len(body)) + body
    return bytes(out), dropped


def drop_glue(js, name):
    """The glue without the stream classes and what only they used."""
    lines = js.split("\n")
    out, i = [], 0
    while i < len(lines):
        line = lines[i]
        cls = re.match(r"^\s*(export )?class (\w+) \{$", line)
        if cls and cls.group(2) in CLASSES:
            end = f"if (Symbol.dispose) {cls.group(2)}.prototype[Symbol.dispose] = {cls.group(2)}.prototype.free;"
            j = i
            while j < len(lines) and lines[j].strip() != end:
                j += 1
            if j == len(lines):
                fail(f"{name}: class {cls.group(2)} does not end with {end!r}")
            i = j + 1
            if i < len(lines) and lines[i].strip() == f"exports.{cls.group(2)} = {cls.group(2)};":
                i += 1
            continue
        fin = re.match(r"^\s*const (\w+)Finalization = \(typeof FinalizationRegistry === 'undefined'\)$", line)
        if fin and fin.group(1) in CLASSES:
            if i + 2 >= len(lines) or not lines[i + 2].rstrip().endswith(");"):
                fail(f"{name}: {fin.group(1)}Finalization is not the three lines expected")
            i += 3
            continue
        out.append(line)
        i += 1
    js = "\n".join(out)
    enum = re.compile(r"^\s*const __wbindgen_enum_ReadableStreamType = \[[^\]]*\];\n", re.M)
    if js.count("__wbindgen_enum_ReadableStreamType") == 1:
        js = enum.sub("", js, count=1)
    for left in ("IntoUnderlying", "intounderlying", "__wbindgen_enum_ReadableStreamType"):
        if left in js:
            fail(f"{name}: {left!r} is still in the glue after dropping the stream classes")
    return js


def main():
    release = release_staging("drop_stream_exports", "wasm-opt")
    if release is None:
        return
    staging, wasm_opt = release
    for wasm_name in sorted(f for f in os.listdir(staging) if f.endswith("_bg.wasm")):
        wasm_path = os.path.join(staging, wasm_name)
        js_path = os.path.join(staging, wasm_name[: -len("_bg.wasm")] + ".js")
        js_name = os.path.basename(js_path)
        if not os.path.exists(js_path):
            fail(f"{wasm_name} has no glue {js_name} beside it")
        with open(wasm_path, "rb") as f:
            wasm, dropped = drop_exports(f.read())
        with open(js_path, encoding="utf-8") as f:
            js = f.read()
        if dropped == 0:
            classes = [c for c in CLASSES if c in js]
            if classes:
                fail(f"{js_name} has {', '.join(classes)} but {wasm_name} no export named like {EXPORT.pattern}: "
                     "have wasm-streams or wasm-bindgen renamed them?")
            continue  # a module without them (wasm-streams gone from the dependencies)
        js = drop_glue(js, js_name)  # first: a glue of another shape stops the build before any write
        with open(wasm_path, "wb") as f:
            f.write(wasm)
        done = subprocess.run(
            [wasm_opt, "-Oz", "--low-memory-unused", wasm_path, "-o", wasm_path],
            check=False,
        )
        if done.returncode != 0:
            fail(f"wasm-opt failed on {wasm_name}")
        with open(js_path, "w", encoding="utf-8") as f:
            f.write(js)


if __name__ == "__main__":
    main()
