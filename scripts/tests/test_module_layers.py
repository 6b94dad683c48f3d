"""module_cycles.py's layers (`make cycles`) on small fake trees: an import from a lower layer into
a higher one fails naming the importing file and line, the imported path and both layers; so does
one between two parts of a layer or from a part with no layer; a tree whose imports only go down
passes."""
import io
import os
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from module_cycles import report  # noqa: E402

# A lib.rs declaring the parts the tests use, as src/lib.rs does.
LIB = "pub mod sim;\npub mod chart;\npub mod present;\npub mod redis;\n"


class Layers(unittest.TestCase):
    def check(self, files):
        """module_cycles.py's exit code and output on a src/ holding `files` (path -> text)."""
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "src"
            for name, text in files.items():
                path = src / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
            out = io.StringIO()
            code = report(src.resolve(), False, out)
            return code, out.getvalue()

    def tree(self, overrides=None):
        """A tree of four parts whose imports all go down, with `overrides` (path -> text)."""
        files = {
            "lib.rs": LIB,
            "sim/mod.rs": "pub mod time;\npub struct Scenario;\n",
            "sim/time.rs": "pub struct Nanos;\n",
            "chart/mod.rs": "use crate::sim::time::Nanos;\npub struct Plot;\n",
            "present/mod.rs": "use crate::chart::Plot;\nuse crate::sim::Scenario;\npub struct Card;\n",
            "redis/mod.rs": "use crate::sim::Scenario;\npub fn run() {}\n",
            "main.rs": "fn main() { let _ = ratelimit_playground::present::Card; }\n",
        }
        files.update(overrides or {})
        return files

    def test_imports_that_only_go_down_pass(self):
        code, out = self.check(self.tree())
        self.assertEqual(code, 0, out)
        self.assertIn("no imports against the layers", out)

    def test_an_import_from_a_lower_layer_into_a_higher_one_fails_naming_both(self):
        chart = "pub struct Plot;\n\nfn card() {\n    let _ = crate::present::Card;\n}\n"
        code, out = self.check(self.tree({"chart/mod.rs": chart}))
        self.assertEqual(code, 1, out)
        self.assertIn("src/chart/mod.rs:4 uses crate::present::Card (src/present/mod.rs)", out)
        self.assertIn("chart (layer 3) may not use present (layer 4, above it)", out)

    def test_the_engine_using_anything_above_it_fails(self):
        code, out = self.check(self.tree({"sim/time.rs": "use crate::chart::Plot;\npub struct Nanos;\n"}))
        self.assertEqual(code, 1, out)
        self.assertIn("src/sim/time.rs:1 uses crate::chart::Plot (src/chart/mod.rs): sim (layer 1) may not use chart", out)

    def test_parts_side_by_side_may_not_use_each_other(self):
        present = "use crate::redis::run;\npub struct Card;\n"
        code, out = self.check(self.tree({"present/mod.rs": present}))
        self.assertEqual(code, 1, out)
        self.assertIn("src/present/mod.rs:1 uses crate::redis::run (src/redis/mod.rs)", out)
        self.assertIn("present and redis sit side by side in layer 4", out)

    def test_a_part_with_no_layer_fails(self):
        code, out = self.check(self.tree({"lib.rs": LIB + "pub mod gadgets;\n", "gadgets.rs": "pub struct Gadget;\n"}))
        self.assertEqual(code, 1, out)
        self.assertIn("src/gadgets has no layer", out)


if __name__ == "__main__":
    unittest.main()
