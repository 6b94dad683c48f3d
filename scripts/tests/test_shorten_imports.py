"""shorten_imports.py on the captured staging folder: wasm-bindgen's hashed import names, and the
hashed exports closures are called through, get short names in each wasm and its glue alike; the
rest of each wasm is copied byte for byte, and each module still starts with its glue."""
import re
import unittest

from harness import (FIXTURE, PAGE, WORKERS, StepTest, glue_of, load_module_in_node, read, rename_in_wasm, staging_copy,
                     wasm_names, wasm_of, wasm_sections, write)
from wasmfile import imports, sections  # after harness, which puts scripts/ on the path

WBG = re.compile(r"^(__wbg_[A-Za-z0-9_]+|__wbindgen_generic)_[0-9a-f]{16}$")
CLOSURE = re.compile(r"^wasm_bindgen__convert__closures_+invoke__h[0-9a-f]{16}(_[0-9]+)?$")
MODULES = (PAGE, *WORKERS)


class ShortenImports(StepTest):
    step = "shorten_imports.py"

    @classmethod
    def setUpClass(cls):
        cls.staging = cls.ran()

    def test_the_fixture_has_hashed_names(self):
        for module in MODULES:
            imported, exported = wasm_names(wasm_of(FIXTURE, module))
            self.assertTrue(any(WBG.match(n) for n in imported), f"{module} imports no __wbg_<name>_<hash>")
        for module in (PAGE, "ratelimit-full"):
            self.assertTrue(any(CLOSURE.match(n) for n in wasm_names(wasm_of(FIXTURE, module))[1]), module)

    def test_each_hashed_import_gets_a_short_name_in_the_wasm_and_its_glue(self):
        staging = self.staging
        for module in MODULES:
            before, after = wasm_names(wasm_of(FIXTURE, module))[0], wasm_names(wasm_of(staging, module))[0]
            glue = read(glue_of(staging, module))
            self.assertEqual(len(before), len(after))
            for old, new in zip(before, after):
                if WBG.match(old):
                    self.assertRegex(new, r"^[a-zA-Z]{1,2}$")
                    self.assertNotIn(old, glue)
                    self.assertEqual(len(re.findall(rf"\b{new}: function", glue)), 1, f"{module}: {new} is defined once")
                else:
                    self.assertEqual(new, old, "an import without a hash keeps its name")
            self.assertEqual(len(set(after)), len(after), "the short names are distinct")

    def test_each_closure_export_gets_a_short_name_the_glue_calls(self):
        staging = self.staging
        for module in (PAGE, "ratelimit-full"):
            before, after = wasm_names(wasm_of(FIXTURE, module))[1], wasm_names(wasm_of(staging, module))[1]
            glue = read(glue_of(staging, module))
            for old, new in zip(before, after):
                if CLOSURE.match(old):
                    self.assertRegex(new, r"^_[a-zA-Z]{1,2}$")
                    self.assertIn(f"wasm.{new}(", glue)
                    self.assertNotIn(f"wasm.{old}", glue)
                else:
                    self.assertEqual(new, old)

    def test_every_import_comes_from_the_module_a_which_the_glue_hands_over(self):
        for module in MODULES:
            modules = {m for m in wasm_modules(wasm_of(self.staging, module))}
            self.assertEqual(modules, {b"a"}, module)
            glue = read(glue_of(self.staging, module))
            self.assertNotIn("_bg.js\"", glue, f"{module}: the glue still names the old module")
            self.assertEqual(glue.count("a: import0"), 1, module)

    def test_stops_when_the_glue_names_the_import_module_otherwise(self):
        staging = staging_copy(self)
        glue = glue_of(staging, "ratelimit-logs")
        write(glue, read(glue).replace('"./ratelimit-logs_bg.js": import0', "['./ratelimit-logs_bg.js']: import0"))
        self.assert_fails(self.run_step(staging), '"./ratelimit-logs_bg.js":', "occurs 0 times in ratelimit-logs.js")

    def test_the_rest_of_each_wasm_is_unchanged(self):
        staging = self.staging
        for module in MODULES:
            before, after = wasm_sections(wasm_of(FIXTURE, module)), wasm_sections(wasm_of(staging, module))
            self.assertEqual(sorted(before), sorted(after))
            for sid in before:
                if sid not in (2, 7):
                    self.assertEqual(before[sid], after[sid], f"{module}: section {sid}")

    def test_each_module_still_starts_with_its_glue(self):
        for module in MODULES:
            load_module_in_node(self, self.staging, module)

    def test_stops_when_an_import_s_name_is_written_twice_in_the_glue(self):
        staging = staging_copy(self)
        name = next(n for n in wasm_names(wasm_of(staging, "ratelimit-embed"))[0] if WBG.match(n))
        glue = glue_of(staging, "ratelimit-embed")
        write(glue, read(glue) + f"// {name}\n")
        self.assert_fails(self.run_step(staging), name, "occurs 2 times in ratelimit-embed.js")

    def test_stops_when_the_glue_names_an_import_otherwise(self):
        staging = staging_copy(self)
        name = next(n for n in wasm_names(wasm_of(staging, "ratelimit-frame"))[0] if WBG.match(n))
        glue = glue_of(staging, "ratelimit-frame")
        write(glue, read(glue).replace(name, name.upper()))
        self.assert_fails(self.run_step(staging), name, "occurs 0 times in ratelimit-frame.js")

    def test_stops_when_the_glue_reads_a_closure_export_otherwise(self):
        staging = staging_copy(self)
        name = next(n for n in wasm_names(wasm_of(staging, "ratelimit-full"))[1] if CLOSURE.match(n))
        glue = glue_of(staging, "ratelimit-full")
        write(glue, read(glue).replace(f"wasm.{name}(", f'wasm["{name}"](', 1))
        self.assert_fails(self.run_step(staging), f"export {name}", "read otherwise")

    def test_stops_when_wasm_bindgen_hashes_import_names_otherwise(self):
        staging = staging_copy(self)
        rename_in_wasm(wasm_of(staging, "ratelimit-logs"), 2, lambda n: n[:-8] if WBG.match(n) else n)
        self.assert_fails(self.run_step(staging), "ratelimit-logs", "__wbg_<name>_<16 hex>")

    def test_stops_when_wasm_bindgen_hashes_closure_exports_otherwise(self):
        staging = staging_copy(self)
        rename_in_wasm(wasm_of(staging, "ratelimit-full"), 7, lambda n: n[:-8] if CLOSURE.match(n) else n)
        self.assert_fails(self.run_step(staging), "ratelimit-full", "wasm_bindgen__convert__closures_____invoke__h<16 hex>")


def wasm_modules(path):
    """The module each import of the wasm at `path` comes from."""
    for sid, body in sections(read(path, "rb")):
        if sid == 2:
            yield from (module for module, _, _, _ in imports(body))


if __name__ == "__main__":
    unittest.main()
