"""minify.py on the captured staging folder, as the step before it that changes what it reads
leaves it (the loader a file, the whole page's stylesheets in a <template>): every JS and CSS file
smaller, each module still starting as the loader or embed-builder.js starts it, and each
stylesheet's SRI hash that of its new bytes."""
import base64
import hashlib
import os
import re
import unittest

from harness import (PAGE, WORKERS, StepTest, check_module_syntax, load_module_in_node, read, require, run_step,
                     staging_copy, write)

INTEGRITY = re.compile(r'<link rel="stylesheet" href="\./([^"]+\.css)"[^>]*integrity="([^"]*)"')


def sri(path):
    return "sha384-" + base64.b64encode(hashlib.sha384(read(path, "rb")).digest()).decode()


class Minify(StepTest):
    step = "minify.py"

    @classmethod
    def setUpClass(cls):
        require("esbuild")
        cls.minified = cls.ran(before=("externalize_loader.py",))

    def before_minify(self):
        """A staging copy as minify.py meets it in the build: after externalize_loader
        (drop_stream_exports and shorten_imports change nothing minify reads)."""
        staging = staging_copy(self)
        done = run_step("externalize_loader.py", staging)
        self.assertEqual(done.returncode, 0, done.stderr)
        return staging

    def sources(self, staging):
        return {n: os.path.getsize(os.path.join(staging, n)) for n in os.listdir(staging) if n.endswith((".js", ".css"))}

    def test_every_script_and_stylesheet_gets_smaller(self):
        before, after = self.sources(self.before_minify()), self.sources(self.minified)
        self.assertEqual(sorted(after), sorted(before))
        for name in before:
            if name == "ratelimit-logs_loader.js":  # Trunk's one-line shim: esbuild adds a newline
                self.assertLessEqual(after[name], before[name] + 1, name)
            elif name == "first-paint.js":  # written minified: esbuild may find nothing to take out
                self.assertLessEqual(after[name], before[name], name)
            else:
                self.assertLess(after[name], before[name], name)

    def test_each_stylesheet_s_integrity_is_that_of_its_minified_bytes(self):
        staging = self.minified
        html = read(os.path.join(staging, "index.html"))
        found = INTEGRITY.findall(html)
        self.assertEqual(sorted(name.split("-")[0] for name, _ in found), ["cluster", "embed", "main", "share", "whole"],
                         "the head's stylesheets, the whole page's and a frame's in their <template>s")
        for name, integrity in found:
            self.assertEqual(integrity, sri(os.path.join(staging, name)), name)

    def test_each_module_still_starts_with_its_minified_glue(self):
        for module in (PAGE, *WORKERS):
            load_module_in_node(self, self.minified, module)

    def test_the_loader_is_still_a_module_with_its_entry_points(self):
        staging = self.minified
        loader = next(n for n in os.listdir(staging) if n.startswith("loader-"))
        check_module_syntax(self, os.path.join(staging, loader))
        source = read(os.path.join(staging, loader))
        for name in ("globalThis.rlpStartWhole", 'import("./ratelimit-full.js")', 'import("./ratelimit-frame.js")',
                     "TrunkApplicationStarted"):
            self.assertIn(name, source)
        self.assertIn("wasm_bindgen(", read(os.path.join(staging, "embed-builder.js")))

    def test_a_debug_build_is_left_alone(self):
        staging = self.before_minify()
        # Every file, in the folders Trunk copies too (examples/).
        def files():
            return {
                os.path.relpath(os.path.join(d, n), staging): read(os.path.join(d, n), "rb")
                for d, _, names in os.walk(staging)
                for n in names
            }

        before = files()
        self.assert_ok(self.run_step(staging, profile="debug"))
        self.assertEqual(files(), before)

    def test_stops_when_a_stylesheet_s_hash_is_not_sha384(self):
        staging = self.before_minify()
        index = os.path.join(staging, "index.html")
        write(index, read(index).replace('integrity="sha384-', 'integrity="sha256-', 1))
        self.assert_fails(self.run_step(staging), "integrity is not sha384")

    def test_stops_when_index_html_names_a_stylesheet_the_build_did_not_write(self):
        staging = self.before_minify()
        name = INTEGRITY.search(read(os.path.join(staging, "index.html"))).group(1)
        os.remove(os.path.join(staging, name))
        self.assert_fails(self.run_step(staging), f"index.html names {name}, which the build did not write")

    def test_stops_when_no_stylesheet_has_an_integrity_hash(self):
        staging = self.before_minify()
        index = os.path.join(staging, "index.html")
        write(index, re.sub(r' integrity="[^"]*"', "", read(index)))
        self.assert_fails(self.run_step(staging), "no stylesheet with an integrity hash")

    def test_stops_when_esbuild_cannot_read_a_file(self):
        staging = self.before_minify()
        write(os.path.join(staging, "ratelimit-logs_loader.js"), "importScripts(\n")
        self.assert_fails(self.run_step(staging), "esbuild failed on ratelimit-logs_loader.js")


if __name__ == "__main__":
    unittest.main()
