"""Baking in-process through the bake library (navbake_bake.h, libnavbake_bake).

    with navbake.Baker() as b:
        b.set_grid([[0, 0, 255], [0, 0, 0]])      # or bytes, or a numpy array
        data = b.bake(abstract=True)              # the bundle's bytes
        b.write("level.nbk", progress=lambda f: False)

The bytes are what mkclear then mkabstract write for the same level and
options.  A progress callback is told the fraction done (0 to 1) on the
baking thread; returning a true value cancels the bake, which raises
CancelledError (NB_ERR_CANCELLED) having written nothing.  An exception the
callback raises cancels the bake too and is raised in its place.
"""
import ctypes as C
import ctypes.util
import glob
import os

from . import _lib
from . import _types as T
from ._handle import Handle
from .errors import error_of

NB_BAKE_OBSTACLE = 255
ABSTRACT, OPTIMAL, OPTIMAL_WEAK, ZLIB = 0x1, 0x2, 0x4, 0x8
QUALITY = {"initial": 0, "high": 1, "low": 2}
PLACEMENT = {"first": 0, "middle": 1, "spread": 2, "ends": 3, "auto": 255}

PROGRESS_FN = C.CFUNCTYPE(C.c_int, C.c_void_p, C.c_double)


class BakeOptions(C.Structure):
    """nb_bake_options."""
    _fields_ = [("flags", C.c_uint32), ("cluster", C.c_uint32), ("levels", C.c_uint32),
                ("landmarks", C.c_uint32), ("threads", C.c_uint32), ("quality", C.c_uint32),
                ("placement", C.c_uint32), ("reserved", C.c_uint32),
                ("progress", PROGRESS_FN), ("progress_arg", C.c_void_p)]


# navbake_bake.h's NB_BAKE_ABI_STRUCTS, in its order.
_bake_sizes = (C.c_uint32 * 1)(C.sizeof(BakeOptions))
BAKE_ABI = T.Abi(T.VERSION_MAJOR, T.VERSION_MINOR, 1, C.cast(_bake_sizes, C.POINTER(C.c_uint32)))

_P, _S, _E, _STR, _SZ = C.c_void_p, C.c_int, C.POINTER(T.Err), C.c_char_p, C.c_size_t
_ABI = C.POINTER(T.Abi)
_PO = C.POINTER(BakeOptions)

# Every function of navbake_bake.h (tests/test_bake.py checks the table against it).
PROTOTYPES = {
    "nb_bake_options_init_abi": (_S, [_PO, _ABI, _ABI]),
    "nb_bake_open_abi": (_S, [_P, C.POINTER(_P), _E, _ABI, _ABI]),
    "nb_bake_close": (None, [_P]),
    "nb_bake_set_legend": (_S, [_P, _STR, _SZ, _STR, _E]),
    "nb_bake_set_agents": (_S, [_P, _STR, _SZ, _STR, _E]),
    "nb_bake_set_grid": (_S, [_P, C.c_uint32, C.c_uint32, C.c_void_p, _E]),
    "nb_bake_set_map": (_S, [_P, _STR, _SZ, _STR, _E]),
    "nb_bake_read_level": (_S, [_P, _STR, _STR, _STR, _E]),
    "nb_bake_terrain_count": (C.c_uint, [_P]),
    "nb_bake_terrain_lookup": (_S, [_P, _STR, C.POINTER(C.c_uint), _E]),
    "nb_bake_memory": (_S, [_P, _PO, C.POINTER(C.c_void_p), C.POINTER(_SZ), _E]),
    "nb_bake_free": (None, [_P, C.c_void_p]),
    "nb_bake_write": (_S, [_P, _PO, _STR, _E]),
    "nb_bake_abi_check": (_S, [_ABI, _E]),
    "nb_bake_abi_size": (C.c_uint32, [C.c_uint]),
    "nb_bake_abi_name": (_STR, [C.c_uint]),
}


def candidates():
    """Where libnavbake_bake is looked for: $NAVBAKE_BAKE_LIB, beside the
    libnavbake in use, then the system's search."""
    out = []
    env = os.environ.get("NAVBAKE_BAKE_LIB")
    if env:
        out.append(env)
    d = os.path.dirname(_lib.path) if os.path.isabs(_lib.path or "") else None
    if d:
        out += sorted(glob.glob(os.path.join(d, "libnavbake_bake.so*")) +
                      glob.glob(os.path.join(d, "*navbake_bake*.dll")) +
                      glob.glob(os.path.join(d, "libnavbake_bake*.dylib")))
    system = ctypes.util.find_library("navbake_bake")
    if system:
        out.append(system)
    return out


