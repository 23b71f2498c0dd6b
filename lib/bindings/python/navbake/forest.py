"""Round obstacles: exact shortest paths among circles for a disc agent.

    forest = navbake.Forest.from_circles([(5, 5, 2), (10, 3, 1)], bounds=(0, 0, 20, 20))
    with forest.workspace() as ws:
        r = ws.find((0.5, 0.5), (19, 19), agent_radius=0.5)
        print(r.length, [s.kind for s in r.segments])
"""
import ctypes as C

from . import _types as T
from ._handle import Handle
from ._lib import lib
from .results import Result
from .search import Family, PathOf, Searcher, open_on

FOREST_NO_PRUNE, FOREST_PLAIN, FOREST_DEFERRED = 0x1, 0x2, 0x4


def _circle(c):
    return c if isinstance(c, T.Circle) else T.Circle(*c)


class Forest(Handle):
    """nb_forest: a bundle's forest (read-only) or one made from circles."""

    _free = lib.nb_forest_close
    _kind = "forest"

    @classmethod
    def of_bundle(cls, bundle):
        self = cls.__new__(cls)
        Handle.__init__(self, open_on(lib.nb_forest_open, bundle._h()), bundle)
        return self

    @classmethod
    def from_circles(cls, circles, bounds=None):
        """A forest of a copy of circles ((x, y, r) each), with optional bounds
        (xmin, ymin, xmax, ymax); change it at will between queries."""
        cs = [_circle(c) for c in circles]
        arr = (T.Circle * max(1, len(cs)))(*cs)
        b = (C.c_double * 4)(*bounds) if bounds is not None else None
        out, err = C.c_void_p(), T.Err()
        st = lib.nb_forest_open_circles_abi(arr, len(cs), b, None, C.byref(out), C.byref(err),
                                            T.ABI_P)
        from ._handle import check
        check(st, err)
        self = cls.__new__(cls)
        Handle.__init__(self, out.value)
        return self

    def __len__(self):
        return lib.nb_forest_circle_count(self._h())

    def circle(self, index):
        p = lib.nb_forest_circle_get(self._h(), index)
        if not p:
            raise IndexError("circle %d: the forest has %d" % (index, len(self)))
        return (p.contents.x, p.contents.y, p.contents.r)

    @property
    def circles(self):
        return [self.circle(i) for i in range(len(self))]

    @property
    def bounds(self):
        b = (C.c_double * 4)()
        return tuple(b) if lib.nb_forest_bounds(self._h(), b) else None

    def set_circle(self, index, circle):
        self._check(lib.nb_forest_set_circle(self._h(), index, _circle(circle), self._eref))

    def add_circle(self, circle):
        self._check(lib.nb_forest_add_circle(self._h(), _circle(circle), self._eref))

    def remove_circle(self, index):
        self._check(lib.nb_forest_remove_circle(self._h(), index, self._eref))

    @property
    def radii(self):
        """The baked agent radii, in order."""
        h = self._h()
        return [lib.nb_forest_radius_get(h, i) for i in range(lib.nb_forest_radius_count(h))]

    def radius_lookup(self, agent_radius):
        out = C.c_size_t()
        self._check(lib.nb_forest_radius_lookup(self._h(), agent_radius, C.byref(out),
                                                self._eref))
        return out.value

    def graph(self, radius_index):
        """What the graph baked for a radius holds, as a dict."""
        g = T.ForestGraphInfo()
        self._check(lib.nb_forest_graph(self._h(), radius_index, C.byref(g), self._eref))
        return {f: getattr(g, f) for f, _ in T.ForestGraphInfo._fields_}

    def workspace(self):
        return ForestWorkspace(self)


def _copy_seg(s):
    return T.Segment.from_buffer_copy(s)


class ForestResult(Result):
    __slots__ = ()
    _fields = ("length", "blocked_by", "expanded", "generated", "pruned", "los_tests",
               "circles_opened", "segments")
    segments = PathOf("segments", "segment_len", T.Segment, _copy_seg)


class ForestWorkspace(Searcher):
    """nb_forest_ws: one thread's searches in a forest."""

    _fam = "forest_ws"
    _free = lib.nb_forest_ws_close
    _kind = "forest workspace"

    def __init__(self, forest):
        Searcher.__init__(self, open_on(lib.nb_forest_ws_open, forest._h()), forest)
        self.forest = forest
        self._f = Family(self, "forest", T.ForestQuery, T.ForestResult, ForestResult)
        self.query, self.result = self._f.query, self._f.result

    def configure(self, agent_radius=None, flags=None, max_expansions=None):
        q = self._f.query
        for name, v in (("agent_radius", agent_radius), ("flags", flags),
                        ("max_expansions", max_expansions)):
            if v is not None:
                setattr(q, name, v)
        return self

    def _ends(self, start, goal):
        """Two points (world units): the shortest path for the query's disc."""
        q = self._f.query
        q.start.x, q.start.y = start
        q.goal.x, q.goal.y = goal
