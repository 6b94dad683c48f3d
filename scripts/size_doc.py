#!/usr/bin/env python3
"""Writes the measured part of docs/size.md, between `<!-- size:begin -->` and
`<!-- size:end -->`: each module's transfer size (raw, gzip -9, brotli -q 11) of its wasm, JS and
CSS against its budget, and its wasm's bytes by crate. scripts/size.sh measures the files and
runs this; the rest of docs/size.md is written by hand.

usage: scripts/size_doc.py FILES.tsv BUDGETS.tsv DOC [MODULE=FILE.wasm ...]

FILES.tsv has a line per shipped file: module (page, frame, full, worker, embed, or shared: the
loader and stylesheets that the page, a frame and the whole page all load), kind (wasm, js, css),
raw, gzip and brotli bytes, and the file's path. BUDGETS.tsv has a line per module: its name,
its budget in brotli bytes and the budget's file. Each MODULE=FILE.wasm is that module's wasm as
cargo built it, bound by `wasm-bindgen --keep-debug` (names kept, before wasm-opt), which
scripts/wasm-breakdown.py reads by crate.
"""
import importlib.util
import os
import sys

BEGIN, END = "<!-- size:begin -->", "<!-- size:end -->"

# The modules in the order a reader meets them, with what each is; the first three also load
# the shared files.
MODULES = [
    ("page", "the page's first load (`ratelimit-playground`)", True),
    ("frame", "an embed frame, `?embed=1` (`ratelimit-frame`)", True),
    ("full", "the whole page (`ratelimit-full`): a multi-node or compare link, or a hand-over", True),
    ("worker", "the log worker (`ratelimit-logs`), fetched when a log is analysed", False),
    ("embed", "the Embed panel's builder (`ratelimit-embed`), fetched when the panel opens", False),
]
KINDS = ("wasm", "js", "css")
# Crates named in the by-crate table: the largest in any module, the rest summed.
TOP_CRATES = 12


def breakdown_module():
    """scripts/wasm-breakdown.py, imported (its name has a hyphen)."""
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path.insert(0, here)
    spec = importlib.util.spec_from_file_location("wasm_breakdown", os.path.join(here, "wasm-breakdown.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_files(path):
    """{module: {kind: [raw, gzip, brotli]}} from FILES.tsv, the shared files added to the
    modules that load them."""
    sizes = {m: {k: [0, 0, 0] for k in KINDS} for m, _, _ in MODULES}
    shared = {k: [0, 0, 0] for k in KINDS}
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            module, kind, raw, gz, br = line.split("\t")[:5]
            into = shared if module == "shared" else sizes[module]
            into[kind] = [a + int(b) for a, b in zip(into[kind], (raw, gz, br))]
    for module, _, loads_shared in MODULES:
        if loads_shared:
            for kind in KINDS:
                sizes[module][kind] = [a + b for a, b in zip(sizes[module][kind], shared[kind])]
    return sizes


def read_budgets(path):
    """{module: (budget bytes, budget file)} from BUDGETS.tsv."""
    out = {}
    with open(path) as f:
        for line in f:
            if line.strip():
                module, budget, file = line.rstrip("\n").split("\t")
                out[module] = (int(budget), file)
    return out


def n(value):
    """A byte count with thin groups of three, as the docs write them: 149 984."""
    return f"{value:,}".replace(",", " ")


def transfer_table(sizes, budgets):
    """Markdown: per module, raw / gzip / brotli of each kind and in all, and its budget."""
    rows = [
        "| module | wasm (raw / gzip / brotli) | JS | CSS | in all | budget, brotli | room |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for module, what, _ in MODULES:
        kinds = sizes[module]
        total = [sum(kinds[k][i] for k in KINDS) for i in range(3)]
        cells = [" / ".join(n(v) for v in kinds[k]) if any(kinds[k]) else "—" for k in KINDS]
        budget, file = budgets.get(module, (0, ""))
        room = f"{n(budget - total[2])}" if budget else "—"
        rows.append(f"| {what} | {' | '.join(cells)} | {' / '.join(n(v) for v in total)} | "
                    f"{n(budget)} (`{file}`) | {room} |")
    return "\n".join(rows)


def crate_table(wasm_files):
    """Markdown: each module's wasm by crate, KB before wasm-opt and share; or a line saying
    why there is none."""
    if not wasm_files:
        return ("The wasm's bytes by crate: not measured in this run (it needs cargo's release wasm "
                "and wasm-bindgen; `make size` after `make dist` has both).")
    by_crate = breakdown_module().by_crate
    measured = [(m, by_crate(wasm_files[m])[0]) for m, _, _ in MODULES if m in wasm_files]
    largest = set()
    for _, by in measured:
        largest.update(c for c, _ in by.most_common(TOP_CRATES))
    first = measured[0][1]
    crates = sorted(largest, key=lambda c: (-first.get(c, 0), c))
    header = "| crate | " + " | ".join(m for m, _ in measured) + " |"
    rows = [header, "|---|" + "---:|" * len(measured)]

    def cell(by, size):
        return f"{size / 1000:.1f} KB ({100 * size / sum(by.values()):.1f} %)" if size else "—"

    for crate in crates:
        rows.append(f"| {crate} | " + " | ".join(cell(by, by.get(crate, 0)) for _, by in measured) + " |")
    rows.append("| (the rest) | " + " | ".join(cell(by, sum(s for c, s in by.items() if c not in largest))
                                                for _, by in measured) + " |")
    rows.append("| total | " + " | ".join(f"{sum(by.values()) / 1000:.1f} KB" for _, by in measured) + " |")
    return ("The wasm's bytes by crate, as cargo built it and before wasm-opt (which shrinks every "
            "crate afterwards: read these as shares; \"(data)\" is the data segments):\n\n" + "\n".join(rows))


def generated(sizes, budgets, wasm_files):
    """The text between the markers."""
    return (
        "Generated by `make size` (`scripts/size.sh`): do not edit by hand.\n\n"
        "What each module transfers, in bytes: raw, `gzip -9` and `brotli -q 11`. The page, a frame and "
        "the whole page each include the loader and the shared stylesheets.\n\n"
        + transfer_table(sizes, budgets) + "\n\n" + crate_table(wasm_files) + "\n"
    )


def write(doc, text):
    """Replaces what is between the markers in `doc` with `text`."""
    with open(doc) as f:
        old = f.read()
    begin, end = old.find(BEGIN), old.find(END)
    if begin < 0 or end < begin:
        sys.exit(f"size: {doc} has no {BEGIN} … {END} to write the measured sizes between")
    new = old[:begin + len(BEGIN)] + "\n" + text + old[end:]
    if new != old:
        with open(doc, "w") as f:
            f.write(new)


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    files, budgets, doc = sys.argv[1:4]
    wasm_files = dict(arg.split("=", 1) for arg in sys.argv[4:])
    write(doc, generated(read_files(files), read_budgets(budgets), wasm_files))


if __name__ == "__main__":
    main()
