#!/usr/bin/env python3
"""Makes the build steps' test fixture anew (`make build-fixtures`): run it after upgrading Trunk,
wasm-bindgen or wasm-opt, or after changing index.html's Trunk links, then `make test-build-steps`
says which step no longer finds what it rewrites.

The fixture is Trunk's staging folder of a real `trunk build --release --public-url ./`, captured
as the rewriting steps find it (post_build.py's POST_BUILD_CAPTURE): the app's own index.html,
Trunk.toml (so the pinned tools), static/ files and Cargo.lock (so the same wasm-bindgen), with
the tiny crate in scripts/tests/fixture-app/ in place of the app, so the five modules and their
glue are a few KB each instead of megabytes. The build happens in target/build-fixtures/ (its own
target folder: the crate's binaries have the app's names). The steps then run on it as in any
build; should they fail on the new output, the fixture is kept all the same, for the tests to name
what changed.

Writes scripts/tests/fixtures/staging/ and scripts/tests/fixtures/made-from.json (the tool
versions and index.html's Trunk links it was made with, which test_fixture.py compares with the
pins).
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from harness import FIXTURE, MADE_FROM, trunk_links  # noqa: E402

WORK = os.path.join(REPO, "target", "build-fixtures")
APP = os.path.join(WORK, "app")
CAPTURE = os.path.join(WORK, "staging")
HOOK = 'command_arguments = ["scripts/post_build.py"]'


def fail(message):
    sys.exit(f"refresh_fixtures: {message}")


def version(tool):
    """`tool --version`'s first line."""
    done = subprocess.run([tool, "--version"], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        fail(f"{tool} --version failed: is it on PATH? (make build-fixtures puts the tools there)")
    return done.stdout.strip().splitlines()[0]


def assemble():
    """target/build-fixtures/app: the fixture crate with the app's index.html, static/, Cargo.lock
    and Trunk.toml, whose hook runs this checkout's post_build.py."""
    shutil.rmtree(APP, ignore_errors=True)
    shutil.copytree(os.path.join(HERE, "fixture-app"), APP)
    shutil.copytree(os.path.join(REPO, "static"), os.path.join(APP, "static"))
    for name in ("index.html", "Cargo.lock"):
        shutil.copy(os.path.join(REPO, name), APP)
    with open(os.path.join(REPO, "Trunk.toml"), encoding="utf-8") as f:
        trunk = f.read()
    if HOOK not in trunk:
        fail(f"Trunk.toml no longer runs its hook as {HOOK!r}: change this script with it")
    post_build = os.path.join(REPO, "scripts", "post_build.py")
    trunk = trunk.replace(HOOK, f"command_arguments = [{json.dumps(post_build)}]")
    with open(os.path.join(APP, "Trunk.toml"), "w", encoding="utf-8") as f:
        f.write(trunk)


def main():
    assemble()
    shutil.rmtree(CAPTURE, ignore_errors=True)
    env = dict(os.environ, POST_BUILD_CAPTURE=CAPTURE, CARGO_TARGET_DIR=os.path.join(WORK, "target"))
    built = subprocess.run(["trunk", "build", "--release", "--public-url", "./"], cwd=APP, env=env, check=False)
    if not os.path.isdir(CAPTURE):
        fail("trunk build stopped before the post-build hook: no staging folder was captured")
    shutil.rmtree(FIXTURE, ignore_errors=True)
    shutil.copytree(CAPTURE, FIXTURE)
    with open(os.path.join(REPO, "index.html"), encoding="utf-8") as f:
        links = trunk_links(f.read())
    made_from = {
        "trunk": version("trunk"),
        "wasm-bindgen": version("wasm-bindgen"),
        "wasm-opt": version("wasm-opt"),
        "index.html links": links,
    }
    with open(MADE_FROM, "w", encoding="utf-8") as f:
        json.dump(made_from, f, indent=2)
        f.write("\n")
    files = [os.path.join(d, n) for d, _, names in os.walk(FIXTURE) for n in names]
    size = sum(os.path.getsize(f) for f in files)
    print(f"refresh_fixtures: {len(files)} files, {size} bytes in {os.path.relpath(FIXTURE, REPO)}")
    if built.returncode != 0:
        print("refresh_fixtures: the build's steps failed on this output (above); the fixture is "
              "refreshed all the same: `make test-build-steps` names what changed", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
