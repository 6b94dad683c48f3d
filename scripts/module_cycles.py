#!/usr/bin/env python3
"""Import circles, and imports from a lower layer into a higher one, between the files of src/:
prints each one and exits 1 if there are any.

Reads the Rust sources as text (Python's standard library only; no rustc, no cargo) and builds a
file-level dependency graph: an edge A -> B when file A names an item of the module that file B
holds. It prints every strongly connected component of more than one file, each edge inside it
with the first line that causes it; then every edge that goes up the layers of `LAYERS` (or
between two parts of one layer), with its line and both layers. It exits 1 if there is any of
either; 0 means none.

    python3 scripts/module_cycles.py            # the circles and the upward imports, exit 1 if any
    python3 scripts/module_cycles.py --edges    # every edge of the graph, then the same
    python3 scripts/module_cycles.py --self-test

The rules:

- Crates: src/lib.rs, src/main.rs, src/bin/NAME.rs and src/bin/NAME/main.rs are crate roots; the
  module tree grows from each root through `mod name;` (name.rs or name/mod.rs beside it, or in
  the parent's directory for a mod.rs/lib.rs/main.rs) and inline `mod name { ... }` blocks, whose
  code belongs to the file they sit in. Every `#[cfg]` counts: the wasm32-only and the
  native-only files are one graph, and `#[cfg(test)]` code counts as well.
- `mod child;` is not an edge: declaring a module is not using it.
- Edges come from paths, in `use` declarations (groups, `self`, `as` and globs included) and
  inline in code: those that start with `crate::`, `$crate::`, `super::`, `self::`, the library's
  name (from a binary), the name of a child module declared in the same module (`child::X`, as
  edition 2018 resolves it), or a name an earlier `use` in the same module bound to a module
  (`use super::sprites::{self, Mark}` then `sprites::draw`; a `use super::*` in an inline module
  such as `mod tests` also sees the enclosing module's names).
- A path walks down the module tree as far as its segments name modules; the file holding the
  module where it stops is the target. So `crate::sim::logs::reader::Arrival` depends on
  src/sim/logs/reader.rs, and `crate::sim::Scenario`, an item src/sim/mod.rs re-exports, is a
  dependency on src/sim/mod.rs. A re-export is not followed to the file defining the item: the
  path the author wrote names the mod.rs, and the mod.rs is what the file then depends on.
- A mod.rs's own `pub use child::Item` (or a `use child::...`) is an edge from the mod.rs to the
  child like any other use: that is what makes `crate::sim::Scenario` depend on scenario.rs.
  But an edge from a child to its own ancestor module (`use super::Limiter` in
  sim/limiter/gcra.rs, `crate::sim::Nanos` anywhere under src/sim/) is not counted when it goes
  up: a parent holding the trait or the re-exports its children share is the ordinary shape of a
  Rust module, not a circle (the parent sees its children by `mod`, the children see the parent
  by scope). A path from a file into a module that is not one of its ancestors always counts.
- Paths to the file itself (an inline `mod tests` using `super::*`), to other crates and to
  std are not edges. Comments (doc comments and their intra-doc links included) and string and
  char literals are blanked before anything is read.
- Layers: each file belongs to a part of src/, the first component of its path (`sim` for
  src/sim/..., `markup` for src/markup.rs, `bin` for every binary; src/main.rs and src/lib.rs
  are parts of their own). An edge between two files of one part is always allowed; an edge into
  another part is allowed only when that part's layer in `LAYERS` is lower than the importing
  file's. A part missing from `LAYERS` is an error, so a new folder of src/ gets a place first.
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
import unittest
from dataclasses import dataclass, field
from pathlib import Path

LIB_NAME = "ratelimit_playground"
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"

# The layers of src/, lowest first, and the parts in each. A file may use the files of its own
# part and of any part in a lower layer: never a higher layer's, and never another part of its own
# layer's (parts side by side know nothing of each other). Why each part is where it is:
LAYERS: list[tuple[str, ...]] = [
    # The engine: pure and deterministic; it names nothing else of the crate.
    ("sim",),
    # Escaping text for HTML and SVG: it needs nothing, and the chart's SVG text (text_layer)
    # escapes cluster names through it, so it sits between the engine and the drawing.
    ("markup",),
    # Drawing from plain data (chart) and the policy written as configuration (production): both
    # read the engine's values, and neither needs the other.
    ("chart", "production"),
    # What is shown (present: what the app renders, the CLI prints, the log worker sends), and the
    # CLI's runner against a real Redis (redis, native only), which reads scenarios and
    # production's Lua script, and opening logs on disk (files, native only: the CLI and the Python
    # package). None uses another: what is shown stays free of a Redis client and of files, and
    # the CLI, above them, joins them.
    ("present", "redis", "files"),
    # The two wasm front ends: the Leptos page (app) and the log worker's module (worker), each
    # rendering present; separate modules, so neither loads the other.
    ("app", "worker"),
    # The entry points: crate roots that mount the app, start the worker or run the CLI (bin
    # holds every binary; lib.rs only declares the modules and the allocator).
    ("bin", "main.rs", "lib.rs"),
]


def blank(src: str) -> str:
    """`src` with comments and the contents of string and char literals turned to spaces.

    Newlines are kept, so offsets and line numbers still match the original text.
    """
    out = list(src)
    n = len(src)
    i = 0

    def wipe(a: int, b: int) -> None:
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            wipe(i, j)
            i = j
        elif src.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            wipe(i, j)
            i = j
        elif c == "r" and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_") or src[i - 1] == "b") and re.match(r'r#*"', src[i:i + 300]):
            hashes = re.match(r"r(#*)\"", src[i:]).group(1)
            start = i + 2 + len(hashes)
            end = src.find('"' + hashes, start)
            end = n if end < 0 else end
            wipe(start, end)
            i = end + 1 + len(hashes)
        elif c == '"':
            j = i + 1
            while j < n and src[j] != '"':
                j += 2 if src[j] == "\\" else 1
            wipe(i + 1, j)
            i = j + 1
        elif c == "'":
            if i + 1 < n and src[i + 1] == "\\":
                j = src.find("'", i + 3)
                j = n if j < 0 else j
                wipe(i + 1, j)
                i = j + 1
            elif i + 2 < n and src[i + 2] == "'":
                wipe(i + 1, i + 2)
                i += 3
            else:  # a lifetime or a label
                i += 1
        else:
            i += 1
    return "".join(out)


def closing_brace(text: str, open_at: int) -> int:
    """The offset of the `}` matching the `{` at `open_at` (in blanked text)."""
    depth = 0
    for k in range(open_at, len(text)):
        if text[k] == "{":
            depth += 1
        elif text[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(text)


@dataclass(eq=False)
class Module:
    """A module: a file's own, or an inline `mod name { ... }` inside a file."""

    name: str
    file: Path
    parent: Module | None
    span: tuple[int, int]  # its part of the file's blanked text
    children: dict[str, Module] = field(default_factory=dict)
    # Names its `use` declarations bind: name -> (path, line), resolved on demand.
    uses: dict[str, tuple[list[str], int]] = field(default_factory=dict)
    globs: list[list[str]] = field(default_factory=list)

    @property
    def root(self) -> Module:
        m = self
        while m.parent is not None:
            m = m.parent
        return m

    def ancestors(self) -> list[Module]:
        out, m = [], self.parent
        while m is not None:
            out.append(m)
            m = m.parent
        return out


