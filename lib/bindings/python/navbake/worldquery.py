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
from .grid import AAResult, GridSearch
from .place import NearestResult
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


class WorldAA(GridSearch):
    """nb_world_aa: Annotated A* across a world's tiles, and the nearest
    standable cell (nearest()), in one workspace per world and thread.
    Queries are AA's (configure: agent, size, capability, corner, costs,
    partial, max_expansions) with overlay= a WorldOverlay."""

    _fam, _kind = "world_aa", "world AA* workspace"
    _free = lib.nb_world_aa_close

    def __init__(self, world):
        Handle.__init__(self, open_on(lib.nb_world_aa_open, world._h()), world)
        self._buffers = {}
        self.world = world
        self.bundle = world.bundle
        self._f = _WorldFamily(self, "aa", T.AAQuery, T.AAResult, AAResult,
                               fast("nb_world_aa_find"))
        self._n = _WorldFamily(self, "nearest", T.NearestQuery, T.NearestResult, NearestResult,
                               fast("nb_world_nearest_find"))
        self.query, self.result = self._f.query, self._f.result
        self.nearest_query = self._n.query
        self._qs, self._qg = self.query.start, self.query.goal
        self._agent_fn = lib.nb_aa_query_agent
        self._needed = (T.WorldTile * 8)()
        if self.bundle.agents:
            self.configure(agent=self.bundle.agents[0])

    def set_max_nodes(self, n):
        """Caps the nodes one search may reach (0: no cap): NB_PATH_LIMIT past it."""
        lib.nb_world_aa_set_max_nodes(self._h(), n)

    @property
    def bytes(self):
        """The bytes the workspace holds now."""
        return lib.nb_world_aa_bytes(self._h())

    def configure(self, **query):
        """As AA.configure; the size and capability go to nearest()'s query too."""
        GridSearch.configure(self, **query)
        q, n = self.query, self.nearest_query
        n.size, n.capability = q.size, q.capability
        return self

    def nearest(self, point, radius=None, reachable=None, start=None, overlay=(),
                max_expansions=None, size=None, capability=None):
        """nb_world_nearest_find: the standable cell nearest world point (x, y)
        for the configured agent (size, capability override it); reachable=True
        with start=(x, y): only cells of start's component (the world's)."""
        f, q = self._n, self._n.query
        if size is not None:
            q.size = size
        if capability is not None:
            q.capability = self.bundle.capability(capability)
        if radius is not None:
            q.radius = radius
        if reachable is not None:
            q.reachable = 1 if reachable else 0
        if start is not None:
            q.start.x, q.start.y = start
        if max_expansions is not None:
            q.max_expansions = max_expansions
        if overlay != ():
            f.set_overlay(overlay)
        q.point.x, q.point.y = point
        return f.find()

    def needed(self):
        """The tiles the last query that raised UnloadedError needs, [(column, row)...]."""
        h = self._h()
        n = lib.nb_world_aa_needed(h, self._needed, len(self._needed))
        if n > len(self._needed):
            self._needed = (T.WorldTile * n)()
            n = lib.nb_world_aa_needed(h, self._needed, n)
        return [(self._needed[i].column, self._needed[i].row) for i in range(n)]

    def _raise(self, st):
        try:
            self._check(st)
        except UnloadedError as e:
            e.needed = self.needed()
            raise

    def begin(self, *a, **k):
        raise AttributeError("a world workspace has no sliced query (nb_world_aa_*): use find")


__all__ = ["WorldAA", "WorldOverlay"]
