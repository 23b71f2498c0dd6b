"""Bundles: open a baked file (or bytes), read its level and sections.

    with navbake.Bundle("level.nbk") as b:
        print(b.width, b.height, [a.name for a in b.agents])
        ws = b.aa()
        r = ws.find((2, 2), (60, 36), agent=b.agents[0])

A bundle is read-only once open: any number of threads may query it, each
with its own workspace (one workspace per thread).
"""
import ctypes as C
import enum
import os

from . import _types as T
from ._handle import Handle, Owned, check, text
from ._lib import lib

OPEN_VERIFY = 0x1
OPEN_PRIVATE = 0x2


class SectionType(enum.IntEnum):
    """nb_section_type: numbers fixed forever."""
    LEGEND = 1
    AGENTS = 2
    MAP = 3
    CLEARANCE = 16
    COMPONENTS = 17
    RUNS = 18
    SUBGOAL = 19
    ABSTRACT = 32
    ABSTRACT_COSTS = 33
    ABSTRACT_LEVELS = 34
    MODEL = 48
    PERIMETER = 49
    UNIT = 64
    HITCHECK = 65
    CURVES = 66
    FOREST = 80
    BITANGENT = 81


class Section:
    """One entry of the section table (nb_section_info), copied out."""

    __slots__ = ("index", "type", "version", "encoding", "offset", "size", "usize", "crc",
                 "flags", "param", "name", "_info")

    def __init__(self, index, info):
        self.index = index
        self._info = T.SectionInfo.from_buffer_copy(info)
        self.type = info.type
        self.version = info.version
        self.encoding = info.encoding
        self.offset = info.offset
        self.size = info.size
        self.usize = info.usize
        self.crc = info.crc
        self.flags = info.flags
        self.param = list(info.param)
        self.name = text(info.name)

    @property
    def type_name(self):
        """"clearance", "map"... or None for a type this library does not know."""
        return section_type_name(self.type)

    @property
    def encoding_name(self):
        """"raw", "packed", "zlib+raw", "zlib+packed" or "unknown"."""
        return text(lib.nb_encoding_name(self.encoding))

    def params(self):
        """{name: value} of the parameters this type names (nb_section_param)."""
        out = {}
        for i in range(T.NB_SECTION_PARAMS):
            pn = lib.nb_section_param_name(self.type, i)
            v = lib.nb_section_param(C.byref(self._info), i)
            if pn is None and v == 0:
                continue
            out[text(pn) if pn is not None else "p%d" % i] = v
        return out

    def __repr__(self):
        return "<Section %d %s %r>" % (self.index, self.type_name or self.type, self.params())


def section_type_name(type_):
    """The name of a section type number, or None."""
    return text(lib.nb_section_type_name(type_))


def section_type_parse(name):
    """The number of a section type by name (NotFoundError naming those there are)."""
    err, out = T.Err(), C.c_uint32()
    check(lib.nb_section_type_parse(name.encode(), C.byref(out), C.byref(err)), err)
    return out.value


class Terrain:
    __slots__ = ("index", "name", "chars")

    def __init__(self, index, name, chars):
        self.index, self.name, self.chars = index, name, chars

    def __repr__(self):
        return "<Terrain %d %s %r>" % (self.index, self.name, self.chars)


class Agent:
    """An agent type of the bundle's set (nb_agent), copied out of the bundle.

    `costs` is None without terrain costs, else the multiplier of each
    terrain by number.  Pass an Agent to a query (agent=) to take its size,
    capability and costs (nb_FAM_query_agent)."""

    __slots__ = ("index", "name", "size", "capability", "costs", "_c")

    def __init__(self, index, c_agent, nterrains):
        self.index = index
        self._c = T.Agent.from_buffer_copy(c_agent)
        self.name = text(self._c.name)
        self.size = self._c.size
        self.capability = self._c.capability
        self.costs = list(self._c.cost[:nterrains]) if self._c.weighted else None

    def __repr__(self):
        return "<Agent %s size %d capability 0x%x%s>" % (
            self.name, self.size, self.capability, " weighted" if self.costs else "")