@dataclass
class Source:
    """One file: its text, blanked text and the modules it holds (its own first)."""

    path: Path
    text: str
    blanked: str
    modules: list[Module] = field(default_factory=list)

    def line(self, offset: int) -> int:
        return self.text.count("\n", 0, offset) + 1

    def scope_at(self, offset: int) -> Module:
        """The innermost module whose span holds `offset`."""
        best = self.modules[0]
        for m in self.modules[1:]:
            if m.span[0] <= offset < m.span[1] and m.span[1] - m.span[0] <= best.span[1] - best.span[0]:
                best = m
        return best


def module_dir(file: Path, is_root_or_mod: bool) -> Path:
    """Where the files of `mod child;` declared in `file` live."""
    return file.parent if is_root_or_mod else file.parent / file.stem


def parse_use_tree(text: str) -> list[tuple[list[str], str | None, bool]]:
    """A `use` tree's leaves: (path, alias, is_glob). `text` is what follows `use`, up to `;`."""
    tokens = re.findall(rf"::|\{{|\}}|,|\*|\$?{IDENT}", text)
    pos = 0
    leaves: list[tuple[list[str], str | None, bool]] = []

    def tree(prefix: list[str]) -> None:
        nonlocal pos
        path = list(prefix)
        while pos < len(tokens):
            t = tokens[pos]
            if t == "::":
                pos += 1
            elif t == "{":
                pos += 1
                while pos < len(tokens) and tokens[pos] != "}":
                    if tokens[pos] == ",":
                        pos += 1
                        continue
                    tree(path)
                pos += 1
                return
            elif t == "*":
                pos += 1
                leaves.append((path, None, True))
                return
            elif t in (",", "}"):
                if path != prefix:
                    leaves.append((path, None, False))
                return
            elif t == "as":
                alias = tokens[pos + 1] if pos + 1 < len(tokens) else None
                pos += 2
                leaves.append((path, alias, False))
                return
            else:
                path = path + [t]
                pos += 1
        if path != prefix:
            leaves.append((path, None, False))

    tree([])
    return leaves


