"""The one query shape every search family shares (navbake(3), "One query
shape"): a query struct set once and changed field by field, find, and the
sliced form begin / step / finish, on a workspace that is reused by every
query.  A workspace runs one query at a time and belongs to one thread.
"""
import ctypes as C

from . import _types as T
from ._handle import Handle, check
from ._lib import fast, lib
from .errors import ClosedError
from .results import Buffer, View


class Family:
    """One family's query, result and calls on a workspace handle (a place
    holds three: nearest, line, random)."""

    def __init__(self, owner, fam, qtype, rtype, result_cls):
        self.owner = owner
        self.query = qtype()
        check(getattr(lib, "nb_%s_query_init_abi" % fam)(C.byref(self.query), T.ABI_P),
              T.Err())
        self._r = rtype()
        self.result = result_cls(owner, self._r)
        self._qref, self._rref = C.byref(self.query), C.byref(self._r)
        self._find = fast("nb_%s_find" % fam)
        self._begin = fast("nb_%s_begin" % fam)
        self._step = getattr(lib, "nb_%s_step" % fam)   # declared: expansions is a uint64_t
        self._finish = fast("nb_%s_finish" % fam)
        self._done = C.c_int()
        self._doneref = C.byref(self._done)
        self.overlay = None   # the Overlay the query points to, kept alive and checked
        self.keep = {}        # other objects the query points into (costs, an agent)

    def set_overlay(self, overlay):
        self.overlay = overlay
        self.query.overlay = overlay._h().value if overlay is not None else None

    def _ready(self):
        ws = self.owner._h()
        ov = self.overlay
        if ov is not None and ov._owned is None:
            raise ClosedError("navbake: the query's overlay is closed")
        return ws

    def find(self):
        o, ov = self.owner, self.overlay
        if o._owned is None or (ov is not None and ov._owned is None):
            self._ready()   # raises ClosedError
        st = self._find(o._ptr, self._qref, self._rref, o._eref)
        if st:
            o._check(st)
        return self.result

    def begin(self):
        self.owner._check(self._begin(self._ready(), self._qref, self.owner._eref))

    def step(self, expansions):
        self.owner._check(self._step(self.owner._h(), expansions, self._doneref,
                                     self.owner._eref))
        return bool(self._done.value)

    def finish(self):
        self.owner._check(self._finish(self.owner._h(), self._rref, self.owner._eref))
        return self.result


class PathOf:
    """A result field that is a path: copied into the workspace's buffer of its
    type on access and viewed there (results.View)."""

    def __init__(self, ptr_field, len_field, ctype, conv):
        self.ptr_field, self.len_field, self.ctype, self.conv = ptr_field, len_field, ctype, conv

    def __set_name__(self, owner, name):
        self.key = "_buf_" + name

    def __get__(self, res, cls=None):
        if res is None:
            return self
        ws = res._ws
        ws._h()   # a closed workspace's paths are gone
        r = res._r
        n = getattr(r, self.len_field)
        buf = ws._buffers.get(self.key)
        if buf is None:
            buf = ws._buffers[self.key] = Buffer(self.ctype)
        arr = buf.fill(getattr(r, self.ptr_field), n)
        return View(arr, n, self.conv)


class Workspace(Handle):
    """A workspace handle: its byte count and node cap (Detour's maxNodes)."""

    _fam = None

    def __init__(self, ptr, parent):
        Handle.__init__(self, ptr, parent)
        self._buffers = {}

    def set_max_nodes(self, n):
        """Caps the nodes one search may reach (0: no cap): NB_PATH_LIMIT past it."""
        getattr(lib, "nb_%s_set_max_nodes" % self._fam)(self._h(), n)

    @property
    def bytes(self):
        """The bytes the workspace holds now."""
        return getattr(lib, "nb_%s_bytes" % self._fam)(self._h())


def open_on(fn, *args):
    """Calls an nb_..._open(args..., &out, &err) and returns the pointer."""
    out, err = C.c_void_p(), T.Err()
    check(fn(*args, C.byref(out), C.byref(err)), err)
    return out.value


class Searcher(Workspace):
    """A workspace of one family (self._f): find and the sliced form, each
    taking keywords that change the query first (the subclass's configure)
    and the two ends (its _ends)."""

    def find(self, start, goal, **query):
        """Searches from start to goal; returns the workspace's result, filled
        again by its next query (result.copy() keeps one)."""
        if query:
            self.configure(**query)
        self._ends(start, goal)
        return self._f.find()

    def begin(self, start, goal, **query):
        """Starts a sliced query (its errors are find's)."""
        if query:
            self.configure(**query)
        self._ends(start, goal)
        self._f.begin()

    def step(self, expansions):
        """Expands at most that many nodes; True once the search has ended."""
        return self._f.step(expansions)

    def finish(self):
        """The result: find's when done, else NB_PATH_LIMIT and the best partial path."""
        return self._f.finish()
