"""A world of tiles at run time (nb_world_open(3)): the world bundle that
`navbake world link` writes, and the tile bundles the game loads and drops.

    with navbake.StreamWorld("out/world.nbw") as w:
        w.load_cells(px - 64, py - 64, 128, 128)     # the tiles around a player
        try:
            ok = w.reachable("ground", 1, (10, 10), (900, 700))
        except navbake.UnloadedError as e:
            for tile in e.needed: w.load(*tile)      # then ask again

No query loads a tile: one that needs a tile not loaded raises
UnloadedError, whose `needed` lists the tiles to load.  (World, in
world.py, is the bake side: a world's manifest.)
"""
import ctypes as C
import os
import threading
from collections import namedtuple

from . import _types as T
from ._handle import Handle, check
from ._lib import lib
from .bundle import OPEN_PRIVATE, OPEN_VERIFY, Bundle
from .errors import NavbakeError, Status, UnloadedError, error_of

WorldInfo = namedtuple("WorldInfo", "width height tile cluster halo columns rows loaded retired")
WorldInfo.__doc__ = """nb_world_info: the world's shape (cells, tiles) and the tiles it holds now
(loaded; retired: unloaded but still mapped for a query reading them)."""


class _WorldBundle(Bundle):
    """The world's own bundle (nb_world_bundle): the world frees it, not this."""
    _free = None
    _kind = "world bundle"


class _PerThread(threading.local):
    """What a reachable() call fills, one set a thread: threads query a world
    at once, and a query in a steady loop allocates nothing."""

    def __init__(self):
        self.err = T.Err()
        self.reach = C.c_int()
        self.needed = (T.WorldTile * 2)()
        self.count = C.c_size_t()
        self.refs = tuple(C.byref(o) for o in (self.reach, self.count, self.err))


def _tile(column, row):
    return T.WorldTile(column, row)


