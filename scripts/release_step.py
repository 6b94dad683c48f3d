"""What a post-build step that rewrites a release build starts with (drop_stream_exports.py,
minify.py): Trunk's staging folder, or `None` for a debug build, and the tool it runs."""
import os
import shutil
import sys


def release_staging(step, tool):
    """(staging folder, path of `tool`) in a release build, `None` in a debug build; stops the build,
    naming `step`, outside Trunk or without `tool` on PATH."""
    staging = os.environ.get("TRUNK_STAGING_DIR")
    if not staging:
        sys.exit(f"{step}: TRUNK_STAGING_DIR is not set (run me as a Trunk post_build hook)")
    if os.environ.get("TRUNK_PROFILE") != "release":
        return None
    path = shutil.which(tool)
    if not path:
        sys.exit(f"{step}: {tool} is not on PATH (make bootstrap installs it)")
    return staging, path
