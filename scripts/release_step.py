"""How the release-only steps post_build.py runs (drop_stream_exports.py, minify.py) begin:
Trunk's staging folder, or `None` for a debug build, and the tool the step calls."""
import os
import shutil
import sys


def release_staging(step, tool):
    """(staging folder, path of `tool`) in a release build, `None` in a debug build; stops the build,
    naming `step`, outside Trunk or without `tool` on PATH."""
    staging = os.environ.get("TRUNK_STAGING_DIR")
    if not staging:
        sys.exit(f"{step}: TRUNK_STAGING_DIR is not set (post_build.py runs me, as Trunk's post-build hook)")
    if os.environ.get("TRUNK_PROFILE") != "release":
        return None
    path = shutil.which(tool)
    if not path:
        sys.exit(f"{step}: {tool} is not on PATH (make bootstrap installs it)")
    return staging, path
