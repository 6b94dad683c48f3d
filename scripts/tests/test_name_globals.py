"""name_globals.py on the captured staging folder: each worker-type glue a page may run next to
another gets a global named after its file, and nothing else of it changes."""
import os
import unittest

from harness import FIXTURE, NAMED, PAGE, StepTest, glue_of, load_in_node, read, staging_copy, wasm_of, write

DECLARATION = "let wasm_bindgen = (function(exports) {"


class NameGlobals(StepTest):
    step = "name_globals.py"

    def test_each_glue_a_page_runs_declares_the_global_named_after_its_file(self):
        staging = staging_copy(self)
        self.assert_ok(self.run_step(staging))
        for module in NAMED:
            before, after = read(glue_of(FIXTURE, module)), read(glue_of(staging, module))
            renamed = f"let {module.replace('-', '_')} = (function(exports) {{"
            self.assertTrue(after.startswith(renamed), f"{module}.js starts {after[:60]!r}")
            self.assertEqual(after[len(renamed):], before[len(DECLARATION):], f"only {module}.js's declaration changes")

    def test_leaves_the_log_worker_and_the_page_s_glue_alone(self):
        staging = staging_copy(self)
        self.assert_ok(self.run_step(staging))
        for module in ("ratelimit-logs", PAGE):
            self.assertEqual(read(glue_of(staging, module)), read(glue_of(FIXTURE, module)))

    def test_each_renamed_glue_still_starts_its_module(self):
        staging = staging_copy(self)
        self.assert_ok(self.run_step(staging))
        for module in NAMED:
            load_in_node(self, glue_of(staging, module), wasm_of(staging, module), module.replace("-", "_"))

    def test_stops_when_wasm_bindgen_declares_the_global_otherwise(self):
        staging = staging_copy(self)
        glue = glue_of(staging, "ratelimit-frame")
        write(glue, read(glue).replace(DECLARATION, "var wasm_bindgen = (function(exports) {", 1))
        self.assert_fails(self.run_step(staging), "ratelimit-frame.js", DECLARATION)

    def test_stops_outside_trunk(self):
        done = self.run_step("", profile="release")
        self.assert_fails(done, "TRUNK_STAGING_DIR")

    def test_stops_when_a_glue_is_missing(self):
        staging = staging_copy(self)
        os.remove(glue_of(staging, "ratelimit-embed"))
        self.assert_fails(self.run_step(staging), "ratelimit-embed.js is not in the staging folder")


if __name__ == "__main__":
    unittest.main()
