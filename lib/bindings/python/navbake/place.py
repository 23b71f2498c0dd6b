"""Places: the standable cell nearest a point, whether an agent can walk a
straight segment, and random standable cells (Detour's findNearestPoly,
raycast and findRandomPoint).

    with bundle.place() as p:
        r = p.nearest((30, 20))              # the bundle's first agent
        r = p.line((2.0, 2.0), (60.0, 36.0))
        r = p.random(seed=7); seed = r.state # the next draw's seed

Each of the three keeps its own query (p.nearest_query, p.line_query,
p.random_query); keywords change it, as configure() does for the grid
searches: agent, size, capability, overlay, max_expansions and the
family's own (radius, reachable, start, seed).
"""
import ctypes as C

from . import _types as T
from ._lib import lib
from .bundle import Agent
from .results import Result, cell_xy
from .search import Family, Workspace, open_on


class NearestResult(Result):
    __slots__ = ()
    _fields = ("cell", "distance", "examined", "expanded")

    @property
    def cell(self):
        return cell_xy(self._r.cell)


class LineResult(Result):
    __slots__ = ()
    _fields = ("t", "last", "blocking", "examined")

    @property
    def last(self):
        return (self._r.last.x, self._r.last.y)

    @property
    def blocking(self):
        return cell_xy(self._r.blocking)


class RandomResult(Result):
    __slots__ = ()
    _fields = ("cell", "component", "cells", "state", "draws", "expanded")

    @property
    def cell(self):
        return cell_xy(self._r.cell)


class Place(Workspace):
    """nb_place: the workspace of the place queries on one bundle, one per thread."""

    _fam = "place"
    _free = lib.nb_place_close
    _kind = "place"

    def __init__(self, bundle):
        Workspace.__init__(self, open_on(lib.nb_place_open, bundle._h()), bundle)
        self.bundle = bundle
        self._n = Family(self, "nearest", T.NearestQuery, T.NearestResult, NearestResult)
        self._l = Family(self, "line", T.LineQuery, T.LineResult, LineResult)
        self._r = Family(self, "random", T.RandomQuery, T.RandomResult, RandomResult)
        self.nearest_query, self.line_query, self.random_query = \
            self._n.query, self._l.query, self._r.query
        self._agent_fns = {self._n: lib.nb_nearest_query_agent, self._l: lib.nb_line_query_agent,
                           self._r: lib.nb_random_query_agent}
        if bundle.agents:
            for f in (self._n, self._l, self._r):
                self._set(f, agent=bundle.agents[0])

    def set_max_nodes(self, n):
        raise AttributeError("a place has no node cap (nb_place_*): use max_expansions")

    def _set(self, f, agent=None, size=None, capability=None, overlay=(), max_expansions=None,
             radius=None, reachable=None, start=None, seed=None):
        q = f.query
        if agent is not None:
            if isinstance(agent, str):
                agent = self.bundle.agent(agent)
            if not isinstance(agent, Agent):
                raise TypeError("agent: an Agent or an agent's name, not %r" % (agent,))
            self._agent_fns[f](f._qref, C.byref(agent._c))
        if size is not None:
            q.size = size
        if capability is not None:
            q.capability = self.bundle.capability(capability)
        if overlay != ():
            f.set_overlay(overlay)
        if max_expansions is not None:
            q.max_expansions = max_expansions
        if radius is not None:
            q.radius = radius
        if reachable is not None:
            q.reachable = 1 if reachable else 0
        if start is not None:
            q.start.x, q.start.y = start
        if seed is not None:
            q.seed = seed

    def nearest(self, point, **query):
        """The standable cell nearest point (octile distance); with reachable=True
        and start=(x, y), only cells a path joins to start."""
        f = self._n
        if query:
            self._set(f, **query)
        f.query.point.x, f.query.point.y = point
        return f.find()

    def line(self, start, goal, **query):
        """Whether the agent can travel the straight segment between two points
        (in cells, its top-left corner: floats)."""
        f = self._l
        if query:
            self._set(f, **query)
        q = f.query
        q.start.x, q.start.y = start
        q.goal.x, q.goal.y = goal
        return f.find()

    def random(self, **query):
        """A standable cell drawn uniformly (seed=; the result's state is the next
        seed); reachable=True, start=(x, y): from start's component."""
        f = self._r
        if query:
            self._set(f, **query)
        return f.find()

    # The sliced forms: FAMILY_begin(...), step(expansions), finish(): one query
    # of one family at a time.
    def nearest_begin(self, point, **query):
        if query:
            self._set(self._n, **query)
        self._n.query.point.x, self._n.query.point.y = point
        self._n.begin()

    def line_begin(self, start, goal, **query):
        if query:
            self._set(self._l, **query)
        q = self._l.query
        q.start.x, q.start.y = start
        q.goal.x, q.goal.y = goal
        self._l.begin()

    def random_begin(self, **query):
        if query:
            self._set(self._r, **query)
        self._r.begin()

    def nearest_step(self, expansions):
        return self._n.step(expansions)

    def line_step(self, expansions):
        return self._l.step(expansions)

    def random_step(self, expansions):
        return self._r.step(expansions)

    def nearest_finish(self):
        return self._n.finish()

    def line_finish(self):
        return self._l.finish()

    def random_finish(self):
        return self._r.finish()
