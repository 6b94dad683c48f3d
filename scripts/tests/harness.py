"""What the build steps' tests share: the captured staging folder (fixtures/staging, made by
refresh_fixtures.py), a fresh copy of it per test, running a step on a copy as post_build.py does
(a subprocess with Trunk's environment), the tools the release steps call (wasm-opt, esbuild: the
Makefile's PATH), and Node, which loads a glue with its module to see they still fit together."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
REPO = os.path.dirname(SCRIPTS)
FIXTURE = os.path.join(HERE, "fixtures", "staging")
MADE_FROM = os.path.join(HERE, "fixtures", "made-from.json")
sys.path.insert(0, SCRIPTS)



def _bootstrap_pin(name):
    """A version scripts/bootstrap.sh pins (`NAME=…`)."""
    with open(os.path.join(SCRIPTS, "bootstrap.sh"), encoding="utf-8") as f:
        found = re.search(rf"^{name}=(\S+)$", f.read(), re.M)
    if not found:
        raise AssertionError(f"scripts/bootstrap.sh no longer sets {name}=")
    return found.group(1)


# The Makefile's PATH: the pinned npm tools from the bootstrap's cache first.
CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "ratelimit-playground")
TOOL_DIRS = (
    os.path.join(CACHE, f"binaryen-{_bootstrap_pin('BINARYEN_VERSION')}", "node_modules", ".bin"),
    os.path.join(CACHE, f"esbuild-{_bootstrap_pin('ESBUILD_VERSION')}", "node_modules", ".bin"),
)
PATH = os.pathsep.join((*TOOL_DIRS, os.environ.get("PATH", "")))

# The modules the app builds: the page's first module (Trunk's main) and the ones Trunk builds
# without loading them (its worker type). The loader imports the page's, a frame's and the whole
# page's, ES modules (wasm-bindgen's `web` target); the log worker's and the embed builder's glue
# is a classic script (`no-modules`) defining the global `wasm_bindgen`.
PAGE = "ratelimit-playground"
WORKERS = ("ratelimit-logs", "ratelimit-embed", "ratelimit-frame", "ratelimit-full")
ES_MODULES = (PAGE, "ratelimit-frame", "ratelimit-full")


def trunk_links(html):
    """index.html's `<link data-trunk …>` tags, whitespace folded: what the fixture is built from."""
    return [" ".join(tag.split()) for tag in re.findall(r"<link data-trunk[^>]*>", html)]


def require(tool):
    """The path of `tool` on the Makefile's PATH. Missing, the test is skipped, or fails when
    BUILD_STEPS_REQUIRE_TOOLS is set (the Makefile sets it: `make bootstrap` installs them)."""
    path = shutil.which(tool, path=PATH)
    if path:
        return path
    message = f"{tool} is not installed (make bootstrap installs it)"
    if os.environ.get("BUILD_STEPS_REQUIRE_TOOLS"):
        raise AssertionError(message)
    raise unittest.SkipTest(message)


def staging_copy(test):
    """A fresh copy of the captured staging folder for `test` (a test, or a test class in its
    setUpClass), removed after it."""
    if not os.path.isdir(FIXTURE):
        raise AssertionError(f"no fixture at {FIXTURE}: run `make build-fixtures`")
    root = tempfile.mkdtemp(prefix="build-steps-")
    (test.addClassCleanup if isinstance(test, type) else test.addCleanup)(shutil.rmtree, root, ignore_errors=True)
    staging = os.path.join(root, "staging")
    shutil.copytree(FIXTURE, staging)
    return staging


def scripts_copy(test):
    """A copy of scripts/ (its steps and scripts/loader/), for a test that changes what a step
    reads beside it: returns the copy's scripts/ folder."""
    root = tempfile.mkdtemp(prefix="build-steps-src-")
    test.addCleanup(shutil.rmtree, root, ignore_errors=True)
    scripts = os.path.join(root, "scripts")
    os.makedirs(scripts)
    for name in os.listdir(SCRIPTS):
        if name.endswith(".py"):
            shutil.copy(os.path.join(SCRIPTS, name), scripts)
    shutil.copytree(os.path.join(SCRIPTS, "loader"), os.path.join(scripts, "loader"))
    return scripts


