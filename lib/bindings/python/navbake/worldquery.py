"""Queries across a world's tiles (nb_world_aa_open(3)): Annotated A* and
the nearest standable cell on world cells, each cell answered by the tile
that owns it, and cells blocked at run time in world coordinates.

    with navbake.StreamWorld("out/world.nbw") as w, w.aa() as ws:
        w.load_cells(0, 0, 64, 64)
        while True:
            try:
                r = ws.find((2, 2), (60, 36), agent="scout")
                break
            except navbake.UnloadedError as e:
                for tile in e.needed: w.load(*tile)   # then ask again

No query loads a tile: a search that a tile not loaded could change raises
UnloadedError, whose `needed` lists the tiles to load.  A WorldAA is one
thread's, as any workspace; a WorldOverlay is read by the queries given it
and changed only while none runs.
"""
import ctypes as C

from . import _types as T
from ._lib import fast, lib
from .errors import ClosedError, UnloadedError
from ._handle import Handle
from .grid import HAA, AAResult, GridSearch, HAAResult
from .place import LineResult, NearestResult, RandomResult
from .search import open_on


class WorldOverlay(Handle):
    """nb_world_overlay: cells blocked at run time in a world's coordinates,
    whatever tiles they fall in (ArgumentError outside the world)."""

    _free = lib.nb_world_overlay_close
    _kind = "world overlay"

    def __init__(self, world):
        Handle.__init__(self, open_on(lib.nb_world_overlay_open, world._h()), world)
        self.world = world

    def block(self, x, y, w=1, h=1):
        """Blocks the w x h cells from (x, y)."""
        self._check(lib.nb_world_overlay_block(self._h(), x, y, w, h, self._eref))

    def unblock(self, x, y, w=1, h=1):
        self._check(lib.nb_world_overlay_unblock(self._h(), x, y, w, h, self._eref))

    def blocked(self, x, y):
        """True when world cell (x, y) is blocked (False off the world)."""
        return bool(lib.nb_world_overlay_blocked(self._h(), x, y))


class _WorldFamily:
    """A query struct, its result and the world call that answers it (the
    call, a _lib.fast pointer, takes the overlay as an argument: the query's
    own stays NULL)."""

    def __init__(self, owner, fam, qtype, rtype, result_cls, call):
        self.owner = owner
        self.query = qtype()
        st = getattr(lib, "nb_%s_query_init_abi" % fam)(C.byref(self.query), T.ABI_P)
        if st:
            owner._check(st)
        self._r = rtype()
        self.result = result_cls(owner, self._r)
        self._qref, self._rref = C.byref(self.query), C.byref(self._r)
        self._call = call
        self.overlay = None
        self.keep = {}

    def set_overlay(self, overlay):
        if overlay is not None and not isinstance(overlay, WorldOverlay):
            raise TypeError("overlay: a WorldOverlay (world.overlay()), not %r" % (overlay,))
        self.overlay = overlay

    def find(self):
        o, ov = self.owner, self.overlay
        h = o._h()
        if ov is None:
            optr = None
        elif ov._owned is None:
            raise ClosedError("navbake: the query's world overlay is closed")
        else:
            optr = ov._ptr
        st = self._call(h, self._qref, optr, self._rref, o._eref)
        if st:
            o._raise(st)
        return self.result


class _WorldSearch(GridSearch):
    """What the world's workspaces share: the world and its bundle, and the
    tiles the last query that raised UnloadedError needs."""

    _needed_fn = None

    def _open(self, world, open_fn):
        Handle.__init__(self, open_on(open_fn, world._h()), world)
        self._buffers = {}
        self.world = world
        self.bundle = world.bundle
        self._needed = (T.WorldTile * 8)()

    def _ready(self, family):
        self._f = family
        self.query, self.result = family.query, family.result
        self._qs, self._qg = self.query.start, self.query.goal
        if self.bundle.agents:
            self.configure(agent=self.bundle.agents[0])

    def needed(self):
        """The tiles the last query that raised UnloadedError needs, [(column, row)...]."""
        h, fn = self._h(), self._needed_fn
        n = fn(h, self._needed, len(self._needed))
        if n > len(self._needed):
            self._needed = (T.WorldTile * n)()
            n = fn(h, self._needed, n)
        return [(self._needed[i].column, self._needed[i].row) for i in range(n)]

    def _raise(self, st):
        try:
            self._check(st)
        except UnloadedError as e:
            e.needed = self.needed()
            raise

    def begin(self, *a, **k):
        raise AttributeError("a world workspace has no sliced query: use find")