USE_RE = re.compile(r"(?<![A-Za-z0-9_$])use\s+([^;]*);")
PATH_RE = re.compile(rf"(?<![A-Za-z0-9_$:])(\$?{IDENT})((?:\s*::\s*{IDENT})+)")
MOD_RE = re.compile(rf"(?<![A-Za-z0-9_])mod\s+({IDENT})\s*([;{{])")


class Graph:
    """The module trees of every crate under `src` and the file-level edges between them."""

    def __init__(self, src: Path):
        self.src = src
        self.sources: dict[Path, Source] = {}
        self.roots: list[Module] = []
        self.lib: Module | None = None
        # (from, to) -> first (line, path text) that makes it
        self.edges: dict[tuple[Path, Path], tuple[int, str]] = {}
        roots = [src / "lib.rs", src / "main.rs"]
        roots += sorted((src / "bin").glob("*.rs")) + sorted((src / "bin").glob("*/main.rs"))
        for root in roots:
            if root.exists():
                m = self.load(root, "crate", None, True)
                self.roots.append(m)
                if root == src / "lib.rs":
                    self.lib = m
        for source in self.sources.values():
            self.find_edges(source)

    # -- the module tree ---------------------------------------------------------------------

    def load(self, file: Path, name: str, parent: Module | None, is_root: bool) -> Module:
        text = file.read_text(encoding="utf-8")
        source = Source(file, text, blank(text))
        self.sources[file] = source
        top = Module(name, file, parent, (0, len(text)))
        source.modules.append(top)
        dir_of = {id(top): module_dir(file, is_root or file.name == "mod.rs")}
        for m in MOD_RE.finditer(source.blanked):
            scope = source.scope_at(m.start())
            child_name = m.group(1)
            if m.group(2) == "{":
                end = closing_brace(source.blanked, m.end() - 1)
                child = Module(child_name, file, scope, (m.end() - 1, end + 1))
                source.modules.append(child)
                dir_of[id(child)] = dir_of[id(scope)] / child_name
            else:
                base = dir_of[id(scope)]
                candidates = [base / f"{child_name}.rs", base / child_name / "mod.rs"]
                found = next((c for c in candidates if c.exists()), None)
                if found is None:
                    continue
                child = self.load(found, child_name, scope, False)
            scope.children[child_name] = child
        for m in USE_RE.finditer(source.blanked):
            scope = source.scope_at(m.start())
            for path, alias, glob in parse_use_tree(m.group(1)):
                if glob:
                    scope.globs.append(path)
                    continue
                bound = alias or (path[-2] if path[-1] == "self" and len(path) > 1 else path[-1])
                if bound != "_":
                    scope.uses.setdefault(bound, (path if path[-1] != "self" else path[:-1], source.line(m.start())))
        return top

    # -- resolving paths ---------------------------------------------------------------------

    def start(self, scope: Module, first: str, depth: int) -> tuple[Module, list[str]] | None:
        """The module a path's first segment names, and the segments it leaves to walk."""
        if first in ("crate", "$crate"):
            return scope.root, []
        if first == "super":
            return (scope.parent, []) if scope.parent is not None else None
        if first == "self":
            return scope, []
        if first in scope.children:
            return scope.children[first], []
        looked = scope
        while looked is not None:
            if first in looked.uses and depth < 8:
                path, _ = looked.uses[first]
                if path and path[0] == first and looked is scope:
                    return None  # `use foo;` of an external crate
                return self.walk(looked, path, depth + 1)
            # `use super::*` in an inline module (mod tests) also sees its parent's names
            if looked.parent is not None and looked.parent.file == looked.file and ["super"] in looked.globs:
                looked = looked.parent
            else:
                break
        if first == LIB_NAME and self.lib is not None:
            return self.lib, []
        return None

    def walk(self, scope: Module, path: list[str], depth: int = 0) -> tuple[Module, list[str]] | None:
        """The module `path` (seen from `scope`) walks down to, and the segments left after it."""
        if not path:
            return None
        begun = self.start(scope, path[0], depth)
        if begun is None:
            return None
        module, rest = begun
        rest = rest + path[1:]
        while rest:
            seg = rest[0]
            if seg == "super" and module.parent is not None:
                module = module.parent
            elif seg == "self":
                pass
            elif seg in module.children:
                module = module.children[seg]
            else:
                break
            rest = rest[1:]
        return module, rest

    # -- edges ---------------------------------------------------------------------------------

    def add(self, source: Source, scope: Module, path: list[str], offset: int) -> None:
        found = self.walk(scope, path)
        if found is None:
            return
        target = found[0]
        if target.file == source.path:
            return
        if target in scope.ancestors():
            return  # a child using its own ancestor: see the module docs
        key = (source.path, target.file)
        line = source.line(offset)
        if key not in self.edges or line < self.edges[key][0]:
            self.edges[key] = (line, "::".join(path))

    def find_edges(self, source: Source) -> None:
        text = source.blanked
        use_spans = []
        for m in USE_RE.finditer(text):
            scope = source.scope_at(m.start())
            use_spans.append((m.start(), m.end()))
            for path, _, _ in parse_use_tree(m.group(1)):
                if path and path[-1] == "self":
                    path = path[:-1]
                self.add(source, scope, path, m.start())
        spans = iter(use_spans)
        span = next(spans, None)
        for m in PATH_RE.finditer(text):
            while span is not None and span[1] <= m.start():
                span = next(spans, None)
            if span is not None and span[0] <= m.start() < span[1]:
                continue
            path = [m.group(1)] + re.findall(IDENT, m.group(2))
            self.add(source, source.scope_at(m.start()), path, m.start())