_loaded = None


def library():
    """libnavbake_bake, its functions declared; ImportError naming where it looked."""
    global _loaded
    if _loaded is not None:
        return _loaded
    tried = []
    for path in candidates():
        try:
            dll = C.CDLL(path)
        except OSError as e:
            tried.append("%s: %s" % (path, e))
            continue
        if not hasattr(dll, "nb_bake_open_abi"):
            tried.append("%s lacks nb_bake_open_abi" % path)
            continue
        for name, (restype, argtypes) in PROTOTYPES.items():
            f = getattr(dll, name)
            f.restype, f.argtypes = restype, argtypes
        _loaded = dll
        return dll
    raise ImportError("navbake: libnavbake_bake not found (set NAVBAKE_BAKE_LIB to it): " +
                      ("; ".join(tried) or "no candidate"))


def abi_check():
    """The bake library's ABI guard against this module's nb_bake_options
    (VersionError naming the struct that differs), and its structs' names
    and sizes as the library has them: [(name, size)...]."""
    dll, err = library(), T.Err()
    st = dll.nb_bake_abi_check(C.byref(BAKE_ABI), C.byref(err))
    if st:
        raise error_of(st, err.msg.decode("utf-8", "replace"))
    out, i = [], 0
    while dll.nb_bake_abi_name(i):
        out.append((dll.nb_bake_abi_name(i).decode(), dll.nb_bake_abi_size(i)))
        i += 1
    return out


def _bytes(s):
    """Text or bytes as (bytes, length); None stays (None, 0)."""
    if s is None:
        return None, 0
    b = s.encode("utf-8") if isinstance(s, str) else bytes(s)
    return b, len(b)


def _path(p):
    return None if p is None else os.fsencode(p)


def _grid_cells(grid, width=None, height=None):
    """(width, height, bytes) of a grid: rows of ids, bytes/bytearray with
    width and height, or a 2-D numpy array of uint8 (or anything with .shape
    and .tobytes())."""
    shape = getattr(grid, "shape", None)
    if shape is not None and hasattr(grid, "tobytes"):
        if len(shape) != 2:
            raise ValueError("navbake: a grid array has 2 dimensions, not %d" % len(shape))
        if str(getattr(grid, "dtype", "uint8")) != "uint8":
            grid = grid.astype("uint8")
        return shape[1], shape[0], grid.tobytes(order="C")
    if isinstance(grid, (bytes, bytearray, memoryview)):
        if width is None or height is None:
            raise ValueError("navbake: a grid given as bytes needs width and height")
        data = bytes(grid)
        if len(data) != width * height:
            raise ValueError("navbake: a %dx%d grid has %d cells, not %d bytes"
                             % (width, height, width * height, len(data)))
        return width, height, data
    rows = [bytes(r) for r in grid]
    w = len(rows[0]) if rows else 0
    for y, r in enumerate(rows):
        if len(r) != w:
            raise ValueError("navbake: grid row %d has %d cells, row 0 has %d" % (y, len(r), w))
    return w, len(rows), b"".join(rows)


