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
    """A native pointer freed once nothing needs it: not while a Python
    reference to it lives (a bundle's mapping stays while a layer view
    exported from it lives, even after the bundle handle was closed), and
    not while a pointer made from it is still unfreed (a workspace's close
    uses its bundle's allocator).

    The second rule does not rest on the order finalizers run in: the
    cyclic collector, and the interpreter at exit, call the finalizers of
    everything unreachable together in any order, so a bundle's may run
    before its workspace's.  Each Owned counts its unfreed children
    (`live`); its own release only marks it released, and the pointer is
    freed by whichever comes last, the release or the last child's free.
    The steps are single operations on builtins (set.add, set.discard,
    list.pop), atomic under the GIL, so threads dropping handles at once
    free each pointer exactly once."""

    __slots__ = ("box", "free", "parents", "live", "released")

    def __init__(self, ptr, free, parents=()):
        self.box = [ptr]                  # popped by the one free
        self.free = free
        self.released = False
        self.live = set()                 # id() of each unfreed child
        self.parents = []
        for p in parents:
            self.add_parent(p)

    @property
    def ptr(self):
        return self.box[0] if self.box else None   # None once freed

    def add_parent(self, parent):
        """parent is freed after this one."""
        parent.live.add(id(self))
        self.parents.append(parent)

    def release(self):
        """Nothing in Python needs the pointer any more: freed now, or by its last child's free."""
        self.released = True
        self._try_free()

    def _try_free(self):
        # Both conditions are read after each is set, so at least one of
        # release() and the last child's free sees both; pop() lets one free.
        if not self.released or self.live:
            return
        try:
            p = self.box.pop()
        except IndexError:
            return
        if p and self.free is not None:
            try:
                self.free(p)
            except Exception:  # interpreter shutdown: the library may be gone
                pass
        for parent in self.parents:
            parent.live.discard(id(self))
            parent._try_free()

    def __del__(self):
        self.release()


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
        other._h()
        other._children.add(self)
        self._owned.add_parent(other._owned)

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
