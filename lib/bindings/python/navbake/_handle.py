"""What every handle shares: closing once, refusing use after close, and
closing what was made from it first.

A handle made from another (a workspace from a bundle) is its child: the
parent's close() closes its children before itself, so no workspace is ever
left pointing into an unmapped bundle, and using any of them afterwards
raises ClosedError instead of crashing.
"""
import ctypes as C
import weakref

from . import _types as T
from ._lib import lib
from .errors import ClosedError, error_of


class Owned:
    """A native pointer freed when the last Python reference to it goes: a
    bundle's mapping stays while a layer view exported from it lives, even
    after the bundle handle itself was closed.  It holds the Owned of the
    handles it was made from (parents), so that, however the garbage
    collector orders finalizers, a workspace is freed before its bundle
    (whose allocator its close uses)."""

    __slots__ = ("ptr", "free", "parents")

    def __init__(self, ptr, free, parents=()):
        self.ptr = ptr
        self.free = free
        self.parents = list(parents)

    def __del__(self):
        p, self.ptr = self.ptr, None
        if p and self.free is not None:
            try:
                self.free(p)
            except Exception:  # interpreter shutdown: the library may be gone
                pass


def check(status, err):
    """Raises the exception of a failed call."""
    if status:
        raise error_of(status, err.msg.decode("utf-8", "replace"))


def text(b):
    """A C string as Python text (None stays None)."""
    return None if b is None else b.decode("utf-8", "replace")


class Handle:
    """An opaque navbake handle: a context manager, closed once."""

    _free = None   # the library's _close function for this kind
    _kind = "handle"

    def __init__(self, ptr, parent=None):
        self._owned = Owned(ptr, self._free,
                            (parent._owned,) if parent is not None else ())
        self._ptr = C.c_void_p(ptr)   # passed to every call as is
        self._parent = parent
        self._children = weakref.WeakSet()
        self._err = T.Err()           # this handle's own: no allocation per call
        self._eref = C.byref(self._err)
        if parent is not None:
            parent._children.add(self)

    @property
    def closed(self):
        """True once close() was called (or the handle it was made from closed)."""
        return self._owned is None

    def _h(self):
        """The native pointer, or ClosedError."""
        if self._owned is None:
            raise ClosedError("navbake: this %s is closed" % self._kind)
        return self._ptr

    def _depends_on(self, other):
        """This handle reads other too (a motion workspace its perimeter table):
        other's close() closes it first, and other is freed after it."""
        other._children.add(self)
        self._owned.parents.append(other._h() and other._owned)

    def close(self):
        """Releases the handle and every handle made from it; a second call does nothing."""
        if self._owned is None:
            return
        for child in list(self._children):
            child.close()
        # Dropped, not freed: a layer view exported from a bundle holds its
        # Owned too, and the mapping goes with the last of them.
        self._owned = None
        self._ptr = None

    def __enter__(self):
        self._h()
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    def _check(self, status):
        if status:
            raise error_of(status, self._err.msg.decode("utf-8", "replace"))