def components(nodes: list[Path], edges: dict[tuple[Path, Path], object]) -> list[list[Path]]:
    """Strongly connected components of more than one node (Tarjan's, iterative)."""
    succ: dict[Path, list[Path]] = {n: [] for n in nodes}
    for a, b in sorted(edges):
        succ.setdefault(a, []).append(b)
        succ.setdefault(b, [])
    index: dict[Path, int] = {}
    low: dict[Path, int] = {}
    on_stack: set[Path] = set()
    stack: list[Path] = []
    out: list[list[Path]] = []
    counter = 0
    for root in sorted(succ):
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            recurse = False
            for k in range(i, len(succ[node])):
                nxt = succ[node][k]
                if nxt not in index:
                    work.append((node, k + 1))
                    work.append((nxt, 0))
                    recurse = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if recurse:
                continue
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(out, key=lambda c: (-len(c), c))


def part_of(file: Path, src: Path) -> str:
    """The part of src/ `file` belongs to: its path's first component, without `.rs` for a file
    directly in src/ (src/markup.rs is `markup`) but src/main.rs and src/lib.rs."""
    first = file.relative_to(src).parts[0]
    return first if first in ("main.rs", "lib.rs") or not first.endswith(".rs") else first[:-3]


def layer_of(part: str) -> int | None:
    """`part`'s layer in `LAYERS`, 1 for the lowest; `None` if it has none."""
    return next((n for n, parts in enumerate(LAYERS, 1) if part in parts), None)


