"""externalize_loader.py on the captured staging folder: Trunk's inline loader becomes a file of
its own that index.html references, made of the committed scripts/loader/ (the routing printed
from Rust, then the hand-written loader) with Trunk's names filled in, which picks the module a
link needs as Rust's `Module::of` does (scripts/loader/route-cases.json); the whole page's
stylesheets wait in a <template>; Trunk's preloads of the page's module go."""
import hashlib
import json
import os
import re
import unittest

from harness import (FIXTURE, PAGE, SCRIPTS, StepTest, check_module_syntax, glue_of, loader_imports, loader_routes, read,
                     run_step, scripts_copy, staging_copy, wasm_of, write)

ROUTE_CASES = os.path.join(SCRIPTS, "loader", "route-cases.json")

LOADER_TAG = re.compile(r'<script type="module" async src="\./(loader-[0-9a-f]{16}\.js)"></script>')


def stylesheet(html, name):
    """index.html's <link rel="stylesheet"> tag for `name`-<hash>.css."""
    found = re.findall(rf'<link rel="stylesheet" href="[^"]*/{name}-[0-9a-f]+\.css"[^>]*>', html)
    assert len(found) == 1, f"expected one {name} stylesheet link, found {found}"
    return found[0]


class ExternalizeLoader(StepTest):
    step = "externalize_loader.py"

    def moved(self, staging=None):
        """(index.html, loader name, loader source) after the step ran on `staging`."""
        staging = staging or staging_copy(self)
        self.assert_ok(self.run_step(staging))
        html = read(os.path.join(staging, "index.html"))
        tags = LOADER_TAG.findall(html)
        self.assertEqual(len(tags), 1, "index.html should reference one loader file")
        return html, tags[0], read(os.path.join(staging, tags[0]))

    def test_the_loader_moves_to_a_file_named_by_its_content(self):
        html, name, loader = self.moved()
        self.assertNotIn("<script type=\"module\">", html, "no inline script is left")
        self.assertEqual(name, f"loader-{hashlib.sha256(loader.encode()).hexdigest()[:16]}.js")

    def test_the_loader_is_a_module_that_starts_the_page_s_module_by_trunk_s_names(self):
        staging = staging_copy(self)
        _, name, loader = self.moved(staging)
        check_module_syntax(self, os.path.join(staging, name))
        glue, wasm = (os.path.basename(f(staging, PAGE)) for f in (glue_of, wasm_of))
        self.assertIn(f'const bindings = await import("./{glue}");', loader)
        # The wasm's download starts before the glue's import, so the two arrive side by side.
        self.assertLess(loader.index(f'fetch("./{wasm}")'), loader.index(f'await import("./{glue}")'))

    def test_the_loader_is_the_committed_routing_and_loader_with_trunk_s_names(self):
        staging = staging_copy(self)
        _, _, loader = self.moved(staging)
        glue, wasm = (os.path.basename(f(staging, PAGE)) for f in (glue_of, wasm_of))
        committed = "\n".join(read(os.path.join(SCRIPTS, "loader", n)) for n in ("route.js", "loader.js"))
        filled = committed.replace("{{base}}", "./").replace("{{page_glue}}", glue).replace("{{page_wasm}}", wasm)
        self.assertEqual(loader, filled)

    def test_the_loader_imports_a_frame_s_and_the_whole_page_s_module(self):
        _, _, loader = self.moved()
        for module in ("ratelimit-frame", "ratelimit-full"):
            imported = loader.index(f'const {{ default: init }} = await import("./{module}.js");')
            self.assertLess(loader.index(f'fetch("./{module}_bg.wasm")'), imported)
        self.assertIn("globalThis.rlpStartWhole = startWhole;", loader)

    def test_the_loader_starts_the_module_each_link_needs(self):
        staging = staging_copy(self)
        _, name, _ = self.moved(staging)
        page = f"./{os.path.basename(glue_of(staging, PAGE))}"
        whole, frame = "./ratelimit-full.js", "./ratelimit-frame.js"
        for search, module in (
            ("", page),
            ("?algo=token_bucket&capacity=5", page),
            ("?view=compare", whole),
            ("?nodes=4&store=atomic", whole),
            ("?store=race", whole),
            ("?view=cluster", whole),
            ("?algo=nginx", whole),  # a product model: the first module has none
            ("?embed=1", frame),
            ("?embed=1&algo=nginx", whole),  # nor has a frame's
            ("?embed=1&show=compare", whole),
            ("?embed=1&nodes=3", whole),
        ):
            self.assertEqual(loader_imports(self, os.path.join(staging, name), search), [module], search)

    def test_under_trunk_serve_the_loader_follows_trunk_s_root_path(self):
        staging = staging_copy(self)
        index = os.path.join(staging, "index.html")
        html = read(index)
        inline = re.search(r'<script type="module">.*?</script>', html, re.S).group(0)
        write(index, html.replace(inline, inline.replace("'./", "'/")))
        _, _, loader = self.moved(staging)
        self.assertIn('await import("/ratelimit-frame.js")', loader)
        self.assertIn(f'await import("/{os.path.basename(glue_of(staging, PAGE))}")', loader)

    def test_the_whole_page_s_stylesheets_wait_in_a_template(self):
        before = read(os.path.join(FIXTURE, "index.html"))
        html, _, loader = self.moved()
        template = re.search(r'<template id="whole-page-css">(.*?)</template>', html, re.S)
        self.assertIsNotNone(template)
        for name in ("cluster", "whole"):
            self.assertIn(stylesheet(before, name), template.group(1), f"{name}'s link, integrity and all")
            self.assertEqual(html.count(f"/{name}-"), 1, f"{name}'s link is only in the template")
        for name in ("main", "share"):
            self.assertEqual(stylesheet(html, name), stylesheet(before, name))
            self.assertNotIn(stylesheet(html, name), template.group(1))
        self.assertIn('document.getElementById("whole-page-css")', loader)

    def test_trunk_s_preloads_of_the_page_s_module_go(self):
        self.assertIn('rel="modulepreload"', read(os.path.join(FIXTURE, "index.html")))
        html, _, _ = self.moved()
        self.assertNotIn("preload", html)

    def test_stops_when_trunk_no_longer_writes_one_inline_module_script(self):
        staging = staging_copy(self)
        index = os.path.join(staging, "index.html")
        write(index, read(index).replace('<script type="module">', '<script type="module" nonce="{{__TRUNK NONCE__}}">'))
        self.assert_fails(self.run_step(staging), "one inline module script", "found 0")

    def test_stops_when_trunk_s_loader_imports_otherwise(self):
        staging = staging_copy(self)
        index = os.path.join(staging, "index.html")
        write(index, read(index).replace("import init, * as bindings from", "import init from"))
        self.assert_fails(self.run_step(staging), "import init, * as bindings from")

    def test_stops_when_the_whole_page_s_stylesheets_are_not_found(self):
        staging = staging_copy(self)
        index = os.path.join(staging, "index.html")
        html = read(index)
        write(index, html.replace(stylesheet(html, "cluster"), ""))
        self.assert_fails(self.run_step(staging), "cluster-*.css and whole-*.css")

    def test_the_loader_routes_each_link_as_rust_s_module_of_does(self):
        # route-cases.json is Module::of's answer for each link (tests/loader_route.rs writes it
        # and fails when it is stale): the printed route() and the Rust one must agree.
        cases = json.loads(read(ROUTE_CASES))
        self.assertGreater(len(cases), 30)
        staging = staging_copy(self)
        _, name, _ = self.moved(staging)
        url = {"page": f"./{os.path.basename(glue_of(staging, PAGE))}", "whole": "./ratelimit-full.js",
               "frame": "./ratelimit-frame.js"}
        imported = loader_routes(self, os.path.join(staging, name), [search for search, _ in cases])
        wrong = [(search, module, got) for (search, module), got in zip(cases, imported) if got != [url[module]]]
        self.assertEqual(wrong, [], "links Node routes otherwise than Module::of (link, Rust's module, Node's imports)")

    def test_stops_when_trunk_s_loader_does_more_than_the_committed_loader(self):
        staging = staging_copy(self)
        index = os.path.join(staging, "index.html")
        html = read(index)
        write(index, html.replace("window.wasmBindings = bindings;", "window.wasmBindings = bindings;\nawait ready();"))
        self.assert_fails(self.run_step(staging), "no longer does what scripts/loader/loader.js does", "await ready();")

    def test_stops_when_the_routing_is_missing(self):
        scripts = scripts_copy(self)
        os.remove(os.path.join(scripts, "loader", "route.js"))
        done = run_step(self.step, staging_copy(self), scripts=scripts)
        self.assert_fails(done, "scripts/loader/route.js")

    def test_stops_when_the_loader_has_a_placeholder_it_does_not_fill(self):
        scripts = scripts_copy(self)
        loader = os.path.join(scripts, "loader", "loader.js")
        write(loader, read(loader) + 'const nonce = "{{nonce}}";\n')
        done = run_step(self.step, staging_copy(self), scripts=scripts)
        self.assert_fails(done, "{{nonce}}")


if __name__ == "__main__":
    unittest.main()
