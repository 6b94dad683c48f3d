"""The fixture is what the pinned tools write today: made with the Trunk, wasm-bindgen and wasm-opt
the build pins, from index.html's current Trunk links. After an upgrade these fail first, asking for
`make build-fixtures`; the step tests then say what the new output changed."""
import json
import os
import re
import unittest

from harness import FIXTURE, MADE_FROM, PAGE, REPO, WORKERS, glue_of, read, trunk_links, wasm_of

REFRESH = "run `make build-fixtures` (scripts/tests/refresh_fixtures.py), then `make test-build-steps`"


def made_from():
    return json.loads(read(MADE_FROM))


class FixtureIsCurrent(unittest.TestCase):
    def test_was_made_with_the_pinned_trunk(self):
        pinned = re.search(r"^TRUNK_VERSION=(\S+)$", read(os.path.join(REPO, "scripts", "bootstrap.sh")), re.M)
        self.assertIsNotNone(pinned, "scripts/bootstrap.sh no longer sets TRUNK_VERSION=")
        self.assertEqual(made_from()["trunk"], f"trunk {pinned.group(1)}",
                         f"the fixture was made with another Trunk than bootstrap.sh pins: {REFRESH}")

    def test_was_made_with_the_pinned_wasm_bindgen(self):
        pinned = re.search(r'^wasm_bindgen = "([^"]+)"$', read(os.path.join(REPO, "Trunk.toml")), re.M)
        self.assertIsNotNone(pinned, 'Trunk.toml no longer pins wasm_bindgen = "…"')
        self.assertEqual(made_from()["wasm-bindgen"], f"wasm-bindgen {pinned.group(1)}",
                         f"the fixture was made with another wasm-bindgen than Trunk.toml pins: {REFRESH}")

    def test_was_made_with_the_pinned_wasm_opt(self):
        pinned = re.search(r'^wasm_opt = "([^"]+)"$', read(os.path.join(REPO, "Trunk.toml")), re.M)
        self.assertIsNotNone(pinned, 'Trunk.toml no longer pins wasm_opt = "…"')
        self.assertIn(f"({pinned.group(1)})", made_from()["wasm-opt"],
                      f"the fixture was made with another wasm-opt than Trunk.toml pins: {REFRESH}")

    def test_was_made_from_index_html_s_trunk_links(self):
        links = trunk_links(read(os.path.join(REPO, "index.html")))
        self.assertEqual(made_from()["index.html links"], links,
                         f"index.html's Trunk links changed since the fixture was made: {REFRESH}")

    def test_holds_each_module_with_its_glue(self):
        for module in (PAGE, *WORKERS):
            self.assertTrue(os.path.exists(glue_of(FIXTURE, module)))
            self.assertTrue(os.path.exists(wasm_of(FIXTURE, module)))
        for module in WORKERS:
            self.assertEqual(os.path.basename(glue_of(FIXTURE, module)), f"{module}.js",
                             "a worker-type module's files are named after it, without a hash")


if __name__ == "__main__":
    unittest.main()