@dataclass
class Breach:
    """An edge that goes up the layers, or across to another part of the same layer."""

    file: Path
    line: int
    path: str
    target: Path
    part: str
    layer: int
    target_part: str
    target_layer: int

    def describe(self, rel) -> str:
        where = f"{rel(self.file)}:{self.line} uses {self.path} ({rel(self.target)})"
        if self.layer == self.target_layer:
            return (f"{where}: {self.part} and {self.target_part} sit side by side in layer {self.layer}, "
                    f"and neither may use the other")
        return (f"{where}: {self.part} (layer {self.layer}) may not use {self.target_part} "
                f"(layer {self.target_layer}, above it)")


def layer_breaches(graph: Graph) -> tuple[list[str], list[Breach]]:
    """The parts of src/ with no layer in `LAYERS`, and every edge that breaks the layers."""
    unplaced = sorted({part_of(f, graph.src) for f in graph.sources} - {p for ps in LAYERS for p in ps})
    breaches = []
    for (a, b), (line, path) in sorted(graph.edges.items()):
        pa, pb = part_of(a, graph.src), part_of(b, graph.src)
        la, lb = layer_of(pa), layer_of(pb)
        if pa != pb and la is not None and lb is not None and lb >= la:
            breaches.append(Breach(a, line, path, b, pa, la, pb, lb))
    return unplaced, sorted(breaches, key=lambda b: (b.file, b.line))


def report(src: Path, show_edges: bool, out=sys.stdout) -> int:
    graph = Graph(src)
    base = src.parent

    def rel(p: Path) -> str:
        return str(p.relative_to(base))

    if show_edges:
        for (a, b), (line, path) in sorted(graph.edges.items()):
            print(f"{rel(a)} -> {rel(b)}    {rel(a)}:{line} {path}", file=out)
        print(file=out)
    circles = circles_report(graph, rel, out)
    layers = layers_report(graph, rel, out)
    return 1 if circles or layers else 0


def circles_report(graph: Graph, rel, out) -> int:
    """Prints the import circles, or that there are none; 1 if there are any."""
    src = graph.src
    comps = components(sorted(graph.sources), graph.edges)
    if not comps:
        print(f"no import circles among the {len(graph.sources)} files of {rel(src)}/", file=out)
        return 0
    files = sum(len(c) for c in comps)
    print(f"{len(comps)} import circle(s) among the {len(graph.sources)} files of {rel(src)}/ ({files} files in them):", file=out)
    for n, comp in enumerate(comps, 1):
        members = set(comp)
        print(f"\ncircle {n}: {len(comp)} files", file=out)
        for f in comp:
            print(f"  {rel(f)}", file=out)
        print("  because:", file=out)
        for (a, b), (line, path) in sorted(graph.edges.items()):
            if a in members and b in members:
                print(f"    {rel(a)} -> {rel(b)}    {rel(a)}:{line} {path}", file=out)
    return 1


def layers_report(graph: Graph, rel, out) -> int:
    """Prints the parts with no layer and the imports that break the layers, or that there are
    none; 1 if there are any."""
    unplaced, breaches = layer_breaches(graph)
    for part in unplaced:
        print(f"{rel(graph.src)}/{part} has no layer: give it one in LAYERS (scripts/module_cycles.py)", file=out)
    if breaches:
        print(f"{len(breaches)} import(s) against the layers (lowest first: "
              f"{' < '.join('/'.join(parts) for parts in LAYERS)}):", file=out)
        for b in breaches:
            print(f"  {b.describe(rel)}", file=out)
    elif not unplaced:
        print(f"no imports against the layers ({' < '.join('/'.join(parts) for parts in LAYERS)})", file=out)
    return 1 if unplaced or breaches else 0


