"""size_doc.py, which writes docs/size.md's measured part for scripts/size.sh: what is between the
markers is replaced by every module's sizes (the shared files counted in the page, a frame and
the whole page) against its budget and its wasm by crate; what is outside them is kept to the
byte; a doc without the markers is an error."""
import os
import subprocess
import sys
import tempfile
import unittest

from harness import SCRIPTS
from wasmfile import uleb

STEP = os.path.join(SCRIPTS, "size_doc.py")
DOC = "# Size\n\nWritten by hand.\n\n<!-- size:begin -->\nwhat the last run wrote\n<!-- size:end -->\n\nBy hand too.\n"


def section(sid, body):
    return bytes([sid]) + uleb(len(body)) + body


def name(text):
    return uleb(len(text)) + text.encode()


def wasm(functions, data=b""):
    """A module of functions of no arguments, `functions` [(demangled name, body size)], with a
    name section naming them and one data segment of `data`."""
    types = section(1, uleb(1) + b"\x60\x00\x00")
    funcs = section(3, uleb(len(functions)) + b"\x00" * len(functions))
    bodies = b"".join(uleb(size) + b"\x00" + b"\x01" * (size - 2) + b"\x0b" for _, size in functions)
    code = section(10, uleb(len(functions)) + bodies)
    segments = section(11, uleb(1) + b"\x00\x41\x00\x0b" + uleb(len(data)) + data) if data else b""
    names = uleb(len(functions)) + b"".join(uleb(i) + name(n) for i, (n, _) in enumerate(functions))
    custom = section(0, name("name") + b"\x01" + uleb(len(names)) + names)
    return b"\x00asm\x01\x00\x00\x00" + types + funcs + code + segments + custom


class SizeDoc(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def path(self, name, content, mode="w"):
        p = os.path.join(self.dir.name, name)
        with open(p, mode) as f:
            f.write(content)
        return p

    def run_step(self, doc, *wasm_files):
        files = self.path("files.tsv", "".join(f"{m}\t{k}\t{r}\t{g}\t{b}\tf.{k}\n" for m, k, r, g, b in (
            ("page", "wasm", 1000, 600, 500), ("page", "js", 300, 200, 150),
            ("shared", "css", 100, 80, 70), ("shared", "js", 50, 40, 30),
            ("worker", "wasm", 2000, 1200, 1000), ("full", "css", 10, 9, 8))))
        budgets = self.path("budgets.tsv", "page\t700\tscripts/size-budget\nworker\t900\tscripts/size-budget-worker\n")
        return subprocess.run([sys.executable, STEP, files, budgets, doc, *wasm_files], capture_output=True, text=True)

    def written(self, *wasm_files):
        doc = self.path("size.md", DOC)
        done = self.run_step(doc, *wasm_files)
        self.assertEqual(done.returncode, 0, done.stderr)
        with open(doc) as f:
            return f.read()

    def test_only_the_part_between_the_markers_changes(self):
        text = self.written()
        self.assertTrue(text.startswith("# Size\n\nWritten by hand.\n\n<!-- size:begin -->\n"))
        self.assertTrue(text.endswith("\n<!-- size:end -->\n\nBy hand too.\n"))
        self.assertNotIn("what the last run wrote", text)

    def test_the_shared_files_count_in_the_page_but_not_in_the_worker(self):
        rows = {line.split(" | ")[0]: line for line in self.written().splitlines() if line.startswith("| ")}
        page = next(v for k, v in rows.items() if "ratelimit-playground" in k)
        worker = next(v for k, v in rows.items() if "ratelimit-logs" in k)
        self.assertIn("| 1 000 / 600 / 500 | 350 / 240 / 180 | 100 / 80 / 70 | 1 450 / 920 / 750 |", page)
        self.assertIn("700 (`scripts/size-budget`) | -50 |", page)
        self.assertIn("| 2 000 / 1 200 / 1 000 | — | — | 2 000 / 1 200 / 1 000 |", worker)
        self.assertIn("900 (`scripts/size-budget-worker`) | -100 |", worker)

    def test_the_wasm_is_summed_by_crate(self):
        page = self.path("page.wasm", wasm([("core::fmt::write", 600), ("leptos::mount", 300),
                                             ("<leptos::View as core::fmt::Debug>::fmt", 100)], b"x" * 7), "wb")
        text = self.written(f"page={page}")
        self.assertIn("| crate | page |", text)
        self.assertRegex(text, r"\| core \| 0\.6 KB \(\d+\.\d %\) \|")
        self.assertRegex(text, r"\| leptos \| 0\.4 KB \(\d+\.\d %\) \|")
        self.assertIn("| (data) |", text)

    def test_without_cargo_s_wasm_it_says_the_crates_were_not_measured(self):
        self.assertIn("not measured in this run", self.written())

    def test_a_doc_without_the_markers_is_refused(self):
        doc = self.path("size.md", "# Size\n")
        done = self.run_step(doc)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("size:begin", done.stderr)
        with open(doc) as f:
            self.assertEqual(f.read(), "# Size\n")


if __name__ == "__main__":
    unittest.main()
