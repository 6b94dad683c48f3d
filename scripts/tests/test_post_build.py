"""post_build.py, the hook Trunk runs, on the captured staging folder: the five steps in order, as
in a release build and under `trunk serve`, leave every module starting with its glue; the first
step that fails stops the rest and is named; POST_BUILD_CAPTURE copies what the steps are given."""
import filecmp
import os
import re
import tempfile
import shutil
import unittest

from harness import (FIXTURE, NAMED, PAGE, StepTest, check_module_syntax, glue_of, load_in_node, read, require,
                     staging_copy, wasm_names, wasm_of, write)


class PostBuild(StepTest):
    step = "post_build.py"

    def test_a_release_build_s_modules_all_start_after_every_step(self):
        require("wasm-opt")
        require("esbuild")
        staging = staging_copy(self)
        self.assert_ok(self.run_step(staging))
        load_in_node(self, glue_of(staging, PAGE), wasm_of(staging, PAGE))
        load_in_node(self, glue_of(staging, "ratelimit-logs"), wasm_of(staging, "ratelimit-logs"), "wasm_bindgen")
        for module in NAMED:
            load_in_node(self, glue_of(staging, module), wasm_of(staging, module), module.replace("-", "_"))
        for module in (PAGE, "ratelimit-full"):
            imported, exported = wasm_names(wasm_of(staging, module))
            self.assertFalse([n for n in imported if n.startswith("__wbg_")], "every hashed import is short")
            self.assertFalse([n for n in exported if "intounderlying" in n], "no stream class is left")
        loader = re.search(r'<script type="module" src="\./(loader-[0-9a-f]{16}\.js)"></script>',
                           read(os.path.join(staging, "index.html")))
        self.assertIsNotNone(loader)
        check_module_syntax(self, os.path.join(staging, loader.group(1)))

    def test_under_trunk_serve_the_release_only_steps_do_nothing(self):
        staging = staging_copy(self)
        self.assert_ok(self.run_step(staging, profile="debug"))
        full = read(glue_of(staging, "ratelimit-full"))
        self.assertTrue(full.startswith("let ratelimit_full = "), "name_globals ran")
        self.assertIn("class IntoUnderlyingSink", full, "drop_stream_exports did not")
        self.assertIn("\n    ", full, "minify did not")
        load_in_node(self, glue_of(staging, "ratelimit-full"), wasm_of(staging, "ratelimit-full"), "ratelimit_full")

    def test_the_first_failing_step_stops_the_rest_and_is_named(self):
        staging = staging_copy(self)
        glue = glue_of(staging, "ratelimit-full")
        write(glue, read(glue).replace("let wasm_bindgen = ", "var wasm_bindgen = ", 1))
        self.assert_fails(self.run_step(staging), "name_globals: ratelimit-full.js", "post_build: name_globals.py failed")
        self.assertEqual(read(os.path.join(staging, "index.html")), read(os.path.join(FIXTURE, "index.html")),
                         "externalize_loader.py did not run")

    def test_post_build_capture_copies_the_staging_folder_before_the_steps(self):
        staging = staging_copy(self)
        capture = os.path.join(tempfile.mkdtemp(prefix="build-steps-capture-"), "staging")
        self.addCleanup(shutil.rmtree, os.path.dirname(capture), ignore_errors=True)
        self.assert_ok(self.run_step(staging, profile="debug", env={"POST_BUILD_CAPTURE": capture}))
        compared = filecmp.dircmp(FIXTURE, capture)
        self.assertEqual((compared.left_only, compared.right_only), ([], []))
        self.assertEqual(filecmp.cmpfiles(FIXTURE, capture, os.listdir(FIXTURE), shallow=False)[1:], ([], []))
        self.assertNotEqual(read(os.path.join(staging, "index.html")), read(os.path.join(capture, "index.html")))


if __name__ == "__main__":
    unittest.main()
