"""index.html's Trunk links, as the build's steps and the loader rely on them: the modules the loader
imports are ES modules, and at most one classic-script glue runs on a page (each declares the
global `wasm_bindgen`: a second would fail with "Identifier 'wasm_bindgen' has already been
declared")."""
import os
import re
import unittest

from harness import ES_MODULES, PAGE, REPO, read, trunk_links


def rust_links():
    """{module: its `<link data-trunk rel="rust">` tag} in index.html."""
    links = {}
    for tag in trunk_links(read(os.path.join(REPO, "index.html"))):
        if 'rel="rust"' in tag:
            links[re.search(r'data-bin="([^"]+)"', tag).group(1)] = tag
    return links


class IndexHtml(unittest.TestCase):
    def test_the_modules_the_loader_imports_are_es_modules(self):
        links = rust_links()
        self.assertNotIn('data-type="worker"', links[PAGE], "the page's module is Trunk's main")
        for module in ES_MODULES[1:]:
            self.assertIn('data-bindgen-target="web"', links[module], module)

    def test_at_most_one_classic_script_glue_runs_on_a_page(self):
        classic = [module for module, tag in rust_links().items()
                   if 'data-type="worker"' in tag and 'data-bindgen-target="web"' not in tag
                   and "data-loader-shim" not in tag]  # the log worker's glue runs in its worker
        self.assertLessEqual(len(classic), 1, f"classic-script glue on the page: {classic}")


if __name__ == "__main__":
    unittest.main()
