"""Baking a bundle from a level file, and running navbake's commands.

bake() bakes through the bake library (bakelib.Baker); _run() runs a command
(navbake world ...) for what has no library call, raising BakeError with its
message.
"""
import os
import shutil
import subprocess

from .errors import NavbakeError


class BakeError(NavbakeError):
    """A baker refused its input or failed: its message, naming the file and
    line; `tool` and `exit_status` say which and how."""

    def __init__(self, tool, exit_status, message):
        super().__init__(message)
        self.tool, self.exit_status = tool, exit_status


def tool_path(name):
    """Where a baker is: $NAVBAKE_TOOLS, the build tree's tools/ beside this
    package's lib/, then PATH."""
    dirs = []
    if os.environ.get("NAVBAKE_TOOLS"):
        dirs.append(os.environ["NAVBAKE_TOOLS"])
    here = os.path.dirname(os.path.abspath(__file__))
    dirs.append(os.path.normpath(os.path.join(here, "..", "..", "..", "..", "tools")))
    for d in dirs:
        p = os.path.join(d, name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    p = shutil.which(name)
    if not p:
        raise BakeError(name, None, "navbake: %s not found (install navbake's tools, or set "
                        "NAVBAKE_TOOLS to their directory)" % name)
    return p


def _run(tool, args):
    proc = subprocess.run([tool_path(tool)] + args, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        msg = proc.stderr.strip() or "%s exited with status %d" % (tool, proc.returncode)
        raise BakeError(tool, proc.returncode, msg)


def bake(map_path, output, legend=None, agents=None, optimal=False, abstract=False,
         cluster_size=None, zlib=False, threads=None, progress=None):
    """Bakes a level file (a MovingAI map, or a Tiled, LDtk, image or heightmap
    level by its extension) into the bundle file output and returns its path,
    through the bake library: the bytes mkclear (then mkabstract) would write.

    legend and agents are YAML files (formats/legend.md, formats/agents.md;
    defaults: MovingAI's characters, one agent of size 1).  optimal bakes the
    optimal-search layer (True or "strict", "weak", "both"); abstract bakes
    HAA*'s abstract graph (as mkabstract, with cluster_size).  progress, a
    callable taking the fraction done, cancels the bake by returning true
    (CancelledError; nothing written).  Raises the library's NavbakeError."""
    from .bakelib import Baker
    with Baker() as b:
        b.read_level(map_path, legend, agents)
        return b.write(os.fspath(output), abstract=abstract, optimal=optimal, zlib=zlib,
                       cluster_size=cluster_size, threads=threads, progress=progress)