class WorldAA(_WorldSearch):
    """nb_world_aa: Annotated A* across a world's tiles, the nearest standable
    cell (nearest()), the line of walk (line()) and random cells (random()),
    in one workspace per world and thread.  Queries are AA's (configure:
    agent, size, capability, corner, costs, partial, max_expansions) with
    overlay= a WorldOverlay."""

    _fam, _kind = "world_aa", "world AA* workspace"
    _free = lib.nb_world_aa_close
    _needed_fn = lib.nb_world_aa_needed

    def __init__(self, world):
        self._open(world, lib.nb_world_aa_open)
        self._n = _WorldFamily(self, "nearest", T.NearestQuery, T.NearestResult, NearestResult,
                               fast("nb_world_nearest_find"))
        self._l = _WorldFamily(self, "line", T.LineQuery, T.LineResult, LineResult,
                               fast("nb_world_line_find"))
        self._r = _WorldFamily(self, "random", T.RandomQuery, T.RandomResult, RandomResult,
                               self._random_call(fast("nb_world_random_find")))
        self.nearest_query, self.line_query, self.random_query = \
            self._n.query, self._l.query, self._r.query
        i = world.info   # the world's shape is fixed: read once, not at each draw
        self._rect = self._whole = (0, 0, i.width, i.height)
        self._agent_fn = lib.nb_aa_query_agent
        self._ready(_WorldFamily(self, "aa", T.AAQuery, T.AAResult, AAResult,
                                 fast("nb_world_aa_find")))

    def _random_call(self, call):
        # nb_world_random_find takes the rectangle between overlay and result.
        def random_find(h, q, ov, r, e):
            x, y, w, hh = self._rect
            return call(h, q, ov, C.c_long(x), C.c_long(y), C.c_long(w), C.c_long(hh), r, e)
        return random_find

    def set_max_nodes(self, n):
        """Caps the nodes one search may reach (0: no cap): NB_PATH_LIMIT past it."""
        lib.nb_world_aa_set_max_nodes(self._h(), n)

    def configure(self, **query):
        """As AA.configure; the size and capability go to the nearest, line and
        random queries too."""
        GridSearch.configure(self, **query)
        q = self.query
        for f in (self._n, self._l, self._r):
            f.query.size, f.query.capability = q.size, q.capability
        return self

    def _place_query(self, f, size, capability, overlay, max_expansions, **fields):
        q = f.query
        if size is not None:
            q.size = size
        if capability is not None:
            q.capability = self.bundle.capability(capability)
        if max_expansions is not None:
            q.max_expansions = max_expansions
        if overlay != ():
            f.set_overlay(overlay)
        for name, value in fields.items():
            if value is None:
                continue
            if name == "start":
                q.start.x, q.start.y = value
            elif name == "reachable":
                q.reachable = 1 if value else 0
            else:
                setattr(q, name, value)
        return f.find()

    def nearest(self, point, radius=None, reachable=None, start=None, overlay=(),
                max_expansions=None, size=None, capability=None):
        """nb_world_nearest_find: the standable cell nearest world point (x, y)
        for the configured agent (size, capability override it); reachable=True
        with start=(x, y): only cells of start's component (the world's)."""
        self._n.query.point.x, self._n.query.point.y = point
        return self._place_query(self._n, size, capability, overlay, max_expansions,
                                 radius=radius, reachable=reachable, start=start)

    def line(self, start, goal, overlay=(), max_expansions=None, size=None, capability=None):
        """nb_world_line_find: whether the agent can travel the straight segment
        between two world points (cells, its top-left corner: floats), as
        Place.line on the map baked whole.  UnloadedError when a tile the
        sweep needs is not loaded."""
        q = self._l.query
        q.start.x, q.start.y = start
        q.goal.x, q.goal.y = goal
        return self._place_query(self._l, size, capability, overlay, max_expansions)

    def random(self, rect=None, seed=None, reachable=None, start=None, overlay=(),
               max_expansions=None, size=None, capability=None):
        """nb_world_random_find: a standable cell drawn uniformly from the
        rectangle rect=(x, y, w, h) of world cells (None: the whole world;
        clipped to it); seed= (the result's state is the next seed);
        reachable=True, start=(x, y): from start's world component.
        UnloadedError when a tile of the rectangle is not loaded."""
        self._rect = self._whole if rect is None else tuple(rect)
        return self._place_query(self._r, size, capability, overlay, max_expansions,
                                 seed=seed, reachable=reachable, start=start)


class WorldHAA(_WorldSearch):
    """nb_world_haa: Hierarchical Annotated A* across a world's tiles, over
    the graph above the tiles `navbake world link` writes: complete, never
    shorter than WorldAA's paths.  Queries are HAA's (configure: agent,
    size, capability, corner, straighten, max_expansions; costs, smooth,
    partial and an overlay that blocks cells are refused across tiles:
    nb_world_haa_open(3)).  One workspace per world and thread."""

    _fam, _kind = "world_haa", "world HAA* workspace"
    _free = lib.nb_world_haa_close
    _needed_fn = lib.nb_world_haa_needed
    _configure_more = HAA._configure_more

    def __init__(self, world):
        self._open(world, lib.nb_world_haa_open)
        self._agent_fn = lib.nb_haa_query_agent
        self._ready(_WorldFamily(self, "haa", T.HAAQuery, T.HAAResult, HAAResult,
                                 fast("nb_world_haa_find")))

    def set_max_nodes(self, n):
        raise AttributeError("a world HAA* workspace has no node cap: use max_expansions")


__all__ = ["WorldAA", "WorldHAA", "WorldOverlay"]
