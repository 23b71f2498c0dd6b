"""Baking a bundle from a map.

The bake library is not public yet (issue 33): until it is, bake() runs the
installed bakers, mkclear and mkabstract, as programs.  bake() is the one
function the bake library will replace; its arguments and its result (the
bundle's path) stay.
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
         cluster_size=None, zlib=False, threads=None):
    """Bakes a MovingAI map into the bundle file output and returns its path.

    legend and agents are YAML files (formats/legend.md, formats/agents.md;
    defaults: MovingAI's characters, one agent of size 1).  optimal bakes the
    optimal-search layer (True or "strict", "weak", "both"); abstract bakes
    HAA*'s abstract graph (mkabstract, with cluster_size).  Raises BakeError
    with the baker's message."""
    args = [os.fspath(map_path), "-o", os.fspath(output), "-q"]
    if legend:
        args += ["--legend", os.fspath(legend)]
    if agents:
        args += ["--agents", os.fspath(agents)]
    if optimal:
        args.append("--optimal" if optimal is True else "--optimal=" + optimal)
    if zlib:
        args.append("--zlib")
    if threads:
        args += ["--threads", str(threads)]
    _run("mkclear", args)
    if abstract:
        args = [os.fspath(output), "-q"]
        if cluster_size:
            args += ["--cluster-size", str(cluster_size)]
        if threads:
            args += ["--threads", str(threads)]
        _run("mkabstract", args)
    return os.fspath(output)