class SelfTest(unittest.TestCase):
    """The rules above on small trees written to a temporary directory."""

    def tree(self, files: dict[str, str]) -> Graph:
        tmp = Path(tempfile.mkdtemp())
        for name, text in files.items():
            p = tmp / "src" / name
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text)
        self.base = tmp / "src"
        return Graph(tmp / "src")

    def edges(self, g: Graph) -> set[tuple[str, str]]:
        return {(str(a.relative_to(self.base)), str(b.relative_to(self.base))) for a, b in g.edges}

    def test_siblings_that_use_each_other_are_a_circle(self):
        g = self.tree({
            "lib.rs": "pub mod a;\n",
            "a/mod.rs": "pub mod x;\npub mod y;\n",
            "a/x.rs": "use super::y::Y;\npub struct X;\n",
            "a/y.rs": "pub struct Y;\nfn f() { let _ = crate::a::x::X; }\n",
        })
        self.assertEqual(self.edges(g), {("a/x.rs", "a/y.rs"), ("a/y.rs", "a/x.rs")})
        self.assertEqual(len(components(list(g.sources), g.edges)), 1)
        self.assertEqual(g.edges[(self.base / "a/y.rs", self.base / "a/x.rs")][0], 2)

    def test_mod_declarations_comments_strings_and_own_tests_are_not_edges(self):
        g = self.tree({
            "lib.rs": "pub mod a;\npub mod b;\n",
            "a.rs": "//! see [`crate::b::B`]\nconst S: &str = \"crate::b::B\";\nconst R: &str = r#\"super::b\"#;\n"
                    "pub struct A<'a>(&'a u8);\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
            "b.rs": "/* crate::a::A */ pub struct B;\n",
        })
        self.assertEqual(self.edges(g), set())

    def test_reexport_is_a_dependency_on_the_mod_rs_and_the_mod_rs_on_its_child(self):
        g = self.tree({
            "lib.rs": "pub mod a;\npub mod b;\n",
            "a/mod.rs": "mod inner;\npub use inner::{Thing, Other as O};\n",
            "a/inner.rs": "use crate::b::B;\npub struct Thing;\n",
            "b.rs": "use crate::a::Thing;\npub struct B;\n",
        })
        self.assertEqual(self.edges(g), {("a/mod.rs", "a/inner.rs"), ("a/inner.rs", "b.rs"), ("b.rs", "a/mod.rs")})
        self.assertEqual([len(c) for c in components(list(g.sources), g.edges)], [3])

    def test_a_child_using_its_parent_is_not_an_edge(self):
        g = self.tree({
            "lib.rs": "pub mod lim;\n",
            "lim/mod.rs": "mod gcra;\npub trait Limiter {}\npub enum Any { G(gcra::Gcra) }\n",
            "lim/gcra.rs": "use super::Limiter;\nuse crate::lim::Any;\npub struct Gcra;\n",
        })
        self.assertEqual(self.edges(g), {("lim/mod.rs", "lim/gcra.rs")})

    def test_test_modules_count_and_resolve_from_where_they_sit(self):
        g = self.tree({
            "lib.rs": "pub mod a;\npub mod b;\n",
            "a.rs": "#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::b::B;\n}\n",
            "b.rs": "pub struct B;\n",
        })
        self.assertEqual(self.edges(g), {("a.rs", "b.rs")})
        self.assertEqual(g.edges[(self.base / "a.rs", self.base / "b.rs")][0], 4)

    def test_module_aliases_and_groups_resolve(self):
        g = self.tree({
            "lib.rs": "pub mod a;\npub mod b;\npub mod c;\n",
            "a.rs": "use super::{b::{self, B}, c as cc};\nfn f() { b::g(); cc::h(); }\n",
            "b.rs": "pub struct B; pub fn g() {}\n",
            "c.rs": "pub fn h() {}\n",
        })
        self.assertEqual(self.edges(g), {("a.rs", "b.rs"), ("a.rs", "c.rs")})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parent.parent / "src")
    parser.add_argument("--edges", action="store_true", help="print every edge before the circles")
    parser.add_argument("--self-test", action="store_true", help="run the script's own tests")
    args = parser.parse_args()
    if args.self_test:
        result = unittest.main(argv=[sys.argv[0]], exit=False, defaultTest="SelfTest").result
        return 0 if result.wasSuccessful() else 1
    return report(args.src.resolve(), args.edges)


if __name__ == "__main__":
    sys.exit(main())
