"""What queries answer: path statuses, results and the paths in them.

A workspace answers into one result object of its own, filled again by each
query (as in C, where a result's path is valid until the workspace's next
query): nothing is allocated per query in a steady loop.  Keep an answer
with result.copy().  A path is copied out of the library's workspace into a
buffer the Python workspace owns, grown only when a longer path comes, and
viewed without a further copy: as (x, y) tuples, a memoryview, or a numpy
array.
"""
import ctypes as C
import enum

from ._handle import text
from ._lib import lib


class PathStatus(enum.IntEnum):
    """nb_path_status: what a query found (never an error)."""
    FOUND = 0
    NONE = 1
    START_BLOCKED = 2
    GOAL_BLOCKED = 3
    LIMIT = 4
    BEYOND_RADIUS = 5
    PARTIAL = 6

    def describe(self):
        """nb_path_status_str: "found", "no path", ..."""
        return text(lib.nb_path_status_str(int(self)))

    __str__ = describe   # print(result.status): "found", not 0


_STATUSES = list(PathStatus)


def path_status(v):
    return _STATUSES[v] if 0 <= v < len(_STATUSES) else v


class Buffer:
    """A growable array of one ctypes type, owned by a workspace."""

    __slots__ = ("ctype", "size", "arr")

    def __init__(self, ctype, size=256):
        self.ctype = ctype
        self.size = size
        self.arr = (ctype * size)()

    def fill(self, src, n):
        """Copies n elements from the library's pointer src; grows by doubling."""
        if n > self.size:
            size = self.size
            while size < n:
                size *= 2
            self.arr = (self.ctype * size)()
            self.size = size
        if n:
            C.memmove(self.arr, src, n * C.sizeof(self.ctype))
        return self.arr


class View:
    """n elements of a workspace's buffer, viewed in place.  The workspace's next
    query with a path overwrites them: tolist() keeps a copy."""

    __slots__ = ("_arr", "_n", "_conv")

    def __init__(self, arr, n, conv):
        self._arr, self._n, self._conv = arr, n, conv

    def __len__(self):
        return self._n

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._conv(self._arr[j]) for j in range(*i.indices(self._n))]
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError("index %d of a path of %d" % (i, self._n))
        return self._conv(self._arr[i])

    def __iter__(self):
        conv, arr = self._conv, self._arr
        for i in range(self._n):
            yield conv(arr[i])

    def tolist(self):
        return list(self)

    def __eq__(self, other):
        return list(self) == list(other)

    def __repr__(self):
        return "<%d: %r>" % (self._n, self.tolist() if self._n <= 8 else self[:8] + ["..."])

    def memoryview(self):
        """The elements' bytes as a memoryview of the buffer (no copy)."""
        return memoryview(self._arr).cast("B")[:self._n * C.sizeof(self._arr._type_)]

    def array(self):
        """A numpy view of the buffer: cells as an n x 2 int32 array, other
        records as a structured array (no copy)."""
        import numpy
        t = self._arr._type_
        fields = [f for f, _ in t._fields_]
        if fields == ["x", "y"] and C.sizeof(t) == 8:
            return numpy.frombuffer(self._arr, dtype=numpy.int32, count=2 * self._n).reshape(
                self._n, 2)
        return numpy.ctypeslib.as_array(self._arr)[:self._n]


def cell_xy(c):
    return (c.x, c.y)


class Result:
    """The base of every family's result: the C struct's fields by name, the
    status as a PathStatus, and copy().  Subclasses add their paths."""

    __slots__ = ("_r", "_ws")
    _fields = ()     # the scalar fields copy() keeps

    def __init__(self, ws, r):
        self._ws = ws
        self._r = r

    @property
    def status(self):
        return path_status(self._r.status)

    @property
    def found(self):
        return self._r.status == 0

    def __getattr__(self, name):
        r = object.__getattribute__(self, "_r")
        return getattr(r, name)

    def copy(self):
        """A detached snapshot: the scalar fields and the paths as lists."""
        snap = {"status": self.status}
        for f in self._fields:
            v = getattr(self, f)
            snap[f] = v.tolist() if isinstance(v, View) else v
        return Snapshot(snap)

    def __repr__(self):
        return "<%s %s %s>" % (type(self).__name__, self.status.name if isinstance(
            self.status, PathStatus) else self.status,
            " ".join("%s=%r" % (f, getattr(self, f)) for f in self._fields[:3]))


class Snapshot(dict):
    """A result kept past the next query: a dict whose keys read as attributes."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name)