def run_step(step, staging, profile="release", scripts=SCRIPTS, env=None):
    """Runs scripts/`step` as Trunk runs the hook: in the crate's folder, with TRUNK_STAGING_DIR
    and TRUNK_PROFILE set. Returns the finished process (stdout and stderr as text)."""
    full_env = dict(os.environ, PATH=PATH, TRUNK_STAGING_DIR=staging, TRUNK_PROFILE=profile)
    full_env.update(env or {})
    return subprocess.run([sys.executable, os.path.join(scripts, step)], cwd=os.path.dirname(scripts),
                          env=full_env, capture_output=True, text=True, check=False)


def read(path, mode="r"):
    with open(path, mode, **({} if "b" in mode else {"encoding": "utf-8"})) as f:
        return f.read()


def write(path, content):
    with open(path, "wb" if isinstance(content, bytes) else "w", **({} if isinstance(content, bytes) else {"encoding": "utf-8"})) as f:
        f.write(content)


def glue_of(staging, module):
    """The path of `module`'s glue (the page's carries Trunk's content hash in its name)."""
    return os.path.join(staging, _file(staging, module, ".js"))


def wasm_of(staging, module):
    """The path of `module`'s wasm."""
    return os.path.join(staging, _file(staging, module, "_bg.wasm"))


def _file(staging, module, suffix):
    names = [n for n in os.listdir(staging)
             if n.endswith(suffix) and re.fullmatch(rf"{re.escape(module)}(-[0-9a-f]+)?{re.escape(suffix)}", n)]
    if len(names) != 1:
        raise AssertionError(f"expected one {module}*{suffix} in the staging folder, found {names}")
    return names[0]


# Loads a glue and its module in Node and calls the fixture's exports: a classic-script glue
# defines its global (`global`), an ES module glue (`global` empty) is imported; either way the
# module must instantiate with the glue's imports and `add`/`greet` must answer.
NODE_LOAD = r"""
const fs = require("fs"), os = require("os"), path = require("path"), url = require("url"), vm = require("vm");
const [glue, wasm, global] = process.argv.slice(1);  // node -e: argv[1] is the first argument
(async () => {
  let init, api;
  if (global) {
    vm.runInThisContext(fs.readFileSync(glue, "utf8"), { filename: glue });
    init = api = vm.runInThisContext(`typeof ${global} === "function" ? ${global} : undefined`);
    if (!init) throw new Error(`the glue defines no function ${global}`);
  } else {
    const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "build-steps-")), "glue.mjs");
    fs.copyFileSync(glue, copy);
    api = await import(url.pathToFileURL(copy));
    fs.rmSync(path.dirname(copy), { recursive: true });
    init = api.default;
  }
  await init({ module_or_path: fs.readFileSync(wasm) });
  console.log(JSON.stringify({ add: api.add(2, 3), larger: api.larger(2, 7), greet: api.greet("fixture") }));
})().catch((e) => { console.error(String(e && e.stack || e)); process.exit(1); });
"""


def load_module_in_node(test, staging, module):
    """Instantiates `module` of `staging` with its glue in Node, as the page or embed-builder.js
    starts it, and checks the fixture's exports answer."""
    global_name = "" if module in ES_MODULES else "wasm_bindgen"
    load_in_node(test, glue_of(staging, module), wasm_of(staging, module), global_name)


def load_in_node(test, glue, wasm, global_name=""):
    """Instantiates `wasm` with `glue` in Node and checks the fixture's exports answer."""
    node = require("node")
    done = subprocess.run([node, "-e", NODE_LOAD, glue, wasm, global_name], capture_output=True, text=True, check=False)
    test.assertEqual(done.returncode, 0, f"{os.path.basename(glue)} with {os.path.basename(wasm)} in Node:\n{done.stderr}")
    test.assertEqual(json.loads(done.stdout), {"add": 5, "larger": 7, "greet": "hello, fixture"})


def check_module_syntax(test, path):
    """`path` parses as an ES module (node --check)."""
    node = require("node")
    with tempfile.TemporaryDirectory(prefix="build-steps-") as tmp:
        copy = os.path.join(tmp, os.path.basename(path) + ".mjs")
        shutil.copy(path, copy)
        done = subprocess.run([node, "--check", copy], capture_output=True, text=True, check=False)
    test.assertEqual(done.returncode, 0, f"{os.path.basename(path)} is not a valid ES module:\n{done.stderr}")