class StreamWorld(Handle):
    """nb_world: a world bundle opened read-only, and the tiles loaded now.

    StreamWorld(path, tiles=None) opens the world bundle at path (tiles: the
    folder of the tile bundles X_Y.nbb; None, "tiles" beside it); verify and
    private as for Bundle, applied to every tile loaded too.  No tile is
    loaded.  Loads and unloads belong to one thread at a time; any number of
    threads may call reachable(), loaded(), info and bytes meanwhile."""

    _free = lib.nb_world_close
    _kind = "world"

    def __init__(self, path, tiles=None, verify=False, private=False):
        flags = (OPEN_VERIFY if verify else 0) | (OPEN_PRIVATE if private else 0)
        out, err = C.c_void_p(), T.Err()
        check(lib.nb_world_open_abi(os.fsencode(path),
                                    os.fsencode(tiles) if tiles is not None else None, flags,
                                    None, C.byref(out), C.byref(err), T.ABI_P), err)
        Handle.__init__(self, out.value)
        self.path = os.fsdecode(path)
        self._local = _PerThread()
        self._loader = None   # the callbacks the library holds, kept alive
        self._bundle = None

    def __repr__(self):
        if self.closed:
            return "<StreamWorld closed>"
        i = self.info
        return "<StreamWorld %s %dx%d, %dx%d tiles, %d loaded>" % (
            self.path, i.width, i.height, i.columns, i.rows, i.loaded)

    @property
    def bundle(self):
        """The world bundle (a Bundle: its agents, terrains, capability(),
        sections), closed with the world."""
        if self._bundle is None or self._bundle.closed:
            b = _WorldBundle.__new__(_WorldBundle)
            b.path = self.path
            b._init(lib.nb_world_bundle(self._h()))
            b._depends_on(self)
            self._bundle = b
        return self._bundle

    @property
    def info(self):
        """The world's shape and what it holds now (WorldInfo)."""
        i = T.WorldInfo()
        lib.nb_world_describe(self._h(), C.byref(i))
        return WorldInfo(*(getattr(i, f) for f in WorldInfo._fields))

    @property
    def bytes(self):
        """The bytes the world holds: its bundle, its arrays, each tile mapped."""
        return lib.nb_world_bytes(self._h())

    @property
    def resident(self):
        """What of bytes is in memory now (nb_world_resident): the pages of
        each mapped file this process holds, and what lives in the heap."""
        return lib.nb_world_resident(self._h())

    def trim(self):
        """nb_world_trim: gives back the world bundle's pages of the tiles not
        loaded (the graph above them, which long queries read); later queries
        read them again from the file.  Returns the bytes given back."""
        return lib.nb_world_trim(self._h())

    def set_budget(self, nbytes):
        """nb_world_set_budget: with a loader set (set_loader) and nbytes above
        0, a query that needs a tile not loaded loads it on its own thread,
        and every load is followed by unloading the tiles least recently used
        until bytes is at most nbytes (None: no limit; 0: off, queries never
        load).  Like load(), one thread's at a time."""
        if nbytes is not None and nbytes < 0:
            raise ValueError("budget: bytes >= 0 or None, not %r" % (nbytes,))
        lib.nb_world_set_budget(self._h(), C.c_size_t(-1).value if nbytes is None else nbytes)

    def tile_of(self, x, y):
        """The tile (column, row) holding world cell (x, y)."""
        side = self.info.tile
        return x // side, y // side

    # -- loading -------------------------------------------------------------
    def load(self, column, row):
        """Maps tile (column, row)'s bundle; MismatchError when it is not the one
        the world was linked from, OutsideError off the grid, the open's errors
        (BundleIOError...) naming the tile.  A tile loaded already stays."""
        self._check(lib.nb_world_load(self._h(), _tile(column, row), self._eref))

    def unload(self, column, row):
        """Takes the tile out of the queries' sight (unmapped once none reads it)."""
        self._check(lib.nb_world_unload(self._h(), _tile(column, row), self._eref))

    def load_cells(self, x, y, w, h):
        """Loads every tile the w x h cells from (x, y) meet (clipped to the world)."""
        self._check(lib.nb_world_load_cells(self._h(), x, y, w, h, self._eref))

    def unload_cells(self, x, y, w, h):
        self._check(lib.nb_world_unload_cells(self._h(), x, y, w, h, self._eref))

    def loaded(self, column, row):
        """True when the tile is loaded (False off the grid too)."""
        return bool(lib.nb_world_loaded(self._h(), _tile(column, row)))

    def set_loader(self, loader):
        """Where later loads get tile bundles: loader(column, row) returns a
        file's path or the bundle's bytes (any buffer; copied by the load).
        An exception it raises fails the load with its message (its status
        when it is a NavbakeError, else BundleIOError's), the exception
        chained.  None: the tile folder again."""
        h = self._h()
        if loader is None:
            self._loader = None
            lib.nb_world_set_loader(h, T.WorldLoader(), T.WorldRelease(), None)
            return
        keep = {}   # what the library reads until the load returns

        def load(opaque, tile, path, data, length, err):
            try:
                got = loader(tile.column, tile.row)
                if isinstance(got, (str, os.PathLike)):
                    keep["buf"] = C.create_string_buffer(os.fsencode(got))
                    path[0] = C.addressof(keep["buf"])
                else:
                    mv = memoryview(got).cast("B")
                    keep["buf"] = buf = (C.c_char * max(1, mv.nbytes)).from_buffer_copy(
                        mv if mv.nbytes else b"\0")
                    data[0], length[0] = C.addressof(buf), mv.nbytes
                return 0
            except Exception as e:   # an exception may not cross the C frames
                keep["exc"] = e
                st = e.status if isinstance(e, NavbakeError) and e.status else Status.ERR_IO
                msg = ("%s: %s" % (type(e).__name__, e)).encode("utf-8", "replace")
                err[0].code = int(st)
                err[0].msg = msg[:T.NB_ERR_MSG_MAX - 1]
                return int(st)

        def release(opaque, tile, data):
            keep.pop("buf", None)

        cbs = (T.WorldLoader(load), T.WorldRelease(release), keep)
        lib.nb_world_set_loader(h, cbs[0], cbs[1], None)
        self._loader = cbs

    def _check(self, status):
        if status:
            exc = self._loader[2].pop("exc", None) if self._loader else None
            try:
                Handle._check(self, status)
            except NavbakeError as e:
                raise e from exc

    # -- queries ---------------------------------------------------------------
    def aa(self):
        """A WorldAA: Annotated A* and nearest across the tiles (closed with the world)."""
        from .worldquery import WorldAA
        return WorldAA(self)

    def haa(self):
        """A WorldHAA: HAA* across the tiles, over the world's graph (closed with the world)."""
        from .worldquery import WorldHAA
        return WorldHAA(self)

    def overlay(self):
        """A WorldOverlay: cells blocked in world coordinates (closed with the world)."""
        from .worldquery import WorldOverlay
        return WorldOverlay(self)

    def reachable(self, cap, size, start, goal):
        """True when a path joins world cells start and goal for an agent of
        (cap, size) (False also where it cannot stand), in O(1).  UnloadedError
        with `needed` when a cell's tile is not loaded; OutsideError off the
        world; NotFoundError without components for (cap, size)."""
        h = self._h()
        if not isinstance(cap, int):
            cap = self.bundle.capability(cap)
        t = self._local
        reach, count, err = t.refs
        st = lib.nb_world_reachable(h, cap, size, T.Cell(*start), T.Cell(*goal), reach, t.needed,
                                    2, count, err)
        if st:
            raise _error_of_query(st, t)
        return bool(t.reach.value)


def _error_of_query(status, t):
    """The exception of a failed world query, with the tiles it needs."""
    e = error_of(status, t.err.msg.decode("utf-8", "replace"))
    if isinstance(e, UnloadedError):
        e.needed = [(t.needed[i].column, t.needed[i].row)
                    for i in range(min(t.count.value, len(t.needed)))]
    return e
