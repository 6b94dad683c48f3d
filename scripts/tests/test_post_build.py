"""post_build.py, the hook Trunk runs, on the captured staging folder: the steps in order, as
in a release build and under `trunk serve`, leave every module starting with its glue; the first
step that fails stops the rest and is named; POST_BUILD_CAPTURE copies what the steps are given."""
import filecmp
import os
import re
import tempfile
import shutil
import unittest

from harness import (FIXTURE, PAGE, WORKERS, StepTest, check_module_syntax, glue_of, load_module_in_node, read,
                     require, staging_copy, wasm_names, wasm_of, write)


class PostBuild(StepTest):
    step = "post_build.py"

    def test_a_release_build_s_modules_all_start_after_every_step(self):
        require("wasm-opt")
        require("esbuild")
        staging = staging_copy(self)
        self.assert_ok(self.run_step(staging))
        for module in (PAGE, *WORKERS):
            load_module_in_node(self, staging, module)
        for module in (PAGE, "ratelimit-full"):
            imported, exported = wasm_names(wasm_of(staging, module))
            self.assertFalse([n for n in imported if n.startswith("__wbg_")], "every hashed import is short")
            self.assertFalse([n for n in exported if "intounderlying" in n], "no stream class is left")
        loader = re.search(r'<script type="module" async src="\./(loader-[0-9a-f]{16}\.js)"></script>',
                           read(os.path.join(staging, "index.html")))
        self.assertIsNotNone(loader)
        check_module_syntax(self, os.path.join(staging, loader.group(1)))

    def test_under_trunk_serve_the_release_only_steps_do_nothing(self):
        staging = staging_copy(self)
        self.assert_ok(self.run_step(staging, profile="debug"))
        self.assertNotIn('<script type="module">', read(os.path.join(staging, "index.html")), "externalize_loader ran")
        imported, exported = wasm_names(wasm_of(staging, "ratelimit-full"))
        self.assertFalse([n for n in imported if n.startswith("__wbg_")], "shorten_imports ran")
        self.assertTrue([n for n in exported if "intounderlying" in n], "drop_stream_exports did not")
        self.assertIn("\n    ", read(glue_of(staging, "ratelimit-full")), "minify did not")
        for module in (PAGE, *WORKERS):
            load_module_in_node(self, staging, module)

    def test_the_first_failing_step_stops_the_rest_and_is_named(self):
        staging = staging_copy(self)
        index = os.path.join(staging, "index.html")
        write(index, read(index).replace("import init, * as bindings from", "import init from"))
        self.assert_fails(self.run_step(staging), "externalize_loader: ", "post_build: externalize_loader.py failed")
        for module in (PAGE, *WORKERS):
            self.assertEqual(read(wasm_of(staging, module), "rb"), read(wasm_of(FIXTURE, module), "rb"),
                             "the steps after it did not run")

    def test_stops_outside_trunk(self):
        self.assert_fails(self.run_step(""), "TRUNK_STAGING_DIR is not set", "post_build.py runs me")

    def test_post_build_capture_copies_the_staging_folder_before_the_steps(self):
        staging = staging_copy(self)
        capture = os.path.join(tempfile.mkdtemp(prefix="build-steps-capture-"), "staging")
        self.addCleanup(shutil.rmtree, os.path.dirname(capture), ignore_errors=True)
        self.assert_ok(self.run_step(staging, profile="debug", env={"POST_BUILD_CAPTURE": capture}))
        compared = filecmp.dircmp(FIXTURE, capture)
        self.assertEqual((compared.left_only, compared.right_only), ([], []))
        files = [os.path.relpath(os.path.join(d, n), FIXTURE) for d, _, names in os.walk(FIXTURE) for n in names]
        self.assertEqual(filecmp.cmpfiles(FIXTURE, capture, files, shallow=False)[1:], ([], []))
        self.assertNotEqual(read(os.path.join(staging, "index.html")), read(os.path.join(capture, "index.html")))


if __name__ == "__main__":
    unittest.main()