class Layer:
    """A clearance or component layer, read in place from the mapped bundle.

    `payload` is a read-only memoryview of the section's bytes (no copy):
    a 16-byte header, then one value of `bits` bits per cell, bit-packed
    (formats/clearance.md).  `packed` is the values' bytes alone, and
    `array()` the same as a numpy uint8 array (a view, when numpy is
    there).  `value(x, y)` decodes one cell; `unpack()` decodes all into a
    height x width numpy array (a copy: the values are packed)."""

    def __init__(self, bundle, section, view):
        self.section = section
        self.payload = view
        hdr = view[:16].cast("I")
        self.width, self.height, self.bits, self.largest = hdr[0], hdr[1], hdr[2], hdr[3]
        self.packed = view[16:16 + (self.width * self.height * self.bits + 7) // 8]

    def value(self, x, y):
        """The stored value of cell (x, y) (no range check against the cap)."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError("cell (%d, %d) is outside the %d x %d layer"
                             % (x, y, self.width, self.height))
        bit = (y * self.width + x) * self.bits
        word = int.from_bytes(self.payload[16 + bit // 8:16 + bit // 8 + 8], "little")
        return (word >> (bit % 8)) & ((1 << self.bits) - 1)

    def array(self):
        """The packed values as a numpy uint8 array viewing the bundle's memory."""
        import numpy
        return numpy.frombuffer(self.packed, dtype=numpy.uint8)

    def unpack(self):
        """Every cell's value as a height x width numpy array (decoded: a copy)."""
        import numpy
        n = self.width * self.height
        bits = numpy.unpackbits(self.array(), bitorder="little")[:n * self.bits]
        weights = (1 << numpy.arange(self.bits, dtype=numpy.uint64))
        vals = bits.reshape(n, self.bits).astype(numpy.uint64) @ weights
        return vals.reshape(self.height, self.width).astype(numpy.uint32)


class Bundle(Handle):
    """A bundle file opened read-only (nb_bundle_open): mapped, not copied.

    Bundle(path) opens a file ("-" reads standard input); Bundle.from_bytes
    opens a copy of bytes or any buffer.  verify=True also makes
    nb_bundle_verify's checks; private=True reads the file into memory
    instead of mapping it.  The library's allocator is the C library's.
    Close it (or use `with`) to unmap it: every workspace, overlay, model or
    forest made from it is closed first.  Its calls fill an nb_err of their
    own (not the handle's), as threads share a bundle."""

    _free = lib.nb_bundle_close
    _kind = "bundle"

    def __init__(self, path, verify=False, private=False, _flags=None):
        flags = _flags if _flags is not None else \
            (OPEN_VERIFY if verify else 0) | (OPEN_PRIVATE if private else 0)
        out, err = C.c_void_p(), T.Err()
        st = lib.nb_bundle_open_abi(os.fsencode(path), flags, None, C.byref(out), C.byref(err),
                                    T.ABI_P)
        check(st, err)
        self.path = os.fsdecode(path)
        self._init(out.value)

    @classmethod
    def from_bytes(cls, data, verify=False):
        """A bundle from bytes, bytearray, memoryview or any buffer (copied by
        the library: the buffer may change afterwards)."""
        mv = memoryview(data).cast("B")
        n = mv.nbytes
        buf = (C.c_char * n).from_buffer_copy(mv) if n else (C.c_char * 1)()
        out, err = C.c_void_p(), T.Err()
        st = lib.nb_bundle_open_memory_abi(buf, n, OPEN_VERIFY if verify else 0, None,
                                           C.byref(out), C.byref(err), T.ABI_P)
        check(st, err)
        self = cls.__new__(cls)
        self.path = None
        self._init(out.value)
        return self

    def _init(self, ptr):
        Handle.__init__(self, ptr)
        nt = lib.nb_terrain_count(self._ptr)
        self.terrains = [Terrain(t, text(lib.nb_terrain_name(self._ptr, t)),
                                 text(lib.nb_terrain_chars(self._ptr, t))) for t in range(nt)]
        self.agents = [Agent(i, lib.nb_agent_get(self._ptr, i).contents, nt)
                       for i in range(lib.nb_agent_count(self._ptr))]
        self.obstacle_chars = text(lib.nb_obstacle_chars(self._ptr))
        self.has_map = bool(lib.nb_has_map(self._ptr))
        self.width = lib.nb_map_width(self._ptr)
        self.height = lib.nb_map_height(self._ptr)

    def __repr__(self):
        if self.closed:
            return "<Bundle closed>"
        return "<Bundle %s %dx%d, %d sections>" % (self.path or "(memory)", self.width,
                                                   self.height, self.section_count)

    # -- the file and its sections ------------------------------------------
    def verify(self):
        """Every CRC and every section's structure (nb_bundle_verify); raises."""
        err = T.Err()
        check(lib.nb_bundle_verify(self._h(), C.byref(err)), err)

    @property
    def format_version(self):
        major, minor = C.c_uint(), C.c_uint()
        lib.nb_bundle_format_version(self._h(), C.byref(major), C.byref(minor))
        return major.value, minor.value

    @property
    def file_size(self):
        return lib.nb_bundle_file_size(self._h())

    @property
    def form(self):
        """"binary" (mapped) or "sqlite" (read into memory)."""
        return "sqlite" if lib.nb_bundle_form_of(self._h()) == 1 else "binary"

    @property
    def section_count(self):
        return lib.nb_bundle_section_count(self._h())

    def section(self, index):
        """The index-th entry of the section table (IndexError past the end)."""
        p = lib.nb_bundle_section_get(self._h(), index)
        if not p:
            raise IndexError("section %d: the bundle has %d" % (index, self.section_count))
        return Section(index, p.contents)

    @property
    def sections(self):
        return [self.section(i) for i in range(self.section_count)]

    def section_lookup(self, type_, name=None, params=()):
        """The index of the first section of this type (a number or a name), name
        and first parameters; NotFoundError when none."""
        if isinstance(type_, str):
            type_ = section_type_parse(type_)
        ps = (C.c_uint32 * max(1, len(params)))(*params)
        idx = C.c_size_t()
        err = T.Err()
        check(lib.nb_bundle_section_lookup(self._h(), int(type_),
                                           name.encode() if name is not None else None, ps,
                                           len(params), C.byref(idx), C.byref(err)), err)
        return idx.value

    def payload(self, index):
        """The section's decoded payload as a read-only memoryview of the bundle's
        memory (no copy).  The mapping stays while the view lives, even once the
        bundle is closed."""
        data, n = C.c_void_p(), C.c_size_t()
        err = T.Err()
        check(lib.nb_bundle_payload(self._h(), index, C.byref(data), C.byref(n), C.byref(err)),
              err)
        arr = (C.c_uint8 * n.value).from_address(data.value) if n.value else (C.c_uint8 * 0)()
        arr.owner = self._owned   # keeps the mapping
        return memoryview(arr).cast("B").toreadonly()

    # -- the level -------------------------------------------------------------
    def capability(self, spec):
        """A capability mask from an int, "ground,swamp", or a list of terrain names."""
        if isinstance(spec, int):
            return spec
        if not isinstance(spec, str):
            spec = ",".join(spec)
        out = C.c_uint32()
        err = T.Err()
        check(lib.nb_capability_parse(self._h(), spec.encode(), C.byref(out), C.byref(err)),
              err)
        return out.value

    def capability_names(self, cap):
        """"ground,swamp" for a mask (nb_capability_format)."""
        n = lib.nb_capability_format(self._h(), cap, None, 0)
        buf = C.create_string_buffer(n + 1)
        lib.nb_capability_format(self._h(), cap, buf, n + 1)
        return text(buf.value)

    def agent(self, name):
        """The agent type called name (NotFoundError naming those there are)."""
        idx = C.c_size_t()
        err = T.Err()
        check(lib.nb_agent_lookup(self._h(), name.encode(), C.byref(idx), C.byref(err)),
              err)
        return self.agents[idx.value]

    def terrain(self, x, y):
        """The terrain number of a cell, or -1 for an obstacle or outside the map."""
        return lib.nb_map_terrain(self._h(), x, y)

    def char(self, x, y):
        """The map character of a cell ('' outside the map)."""
        c = lib.nb_map_char(self._h(), x, y)
        return "" if c == b"\0" else c.decode("latin-1")

    def map_view(self):
        """The map's characters, row by row, as a read-only memoryview: cell
        (x, y) is byte y * width + x; a height x width numpy uint8 array with
        map_array().  A version 1 map's own bytes (no copy); a packed map
        (version 2, formats/bundle.md: 1, 2, 4 or 8 bits a cell through a
        palette of its characters) unpacked into new bytes."""
        i = self.section_lookup(SectionType.MAP)
        view = self.payload(i)
        n = self.width * self.height
        if self.section(i).version == 1:
            return view[8:8 + n]
        bits = int.from_bytes(view[8:12], "little")
        palette, per = bytes(view[16:16 + 256]), 8 // bits
        mask = (1 << bits) - 1
        # Each byte's cells, as characters, once for the 256 bytes.
        table = [bytes(palette[b >> (j * bits) & mask] for j in range(per)) for b in range(256)]
        cells = b"".join(table[b] for b in view[272:272 + (n * bits + 7) // 8])[:n]
        return memoryview(cells).toreadonly()

    def map_array(self):
        import numpy
        return numpy.frombuffer(self.map_view(), dtype=numpy.uint8).reshape(
            self.height, self.width)

    # -- clearance and reachability ---------------------------------------------
    def clearance(self, cap, x, y):
        """cv((x, y), cap) capped at the layer's cap; -1 without a layer for cap."""
        return lib.nb_clearance(self._h(), self.capability(cap), x, y)

    def clearance_cap(self, cap):
        return lib.nb_clearance_cap(self._h(), self.capability(cap))

    def can_stand(self, cap, size, x, y):
        """1, 0, or -1 when the bundle cannot tell (nb_can_stand)."""
        return lib.nb_can_stand(self._h(), self.capability(cap), size, x, y)

    def reachable(self, cap, size, start, goal):
        """1 when a path joins the cells, 0 when not, -1 without a component layer."""
        return lib.nb_reachable(self._h(), self.capability(cap), size, T.Cell(*start),
                                T.Cell(*goal))

    def component(self, cap, size, x, y):
        return lib.nb_component(self._h(), self.capability(cap), size, x, y)

    def clearance_layer(self, cap):
        """The clearance layer of a capability, in place (Layer)."""
        i = self.section_lookup(SectionType.CLEARANCE, None, (self.capability(cap),))
        return Layer(self, self.section(i), self.payload(i))

    def component_layer(self, cap, size):
        """The component layer of (capability, size), in place (Layer)."""
        i = self.section_lookup(SectionType.COMPONENTS, None, (self.capability(cap), size))
        return Layer(self, self.section(i), self.payload(i))

    # -- handles made from the bundle ----------------------------------------------
    def overlay(self):
        """An empty Overlay for this bundle's map."""
        from .overlay import Overlay
        return Overlay(self)

    def aa(self):
        """An Annotated A* workspace (AA)."""
        from .grid import AA
        return AA(self)

    def haa(self):
        """An HAA* workspace (HAA)."""
        from .grid import HAA
        return HAA(self)

    def sg(self):
        """An optimal-layer workspace (SG): needs mkclear --optimal."""
        from .grid import SG
        return SG(self)

    def place(self):
        """A Place: nearest cells, lines, random cells."""
        from .place import Place
        return Place(self)

    def model(self, name):
        """The motion model called name (Model)."""
        from .motion import Model
        return Model(self, name)

    def planner(self, unit):
        """A Planner for the unit called unit."""
        from .planner import Planner
        return Planner(self, unit)

    @property
    def units(self):
        """The bundle's units (Unit records)."""
        from .planner import units_of
        return units_of(self)

    def forest(self):
        """The bundle's Forest (NotFoundError when it has none)."""
        from .forest import Forest
        return Forest.of_bundle(self)


def status_str(status):
    """nb_status_str: a short description of a status."""
    return text(lib.nb_status_str(int(status)))


def sqlite_supported():
    """True when this library opens SQLite bundles."""
    return bool(lib.nb_sqlite_supported())


def version():
    """The library's version string."""
    return text(lib.nb_version())
