"""Units with a turning radius: Directional A*, smoothing and Pinter's hybrid
search, on a bundle mkhitcheck baked a unit into.

    with bundle.planner("jeep") as p:
        r = p.find((3.5, 3.5, 0.0), (40, 20))
        for seg in r.segments: ...
"""
import ctypes as C
import enum

from . import _types as T
from ._handle import check, text
from ._lib import lib
from .geometry import pose, segments_array
from .results import Result
from .search import Family, PathOf, Searcher, open_on

PLAN_ONTHEFLY, PLAN_SMOOTH, PLAN_FORWARD, PLAN_LOCAL_BOUND = 0x1, 0x2, 0x4, 0x8


class Method(enum.IntEnum):
    DIRECTIONAL = 0
    HYBRID = 1
    PRESMOOTH = 2
    LINES = 3


def units_of(bundle):
    """Every unit of the bundle, decoded and checked (nb_unit_get)."""
    out = []
    for i in range(lib.nb_unit_count(bundle._h())):
        u, err = T.Unit(), T.Err()
        check(lib.nb_unit_get(bundle._h(), i, C.byref(u), C.byref(err)), err)
        out.append(u)
    return out


def unit_lookup(bundle, name):
    """The index of the unit called name (NotFoundError naming the units)."""
    idx, err = C.c_size_t(), T.Err()
    check(lib.nb_unit_lookup(bundle._h(), name.encode(), C.byref(idx), C.byref(err)), err)
    return idx.value


def _copy_seg(s):
    return T.Segment.from_buffer_copy(s)


def _pose_tuple(p):
    return (p.x, p.y, p.heading)


class PlannerResult(Result):
    __slots__ = ()
    _fields = ("reason", "length", "cost", "expanded", "generated", "fallback", "waypoints")
    segments = PathOf("segments", "segment_len", T.Segment, _copy_seg)
    waypoints = PathOf("waypoints", "waypoint_len", T.Pose, _pose_tuple)

    @property
    def reason(self):
        return text(self._r.reason)


class Planner(Searcher):
    """nb_planner: the workspace of one unit on one bundle's map."""

    _fam = "planner"
    _free = lib.nb_planner_close
    _kind = "planner"

    def __init__(self, bundle, unit):
        Searcher.__init__(self, open_on(lib.nb_planner_open, bundle._h(), unit.encode()), bundle)
        self.bundle = bundle
        self._f = Family(self, "planner", T.PlannerQuery, T.PlannerResult, PlannerResult)
        self.query, self.result = self._f.query, self._f.result

    @property
    def unit(self):
        return T.Unit.from_buffer_copy(lib.nb_planner_unit(self._h()).contents)

    def configure(self, goal_heading=None, method=None, neighbourhood=None, flags=None,
                  max_expansions=None, window=None, overlay=()):
        q = self._f.query
        if method is not None:
            q.method = Method[method.upper()] if isinstance(method, str) else method
        for name, v in (("goal_heading", goal_heading), ("neighbourhood", neighbourhood),
                        ("flags", flags), ("max_expansions", max_expansions),
                        ("window", window)):
            if v is not None:
                setattr(q, name, v)
        if overlay != ():
            self._f.set_overlay(overlay)
        return self

    def _ends(self, start, goal):
        """A pose (x, y, heading) to the centre of a goal cell (x, y)."""
        q = self._f.query
        q.start = pose(start)
        q.goal.x, q.goal.y = goal

    def walkable(self, segments):
        """True when the unit driving these segments touches no blocked cell."""
        arr, n = segments_array(segments)
        return bool(lib.nb_planner_walkable(self._h(), arr, n))

    def blocked(self, x, y):
        return bool(lib.nb_planner_blocked(self._h(), x, y))
