"""Reading a wasm module's structure, for the scripts that look inside one (wasm-breakdown.py, the
build steps' tests) or rewrite part of it (drop_stream_exports.py, shorten_imports.py): LEB128
numbers, the sections, the import and export entries."""
import sys


def leb(b, i):
    """The unsigned LEB128 number at b[i]: (value, index after it)."""
    value = shift = 0
    while True:
        byte = b[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return value, i


def uleb(n):
    """`n` as unsigned LEB128."""
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def sections(b):
    """(id, body) of each section of module `b`."""
    assert b[:4] == b"\0asm", "not a wasm file"
    i = 8
    while i < len(b):
        sid = b[i]
        size, j = leb(b, i + 1)
        yield sid, b[j:j + size]
        i = j + size


def imports(body):
    """(module, name, kind, description bytes) of each entry of an import section's body; kind 0
    is a function."""
    count, k = leb(body, 0)
    for _ in range(count):
        n, k = leb(body, k)
        module, k = body[k:k + n], k + n
        n, k = leb(body, k)
        name, k = body[k:k + n].decode("utf-8", "replace"), k + n
        kind, start = body[k], k + 1
        k = start
        if kind == 0:  # function: its type index
            _, k = leb(body, k)
        elif kind in (1, 2):  # table (reference type, then limits) or memory (limits)
            k += kind == 1
            flags, k = leb(body, k)
            _, k = leb(body, k)
            if flags & 1:
                _, k = leb(body, k)
        elif kind == 3:  # global: value type and mutability
            k += 2
        else:
            sys.exit(f"wasmfile: unknown import kind {kind}")
        yield module, name, kind, body[start:k]


def exports(body):
    """(name, description bytes: kind and index) of each entry of an export section's body."""
    count, k = leb(body, 0)
    for _ in range(count):
        n, k = leb(body, k)
        name, k = body[k:k + n].decode("utf-8", "replace"), k + n
        start = k
        _, k = leb(body, k + 1)
        yield name, body[start:k]
