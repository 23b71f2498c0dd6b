"""Overlays: cells blocked at run time beside a read-only bundle.

    with bundle.overlay() as ov:
        ov.block(10, 4, 2, 2)                   # a door shut
        r = bundle.aa().find((2, 2), (60, 36), overlay=ov)

Queries only read an overlay, so threads may share one while nothing
changes it; a writer changes a clone() and swaps it in.
"""
import ctypes as C

from . import _types as T
from ._handle import Handle
from ._lib import lib
from .search import open_on

REACH_UNKNOWN = 2


def _cells(cells):
    cells = list(cells)
    arr = (T.Cell * max(1, len(cells)))(*[T.Cell(x, y) for x, y in cells])
    return arr, len(cells)


class Overlay(Handle):
    """nb_overlay: the blocked cells of one bundle's map."""

    _free = lib.nb_overlay_close
    _kind = "overlay"

    def __init__(self, bundle, _ptr=None):
        ptr = _ptr if _ptr is not None else open_on(lib.nb_overlay_open, bundle._h())
        Handle.__init__(self, ptr, bundle)
        self.bundle = bundle

    def clone(self):
        """A copy, for a writer to change while readers use this one."""
        return Overlay(self.bundle, open_on(lib.nb_overlay_clone, self._h()))

    def block(self, x, y, w=1, h=1):
        """Blocks the w x h cells from (x, y) (ArgumentError outside the map)."""
        self._check(lib.nb_overlay_block(self._h(), x, y, w, h, self._eref))

    def unblock(self, x, y, w=1, h=1):
        self._check(lib.nb_overlay_unblock(self._h(), x, y, w, h, self._eref))

    def block_cells(self, cells):
        """Blocks a list of (x, y) cells (all checked before any changes)."""
        arr, n = _cells(cells)
        self._check(lib.nb_overlay_block_cells(self._h(), arr, n, self._eref))

    def unblock_cells(self, cells):
        arr, n = _cells(cells)
        self._check(lib.nb_overlay_unblock_cells(self._h(), arr, n, self._eref))

    def clear(self):
        """Unblocks every cell."""
        lib.nb_overlay_clear(self._h())

    def blocked(self, x, y):
        return bool(lib.nb_overlay_blocked(self._h(), x, y))

    @property
    def blocked_count(self):
        return lib.nb_overlay_blocked_count(self._h())

    @property
    def bytes(self):
        return lib.nb_overlay_bytes(self._h())

    def can_stand(self, cap, size, x, y):
        """nb_can_stand on the map as the overlay leaves it (1, 0 or -1)."""
        return lib.nb_overlay_can_stand(self._h(), self.bundle.capability(cap), size, x, y)

    def reachable(self, cap, size, start, goal):
        """0, 1, REACH_UNKNOWN (HAA.reachable tells exactly) or -1 (no layer)."""
        return lib.nb_overlay_reachable(self._h(), self.bundle.capability(cap), size,
                                        T.Cell(*start), T.Cell(*goal))
