"""drop_stream_exports.py on the captured staging folder: wasm-streams' exported classes leave the
modules that have them (the fixture's page and whole page), in the wasm and in the glue, and the
module still starts; a module without them is left alone."""
import os
import re
import unittest

from harness import (FIXTURE, PAGE, StepTest, glue_of, load_module_in_node, read, rename_in_wasm, require, staging_copy,
                     wasm_names, wasm_of, write)

WITH_STREAMS = (PAGE, "ratelimit-full")
WITHOUT = ("ratelimit-logs", "ratelimit-embed", "ratelimit-frame")
STREAM_EXPORT = re.compile(r"^(__wbg_)?intounderlying(bytesource|sink|source)(_\w+)?$")


def stream_exports(path):
    return [name for name in wasm_names(path)[1] if STREAM_EXPORT.match(name)]


class DropStreamExports(StepTest):
    step = "drop_stream_exports.py"

    @classmethod
    def setUpClass(cls):
        require("wasm-opt")
        cls.staging = cls.ran()

    def test_the_fixture_has_the_stream_classes(self):
        for module in WITH_STREAMS:
            self.assertEqual(len(stream_exports(wasm_of(FIXTURE, module))), 13, module)
            self.assertEqual(read(glue_of(FIXTURE, module)).count("class IntoUnderlying"), 3, module)

    def test_the_stream_classes_leave_the_wasm_and_the_glue(self):
        for module in WITH_STREAMS:
            wasm, glue = wasm_of(self.staging, module), read(glue_of(self.staging, module))
            self.assertEqual(stream_exports(wasm), [])
            for gone in ("IntoUnderlying", "intounderlying", "ReadableStreamType"):
                self.assertNotIn(gone, glue, module)
            kept = [n for n in wasm_names(wasm_of(FIXTURE, module))[1] if not STREAM_EXPORT.match(n)]
            self.assertEqual(wasm_names(wasm)[1], kept, f"{module}'s other exports stay, in order")
            self.assertLess(os.path.getsize(wasm), os.path.getsize(wasm_of(FIXTURE, module)) - 2000,
                            "more than the export entries went: wasm-opt dropped the code only they reached")

    def test_each_module_still_starts_with_its_glue(self):
        for module in WITH_STREAMS:
            load_module_in_node(self, self.staging, module)

    def test_a_module_without_them_is_left_alone(self):
        for module in WITHOUT:
            for path in (wasm_of, glue_of):
                self.assertEqual(read(path(self.staging, module), "rb"), read(path(FIXTURE, module), "rb"), module)

    def test_a_debug_build_is_left_alone(self):
        staging = staging_copy(self)
        self.assert_ok(self.run_step(staging, profile="debug"))
        for module in WITH_STREAMS:
            self.assertEqual(read(wasm_of(staging, module), "rb"), read(wasm_of(FIXTURE, module), "rb"))

    def test_stops_before_changing_anything_when_a_class_no_longer_ends_as_wasm_bindgen_wrote_it(self):
        staging = staging_copy(self)
        glue = glue_of(staging, "ratelimit-full")
        end = "if (Symbol.dispose) IntoUnderlyingSink.prototype[Symbol.dispose] = IntoUnderlyingSink.prototype.free;"
        write(glue, read(glue).replace(end, ""))
        self.assert_fails(self.run_step(staging), "ratelimit-full.js", "class IntoUnderlyingSink", end)
        self.assertEqual(read(wasm_of(staging, "ratelimit-full"), "rb"), read(wasm_of(FIXTURE, "ratelimit-full"), "rb"))

    def test_stops_when_something_of_the_classes_is_left_in_the_glue(self):
        staging = staging_copy(self)
        glue = glue_of(staging, PAGE)
        js = read(glue)
        registry = re.search(r"const IntoUnderlyingSinkFinalization = .*?\);\n", js, re.S).group(0)
        write(glue, js.replace(registry, " ".join(registry.split()) + "\n"))  # one line where it was three
        self.assert_fails(self.run_step(staging), os.path.basename(glue), "'IntoUnderlying' is still in the glue")

    def test_stops_when_the_glue_has_the_classes_but_the_wasm_no_export_it_knows(self):
        staging = staging_copy(self)
        rename_in_wasm(wasm_of(staging, "ratelimit-full"), 7, lambda n: n.replace("intounderlying", "into_underlying"))
        self.assert_fails(self.run_step(staging), "ratelimit-full", "IntoUnderlying", STREAM_EXPORT.pattern)

    def test_stops_without_wasm_opt(self):
        done = self.run_step(staging_copy(self), env={"PATH": "/nonexistent"})
        self.assert_fails(done, "wasm-opt is not on PATH")


if __name__ == "__main__":
    unittest.main()
