"""Motion models, perimeter heuristic tables and motion-constrained search
over (cell, heading, speed) states.

    model = bundle.model("tank")
    with model.search(capability="ground", size=1, perimeter=True) as ws:
        r = ws.find((2, 2, 0, model.stop), (60, 36, navbake.HEADING_ANY, model.stop),
                    heuristic="perimeter")
        print(r.cost, r.path.tolist())      # states (x, y, heading, speed)
"""
import ctypes as C
import enum

from . import _types as T
from ._handle import Handle, check, text
from ._lib import SEGMENT_FN, lib
from .results import Result, View
from .search import Family, PathOf, Searcher, open_on

HEADING_ANY = 0xffff
SPEED_ANY = 0xffff
PERIM_OUTSIDE, PERIM_EXACT, PERIM_APPROX = 0, 1, 2


class Heuristic(enum.IntEnum):
    """nb_motion_heuristic."""
    OCTILE = 0
    PERIMETER = 1
    EXTENDED = 2
    GRID = 3
    PERIMETER_GRID = 4
    EXTENDED_GRID = 5
    HEADING = 6
    PERIMETER_HEADING = 7
    EXTENDED_HEADING = 8


class RouteAbstraction(enum.IntEnum):
    SECTORS = 0
    HAA = 1


def heuristic_name(h):
    return text(lib.nb_motion_heuristic_name(int(h)))


def heuristic_parse(name):
    """The heuristic called name ("perimeter+grid"...); NotFoundError naming them."""
    out, err = C.c_int(), T.Err()
    check(lib.nb_motion_heuristic_parse(name.encode(), C.byref(out), C.byref(err)), err)
    return Heuristic(out.value)


def route_abstraction_name(a):
    return text(lib.nb_route_abstraction_name(int(a)))


def route_abstraction_parse(name):
    out, err = C.c_int(), T.Err()
    check(lib.nb_route_abstraction_parse(name.encode(), C.byref(out), C.byref(err)), err)
    return RouteAbstraction(out.value)


def state(s):
    """An nb_motion_state from (x, y, heading, speed)."""
    return s if isinstance(s, T.MotionState) else T.MotionState(*s)


def state_tuple(s):
    return (s.x, s.y, s.heading, s.speed)


class Model(Handle):
    """nb_model: a motion model stored in the bundle by name."""

    _free = lib.nb_model_close
    _kind = "model"

    def __init__(self, bundle, name):
        Handle.__init__(self, open_on(lib.nb_model_open, bundle._h(), name.encode()), bundle)
        self.bundle = bundle

    name = property(lambda self: text(lib.nb_model_name(self._h())))
    headings = property(lambda self: lib.nb_model_headings(self._h()))
    speeds = property(lambda self: lib.nb_model_speeds(self._h()))
    stop = property(lambda self: lib.nb_model_stop(self._h()),
                    doc="The speed level whose value is 0.")
    speed_change = property(lambda self: lib.nb_model_speed_change(self._h()))
    top_speed = property(lambda self: lib.nb_model_top_speed(self._h()))
    still_cost = property(lambda self: lib.nb_model_still_cost(self._h()))
    turn_cost = property(lambda self: lib.nb_model_turn_cost(self._h()))
    extended_weight = property(lambda self: lib.nb_model_extended_weight(self._h()))

    def speed(self, level):
        return lib.nb_model_speed(self._h(), level)

    def speed_name(self, level):
        return text(lib.nb_model_speed_name(self._h(), level))

    def speed_lookup(self, name):
        """The speed level called name (NotFoundError naming the model's levels)."""
        out = C.c_size_t()
        self._check(lib.nb_model_speed_lookup(self._h(), name.encode(), C.byref(out),
                                              self._eref))
        return out.value

    def turn(self, level):
        """The largest turn, in heading steps, at this speed level."""
        return lib.nb_model_turn(self._h(), level)

    def offset(self, heading):
        dx, dy = C.c_int(), C.c_int()
        lib.nb_model_offset(self._h(), heading, C.byref(dx), C.byref(dy))
        return dx.value, dy.value

    def sweep(self, heading):
        """The cells (dx, dy) a step of heading h passes through, the end last."""
        p = C.POINTER(C.c_int8)()
        n = lib.nb_model_sweep(self._h(), heading, C.byref(p))
        return [(p[2 * i], p[2 * i + 1]) for i in range(n)]

    def perimeter(self):
        """The model's perimeter table (Perimeter)."""
        return Perimeter(self)

    def search(self, capability=None, size=1, perimeter=None):
        """A Motion workspace for an agent of this size and capability (default:
        the bundle's first agent's); perimeter=True opens the model's table."""
        return Motion(self, capability, size, perimeter)