class StepTest(unittest.TestCase):
    """A test of one step: `self.run_step(staging)` runs it, `assert_fails` checks how it stops.
    `ran(cls)` in setUpClass runs it once on a copy for the tests that only read what it wrote
    (wasm-opt takes a second a module)."""

    step = None

    @classmethod
    def ran(cls, before=(), **kwargs):
        """A staging copy the step has run on (after the steps in `before`), for the whole class."""
        staging = staging_copy(cls)
        for step in (*before, cls.step):
            done = run_step(step, staging, **kwargs)
            if done.returncode != 0:
                raise AssertionError(f"{step} failed:\n{done.stderr}")
        return staging

    def run_step(self, staging, **kwargs):
        return run_step(self.step, staging, **kwargs)

    def assert_ok(self, done):
        self.assertEqual(done.returncode, 0, f"{self.step} failed:\n{done.stderr}")

    def assert_fails(self, done, *fragments):
        """The step stopped, and its message names each of `fragments` (what it did not find)."""
        self.assertNotEqual(done.returncode, 0, f"{self.step} accepted an input it should refuse")
        for fragment in fragments:
            self.assertIn(fragment, done.stderr, f"{self.step}'s message should name {fragment!r}")


def wasm_names(path):
    """(import names, export names) of the wasm at `path`."""
    from wasmfile import exports, imports, sections

    imported, exported = [], []
    for sid, body in sections(read(path, "rb")):
        if sid == 2:
            imported = [name for _, name, _, _ in imports(body)]
        if sid == 7:
            exported = [name for name, _ in exports(body)]
    return imported, exported


def wasm_sections(path):
    """{section id: body} of the wasm at `path`, for the sections a module has once (not custom)."""
    from wasmfile import sections

    return {sid: body for sid, body in sections(read(path, "rb")) if sid != 0}


def rename_in_wasm(path, section, rename):
    """Rewrites the wasm at `path` with each import (section 2) or export (section 7) name passed
    through `rename`: an input whose shape a step should refuse."""
    from wasmfile import exports, imports, sections, uleb

    wasm = read(path, "rb")
    out = bytearray(wasm[:8])
    for sid, body in sections(wasm):
        if sid == section == 2:
            entries = list(imports(body))
            new = bytearray(uleb(len(entries)))
            for module, name, kind, description in entries:
                name = rename(name).encode()
                new += uleb(len(module)) + module + uleb(len(name)) + name + bytes([kind]) + description
            body = bytes(new)
        elif sid == section == 7:
            entries = list(exports(body))
            new = bytearray(uleb(len(entries)))
            for name, description in entries:
                name = rename(name).encode()
                new += uleb(len(name)) + name + description
            body = bytes(new)
        out += bytes([sid]) + uleb(len(body)) + body
    write(path, bytes(out))


# Runs a loader (externalize_loader.py's output) in Node for each of a list of addresses, one
# after another: `location.search` is the link, every `import()` is recorded and answered by a
# stand-in module, and what the loader imported for each is printed. The DOM it touches (the whole
# page's <template>, <head>) and `fetch` (the wasm's download, started before the import) are
# stubs.
NODE_ROUTE = r"""
const fs = require("fs");
const [loader] = process.argv.slice(1);
const searches = fs.readFileSync(0, "utf8");  // a JSON list, on stdin
const body = fs.readFileSync(loader, "utf8").replace(/\bimport\(/g, "__import(");
globalThis.window = globalThis;
globalThis.document = { getElementById: () => null, head: { append() {} }, documentElement: { classList: { add() {}, replace() {} } } };
globalThis.dispatchEvent = () => true;
globalThis.fetch = async (url) => ({ url });
globalThis.CustomEvent = class CustomEvent { constructor(type, init) { this.type = type; this.detail = init && init.detail; } };
(async () => {
  const out = [];
  for (const search of JSON.parse(searches)) {
    const imported = [];
    const __import = async (url) => { imported.push(url); return { default: async () => ({}) }; };
    globalThis.location = { search, href: "https://example.org/" + search };
    await new Function("__import", `return (async () => {\n${body}\n})();`)(__import);
    out.push(imported);
  }
  console.log(JSON.stringify(out));
})().catch((e) => { console.error(String(e && e.stack || e)); process.exit(1); });
"""


def loader_routes(test, loader, searches):
    """The modules `loader` imports for each link whose query is in `searches` (e.g. "?embed=1"),
    in one Node process."""
    node = require("node")
    done = subprocess.run([node, "-e", NODE_ROUTE, loader], input=json.dumps(searches), capture_output=True, text=True,
                          check=False)
    test.assertEqual(done.returncode, 0, f"{os.path.basename(loader)} in Node:\n{done.stderr}")
    return json.loads(done.stdout)


def loader_imports(test, loader, search):
    """The modules `loader` imports for a link whose query is `search` (e.g. "?embed=1")."""
    return loader_routes(test, loader, [search])[0]
