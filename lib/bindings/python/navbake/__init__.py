"""navbake for Python: the navbake runtime through its C ABI (ctypes).

    import navbake
    with navbake.Bundle("level.nbk") as b:
        ws = b.aa()
        r = ws.find((2, 2), (60, 36))
        print(r.status, r.length, r.path.tolist())

Handles (Bundle, Overlay, AA, SG, HAA, Place, Model, Perimeter, Motion,
Planner, Forest, ForestWorkspace, StreamWorld) are context managers; close() releases
a handle and every handle made from it, and a closed handle raises
ClosedError.  A failed call raises a NavbakeError subclass carrying the
library's status and message.  A workspace reuses its query, result and
path buffers: nothing is allocated per query in a steady loop, and a result
is valid until the workspace's next query (copy() keeps one).  One
workspace per thread; a bundle is read-only and shared.

bake() makes a bundle from a level file and Baker (bake_grid) from a grid in
memory, through the bake library (libnavbake_bake), as mkclear and
mkabstract would.  `python3 -m navbake` mirrors
navbake's info, query and scen commands.
"""
import ctypes as _C

from . import _types
from ._lib import lib as _clib, path as library_path
from .errors import (ArgumentError, BundleIOError, ClosedError, CRCError, FormatError,
                     InputSyntaxError, LimitError, NavbakeError, NoMemoryError, NotFoundError,
                     OutsideError, Status, UnsupportedError, VersionError, error_of,
                     UnloadedError, MismatchError, CancelledError)
from .bundle import (OPEN_PRIVATE, OPEN_VERIFY, Agent, Bundle, Layer, Section, SectionType,
                     Terrain, section_type_name, section_type_parse, sqlite_supported,
                     status_str, version)
from .results import PathStatus
from .overlay import REACH_UNKNOWN, Overlay
from .grid import AA, HAA, HAA_SMOOTH, HAA_STRAIGHTEN, SG, Corner
from .place import Place
from .motion import (HEADING_ANY, PERIM_APPROX, PERIM_EXACT, PERIM_OUTSIDE, SPEED_ANY,
                     Heuristic, Model, Motion, Perimeter, RouteAbstraction, heuristic_name,
                     heuristic_parse, route_abstraction_name, route_abstraction_parse)
from .geometry import (Cell, Circle, Curve, Frame, Pose, Segment, Vec2, anchor_of_centre,
                       centre_of_anchor, curve_sample, curve_set_reverse, curve_to_point,
                       curve_to_pose, frame, segment_angles, segment_arc, segment_line,
                       segment_sample, segments_length, segments_sample)
from .planner import (PLAN_FORWARD, PLAN_LOCAL_BOUND, PLAN_ONTHEFLY, PLAN_SMOOTH, Method,
                      Planner, unit_lookup)
from .forest import (FOREST_DEFERRED, FOREST_NO_PRUNE, FOREST_PLAIN, Forest,
                     ForestWorkspace)
from .baking import BakeError, bake, tool_path
from .bakelib import NB_BAKE_OBSTACLE, BakeOptions, Baker, bake_grid
from .world import World, world_check, world_cut, world_link, world_tile
from .stream import StreamWorld, WorldInfo
from .worldquery import WorldAA, WorldHAA, WorldOverlay

__version__ = "1.0.0"


def abi_check():
    """The ABI guard: this package's struct sizes against the library's
    (VersionError naming the first struct that differs)."""
    err = _types.Err()
    st = _clib.nb_abi_check(_types.ABI_P, _C.byref(err))
    if st:
        raise error_of(st, err.msg.decode("utf-8", "replace"))


def abi_structs():
    """[(name, the library's size)] of the ABI guard's list (nb_abi_name, nb_abi_size)."""
    out, i = [], 0
    while _clib.nb_abi_name(i) is not None:
        out.append((_clib.nb_abi_name(i).decode(), _clib.nb_abi_size(i)))
        i += 1
    return out


abi_check()   # at import: a library of another 1.x layout is refused here