class Perimeter(Handle):
    """nb_perimeter: the exact empty-map cost to a goal within a radius."""

    _free = lib.nb_perimeter_close
    _kind = "perimeter table"
    LAYOUTS = ("full", "speed-limited", "symmetric", "rotated")

    def __init__(self, model):
        Handle.__init__(self, open_on(lib.nb_perimeter_open, model.bundle._h(), model._h()),
                        model)
        self.model = model

    radius = property(lambda self: lib.nb_perimeter_radius(self._h()))

    @property
    def layout(self):
        return text(lib.nb_perimeter_layout_name(lib.nb_perimeter_layout_of(self._h())))

    def lookup(self, s, g):
        """(PERIM_OUTSIDE / _EXACT / _APPROX, cost) from state s to goal g."""
        v = C.c_double()
        kind = lib.nb_perimeter_lookup(self._h(), C.byref(state(s)), C.byref(state(g)),
                                       C.byref(v))
        return kind, v.value

    def extended(self, s, g):
        v = C.c_double()
        kind = lib.nb_perimeter_extended(self._h(), C.byref(state(s)), C.byref(state(g)),
                                         C.byref(v))
        return kind, v.value


class MotionResult(Result):
    __slots__ = ()
    _fields = ("cost", "h_start", "expanded", "generated", "reopened", "grid_expanded", "end",
               "path")
    path = PathOf("path", "path_len", T.MotionState, state_tuple)

    @property
    def end(self):
        return state_tuple(self._r.end)


class Motion(Searcher):
    """nb_motion: searches of one model by one agent on the bundle's map."""

    _fam = "motion"
    _free = lib.nb_motion_close
    _kind = "motion workspace"

    def __init__(self, model, capability=None, size=1, perimeter=None):
        bundle = model.bundle
        if capability is None:
            capability = bundle.agents[0].capability if bundle.agents else 0
        if perimeter is True:
            perimeter = model.perimeter()
        self.perimeter = perimeter or None
        ptr = open_on(lib.nb_motion_open, bundle._h(), model._h(),
                      perimeter._h() if perimeter else None, bundle.capability(capability),
                      size)
        Searcher.__init__(self, ptr, model)
        if perimeter:
            self._depends_on(perimeter)
        self.model, self.bundle = model, bundle
        self._f = Family(self, "motion", T.MotionQuery, T.MotionResult, MotionResult)
        self.query, self.result = self._f.query, self._f.result

    def configure(self, heuristic=None, weight=None, truncate=None, max_expansions=None,
                  overlay=(), reopen=None, waypoint_heading=None, heading_classes=None,
                  abstraction=None):
        """Changes the query's fields (heuristic and abstraction by name or value)."""
        q = self._f.query
        if heuristic is not None:
            q.heuristic = heuristic_parse(heuristic) if isinstance(heuristic, str) else heuristic
        if abstraction is not None:
            q.abstraction = (route_abstraction_parse(abstraction)
                             if isinstance(abstraction, str) else abstraction)
        for name, v in (("weight", weight), ("truncate", truncate),
                        ("max_expansions", max_expansions), ("reopen", reopen),
                        ("waypoint_heading", waypoint_heading),
                        ("heading_classes", heading_classes)):
            if v is not None:
                setattr(q, name, v)
        if overlay != ():
            self._f.set_overlay(overlay)
        return self

    def _ends(self, start, goal):
        """States (x, y, heading, speed) at each end."""
        q = self._f.query
        q.start = state(start)
        q.goal = state(goal)

    def standable(self, x, y):
        return bool(lib.nb_motion_standable(self._h(), x, y))

    def action(self, s, turn, speed):
        """(to_state, cost) of a legal action from s, or None when it is not legal."""
        to, cost = T.MotionState(), C.c_double()
        ok = lib.nb_motion_action(self._h(), C.byref(state(s)), turn, speed, C.byref(to),
                                  C.byref(cost))
        return (state_tuple(to), cost.value) if ok else None

    def use_sectors(self, side):
        self._check(lib.nb_motion_use_sectors(self._h(), side, self._eref))

    def use_haa(self):
        self._check(lib.nb_motion_use_haa(self._h(), self._eref))

    def route(self, start, goal, segment, each=None, **query):
        """A long path through the abstraction (configure(abstraction=...)),
        refined segment by segment: (result, segments).  each(segment_copy),
        when given, is called with each segment's result as a Snapshot."""
        if query:
            self.configure(**query)
        self._ends(start, goal)
        f = self._f
        if each is not None:
            def relay(ctx, seg):
                each(MotionResult(self, seg.contents).copy())
            cb = SEGMENT_FN(relay)
        else:
            cb = SEGMENT_FN()
        nseg = C.c_size_t()
        self._check(lib.nb_motion_route_find(f._ready(), f._qref, segment, cb, None, f._rref,
                                             C.byref(nseg), self._eref))
        return f.result, nseg.value