class Baker(Handle):
    """A level being made and baked (nb_bake): its legend, agent set and grid.
    A context manager; one Baker bakes on one thread at a time."""

    _kind = "baker"

    def __init__(self):
        dll = library()
        type(self)._free = dll.nb_bake_close
        self._dll = dll
        out, err = C.c_void_p(), T.Err()
        st = dll.nb_bake_open_abi(None, C.byref(out), C.byref(err), T.ABI_P, C.byref(BAKE_ABI))
        if st:
            raise error_of(st, err.msg.decode("utf-8", "replace"))
        super().__init__(out.value)
        self._raised = None

    def set_legend(self, yaml=None, name=None):
        """The terrain legend from its YAML text (None: the default); drops the
        agent set and the grid, which are read in the legend's terms."""
        b, n = _bytes(yaml)
        self._check(self._dll.nb_bake_set_legend(self._h(), b, n, _path(name), self._eref))

    def set_agents(self, yaml=None, name=None):
        """The agent set from its YAML text (None: the default)."""
        b, n = _bytes(yaml)
        self._check(self._dll.nb_bake_set_agents(self._h(), b, n, _path(name), self._eref))

    def set_grid(self, grid, width=None, height=None):
        """The grid of terrain ids (0 .. terrain_count - 1, or NB_BAKE_OBSTACLE):
        a list of rows, bytes with width and height, or a 2-D numpy array."""
        w, h, data = _grid_cells(grid, width, height)
        self._check(self._dll.nb_bake_set_grid(self._h(), w, h, data, self._eref))

    def set_map(self, text_, name=None):
        """The grid from a MovingAI map's text in the legend's characters."""
        b, n = _bytes(text_)
        self._check(self._dll.nb_bake_set_map(self._h(), b, n, _path(name), self._eref))

    def read_level(self, level, legend=None, agents=None):
        """Reads a level from its files as mkclear does (a MovingAI map, Tiled,
        LDtk, image or heightmap level by its extension)."""
        self._check(self._dll.nb_bake_read_level(self._h(), _path(legend), _path(agents),
                                                 _path(level), self._eref))

    @property
    def terrain_count(self):
        """The legend's terrains."""
        return self._dll.nb_bake_terrain_count(self._h())

    def terrain(self, name):
        """The id of the terrain called name (NotFoundError naming those there are)."""
        out = C.c_uint()
        self._check(self._dll.nb_bake_terrain_lookup(self._h(), name.encode("utf-8"),
                                                     C.byref(out), self._eref))
        return out.value

    def _options(self, abstract=True, optimal=False, zlib=False, cluster_size=None,
                 levels=None, landmarks=None, threads=None, quality=None, placement=None,
                 progress=None):
        o = BakeOptions()
        self._check(self._dll.nb_bake_options_init_abi(C.byref(o), T.ABI_P, C.byref(BAKE_ABI)))
        o.flags = ABSTRACT if abstract else 0
        if optimal:
            o.flags |= {True: OPTIMAL, "strict": OPTIMAL, "weak": OPTIMAL_WEAK,
                        "both": OPTIMAL | OPTIMAL_WEAK}[optimal]
        if zlib:
            o.flags |= ZLIB
        for field, v in (("cluster", cluster_size), ("levels", levels),
                         ("landmarks", landmarks), ("threads", threads)):
            if v is not None:
                setattr(o, field, v)
        if quality is not None:
            o.quality = QUALITY.get(quality, quality)
        if placement is not None:
            o.placement = PLACEMENT.get(placement, placement)
        self._raised = None
        if progress is not None:
            def tell(_arg, fraction):
                try:
                    return 1 if progress(fraction) else 0
                except BaseException as e:   # raised in place of the cancel, below
                    self._raised = e
                    return 1
            o.progress = PROGRESS_FN(tell)   # kept alive by o for the call
        return o

    def _done(self, st):
        if st and self._raised is not None:
            e, self._raised = self._raised, None
            raise e
        self._check(st)

    def bake(self, **options):
        """The bundle's bytes.  Options: abstract (default True: the HAA*
        graph, as mkabstract), optimal (True/"strict", "weak", "both"), zlib,
        cluster_size, levels, landmarks, threads, quality ("initial", "high",
        "low"), placement ("first", "middle", "spread", "ends", "auto") and
        progress (a callable taking the fraction done; true cancels)."""
        o = self._options(**options)
        data, n = C.c_void_p(), C.c_size_t()
        h = self._h()
        self._done(self._dll.nb_bake_memory(h, C.byref(o), C.byref(data), C.byref(n),
                                            self._eref))
        try:
            return C.string_at(data, n.value)
        finally:
            self._dll.nb_bake_free(h, data)

    def write(self, path, **options):
        """Writes the bundle to path (binary, or SQLite by its name) and returns
        path; a failure or a cancel leaves any file there as it was.  Options
        as bake()."""
        o = self._options(**options)
        self._done(self._dll.nb_bake_write(self._h(), C.byref(o), os.fsencode(path), self._eref))
        return path


def bake_grid(grid, output=None, width=None, height=None, legend=None, agents=None, **options):
    """Bakes a grid of terrain ids (Baker.set_grid) with the legend and agent
    set's YAML texts (None: the defaults): its bytes, or written to output
    (its path returned).  Options as Baker.bake()."""
    with Baker() as b:
        if legend is not None:
            b.set_legend(legend)
        if agents is not None:
            b.set_agents(agents)
        b.set_grid(grid, width, height)
        return b.bake(**options) if output is None else b.write(output, **options)


__all__ = ["Baker", "BakeOptions", "bake_grid", "NB_BAKE_OBSTACLE", "library"]
