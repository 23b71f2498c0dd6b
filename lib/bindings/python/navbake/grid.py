"""Grid searches for an agent of a size and capability: Annotated A* (AA),
the optimal layer of a subgoal graph (SG) and HAA* (HAA).

    ws = bundle.aa()                       # the bundle's first agent
    ws.configure(agent="tank", corner="weak")
    r = ws.find((2, 2), (60, 36))          # the workspace's result, reused
    if r.found:
        print(r.length, r.path.tolist())

A workspace keeps its query: configure() (or keywords to find) changes
fields of it, find() sets the ends and searches.  begin / step / finish
spread one query over frames.
"""
import ctypes as C
import enum

from . import _types as T
from ._lib import lib
from .bundle import Agent
from .results import PathStatus, Result, cell_xy
from .search import Family, PathOf, Searcher, open_on


class Corner(enum.IntEnum):
    """nb_corner: when a diagonal step is allowed."""
    STRICT = 0
    WEAK = 1


HAA_SMOOTH = 0x1
HAA_STRAIGHTEN = 0x2


def corner_of(c):
    if isinstance(c, str):
        try:
            return Corner[c.upper()]
        except KeyError:
            raise ValueError("corner: %r is neither 'strict' nor 'weak'" % c) from None
    return int(c)


class AAResult(Result):
    __slots__ = ()
    _fields = ("length", "cost", "expanded", "searched", "path")
    path = PathOf("path", "path_len", T.Cell, cell_xy)


class SGResult(Result):
    __slots__ = ()
    _fields = ("length", "expanded", "scanned", "searched", "fallback", "path", "waypoints",
               "cost")
    path = PathOf("path", "path_len", T.Cell, cell_xy)
    waypoints = PathOf("waypoints", "waypoint_len", T.Cell, cell_xy)


class HAAResult(Result):
    __slots__ = ()
    _fields = ("length", "cost", "cell_length", "abstract_length", "expanded",
               "expanded_insert", "expanded_search", "expanded_refine", "searched",
               "abstract_len", "level", "path")
    path = PathOf("path", "path_len", T.Cell, cell_xy)


class GridSearch(Searcher):
    """What the three grid families share: the query's agent and ends."""

    _Q = _R = _Result = None

    def __init__(self, bundle):
        Searcher.__init__(self, open_on(getattr(lib, "nb_%s_open" % self._fam), bundle._h()),
                           bundle)
        self.bundle = bundle
        self._f = Family(self, self._fam, self._Q, self._R, self._Result)
        self.query = self._f.query
        self.result = self._f.result
        # Views of the query's two ends, made once: q.start makes a new one
        # at each access.
        self._qs, self._qg = self.query.start, self.query.goal
        self._agent_fn = getattr(lib, "nb_%s_query_agent" % self._fam)
        if bundle.agents:
            self.configure(agent=bundle.agents[0])

    def configure(self, agent=None, size=None, capability=None, corner=None, costs=(),
                  overlay=(), partial=None, max_expansions=None, **more):
        """Changes the query's fields: agent (an Agent or its name: its size,
        capability and terrain costs), then size, capability (a mask or terrain
        names), corner ("strict"/"weak"), costs (a list by terrain, or None),
        overlay (an Overlay or None), partial, max_expansions (0: none)."""
        q, f = self.query, self._f
        if agent is not None:
            if isinstance(agent, str):
                agent = self.bundle.agent(agent)
            if not isinstance(agent, Agent):
                raise TypeError("agent: an Agent or an agent's name, not %r" % (agent,))
            self._agent_fn(f._qref, C.byref(agent._c))
            f.keep["costs"] = agent     # q.costs points into the agent's copy
        if size is not None:
            q.size = size
        if capability is not None:
            q.capability = self.bundle.capability(capability)
        if corner is not None:
            q.corner = corner_of(corner)
        if costs != ():
            if costs is None:
                q.costs = None
                f.keep.pop("costs", None)
            else:
                arr = (C.c_double * len(costs))(*costs)
                f.keep["costs"] = arr
                q.costs = C.cast(arr, C.POINTER(C.c_double))
        if overlay != ():
            f.set_overlay(overlay)
        if partial is not None:
            q.partial = 1 if partial else 0
        if max_expansions is not None:
            q.max_expansions = max_expansions
        self._configure_more(**more)
        return self

    def _configure_more(self, **more):
        if more:
            raise TypeError("unknown query field(s): %s" % ", ".join(sorted(more)))

    def _ends(self, start, goal):
        self._qs.x, self._qs.y = start
        self._qg.x, self._qg.y = goal

    def find(self, start, goal, **query):
        """Searches from start to goal (cells (x, y), the agent's top-left cell);
        keywords change the query first (configure).  Returns the workspace's
        result, filled again by its next query.  (Searcher.find, inlined: the
        hot call.)"""
        if query:
            self.configure(**query)
        self._qs.x, self._qs.y = start
        self._qg.x, self._qg.y = goal
        return self._f.find()



class AA(GridSearch):
    """Annotated A*: paths of least cost for agents of any size, capability and
    terrain costs, over the bundle's clearance layer."""
    _fam, _Q, _R, _Result, _kind = "aa", T.AAQuery, T.AAResult, AAResult, "AA* workspace"
    _free = lib.nb_aa_close


class SG(GridSearch):
    """Optimal paths from the subgoal layer mkclear --optimal bakes."""
    _fam, _Q, _R, _Result, _kind = "sg", T.SGQuery, T.SGResult, SGResult, "optimal-layer workspace"
    _free = lib.nb_sg_close


class HAA(GridSearch):
    """Hierarchical Annotated A* on the abstract graph mkabstract bakes.
    configure(smooth=True, straighten=True) sets its flags."""
    _fam, _Q, _R, _Result, _kind = "haa", T.HAAQuery, T.HAAResult, HAAResult, "HAA* workspace"
    _free = lib.nb_haa_close

    def _configure_more(self, smooth=None, straighten=None, flags=None):
        q = self.query
        if flags is not None:
            q.flags = flags
        for on, bit in ((smooth, HAA_SMOOTH), (straighten, HAA_STRAIGHTEN)):
            if on is not None:
                q.flags = (q.flags | bit) if on else (q.flags & ~bit)

    def set_levels(self, levels):
        """The most levels of clusters a query may search (0: all the bundle has)."""
        lib.nb_haa_set_levels(self._h(), levels)

    def reachable(self, start, goal, **query):
        """Whether the query's agent at start reaches goal, under its overlay, exactly."""
        if query:
            self.configure(**query)
        self._ends(start, goal)
        out = C.c_int()
        self._check(lib.nb_haa_reachable(self._f._ready(), self._f._qref, C.byref(out),
                                         self._eref))
        return bool(out.value)

    def describe(self):
        """What the workspace's graph is (nb_haa_graph) as a dict."""
        g = T.HAAGraph()
        lib.nb_haa_describe(self._h(), C.byref(g))
        out = {f: getattr(g, f) for f, _ in T.HAAGraph._fields_}
        out["quality"] = g.quality.decode() if g.quality else None
        out["placement"] = g.placement.decode() if g.placement else None
        return out


__all__ = ["AA", "SG", "HAA", "Corner", "PathStatus", "HAA_SMOOTH", "HAA_STRAIGHTEN"]
