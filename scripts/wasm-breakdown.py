#!/usr/bin/env python3
"""Where the wasm's bytes go, by crate: reads the code section and the `name` section of the
release wasm after wasm-bindgen and *before* wasm-opt (`wasm-bindgen --keep-debug`, which keeps
the demangled function names), and sums each function body under the crate its name starts
with. Shares, not final sizes: wasm-opt shrinks everything afterwards (`make size` prints the
shipped bytes). Data segments are one line, "(data)".

usage: scripts/wasm-breakdown.py FILE.wasm [TOP]
"""
import re, sys
from collections import Counter

from wasmfile import imports as import_entries, leb, sections


def crate_of(name):
    """The crate a demangled Rust function name belongs to: `reactive_graph::…`, `core[hash]::…`;
    for `<X as Y>::f`, X's crate, or Y's when X is a generic parameter or a primitive."""
    n = name
    while True:
        for p in ("<", "&", "mut ", "dyn ", "(", "["):
            if n.startswith(p):
                n = n[len(p):]
                break
        else:
            break
    if " as " in n.split("::")[0] or re.match(r"^[A-Z]\w* as |^(u8|u16|u32|u64|usize|i32|i64|f32|f64|bool|str|char) as ", n):
        head, _, rest = n.partition(" as ")
        if re.match(r"^([A-Z]\w*|u8|u16|u32|u64|usize|i32|i64|f32|f64|bool|str|char)$", head):
            n = rest
    m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)(\[[0-9a-f]+\])?::", n)
    if m:
        return m.group(1)
    if name.startswith("__wbg") or name.startswith("__wbindgen"):
        return "wasm-bindgen glue"
    return "(unnamed)"


def by_crate(path):
    """The bytes of `path`'s function bodies by crate, data segments as "(data)", and how many of
    them are core's float printing: (Counter, int)."""
    b = open(path, "rb").read()
    imports = 0
    bodies, names, data = [], {}, 0
    for sid, body in sections(b):
        if sid == 2:  # imports: count function imports, which come first in the index space
            imports += sum(1 for _, _, kind, _ in import_entries(body) if kind == 0)
        elif sid == 10:  # code
            count, i = leb(body, 0)
            for _ in range(count):
                size, j = leb(body, i)
                bodies.append(j + size - i)
                i = j + size
        elif sid == 11:
            data += len(body)
        elif sid == 0:
            n, i = leb(body, 0)
            if body[i:i + n] != b"name":
                continue
            i += n
            while i < len(body):
                sub = body[i]
                size, j = leb(body, i + 1)
                if sub == 1:
                    count, k = leb(body, j)
                    for _ in range(count):
                        idx, k = leb(body, k)
                        ln, k = leb(body, k)
                        names[idx] = body[k:k + ln].decode("utf-8", "replace")
                        k += ln
                i = j + size
    by = Counter()
    float_printing = 0
    for n, size in enumerate(bodies):
        name = names.get(n + imports, "")
        by[crate_of(name)] += size
        if re.search(r"flt2dec|fmt::float", name):
            float_printing += size
    by["(data)"] += data
    return by, float_printing


def main():
    path = sys.argv[1]
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    by, float_printing = by_crate(path)
    total = sum(by.values())
    print(f"{'crate':<32} {'bytes':>10} {'share':>7}   ({path}, before wasm-opt)")
    for crate, size in by.most_common(top):
        print(f"{crate:<32} {size:>10} {100 * size / total:>6.1f} %")
    rest = total - sum(s for _, s in by.most_common(top))
    if rest:
        print(f"{'(the rest)':<32} {rest:>10} {100 * rest / total:>6.1f} %")
    print(f"{'total':<32} {total:>10}")
    if float_printing:
        # The first modules print every float through sim::decimal::format_f64 (#15): core's
        # float printing (~5 KB brotli) is back if an f64 went through `{}`, `{:.N}`, `{:?}`,
        # `to_string` or `f64::clamp` (whose panic message prints its bounds; use sim::within).
        print(f"note: {float_printing} bytes of core's float printing (flt2dec) are back in this module; "
              "print floats with sim::decimal::format_f64 and clamp them with sim::within")


if __name__ == "__main__":
    main()
