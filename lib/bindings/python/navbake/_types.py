"""The C structs of navbake.h, declared for ctypes.

Each class mirrors its C struct field by field, in the header's order.  The
ABI guard (nb_abi_check) compares their sizes with the library's when the
package is imported, so a header that grew a field is refused there, naming
the struct, rather than read or written past its end.
"""
import ctypes as C

# enums are C ints; nb_capability is uint32_t
_enum = C.c_int
_cap = C.c_uint32

NB_ERR_MSG_MAX = 512
NB_NAME_MAX = 31
NB_SECTION_PARAMS = 8
NB_MAX_TERRAINS = 32
NB_CURVE_MAX_SEGMENTS = 4
NB_CURVE_MAX_CANDIDATES = 8


class Err(C.Structure):
    _fields_ = [("code", _enum), ("msg", C.c_char * NB_ERR_MSG_MAX)]


class Allocator(C.Structure):
    _fields_ = [("alloc", C.c_void_p), ("realloc", C.c_void_p), ("free", C.c_void_p),
                ("opaque", C.c_void_p)]


class SectionInfo(C.Structure):
    _fields_ = [("type", C.c_uint32), ("version", C.c_uint16), ("encoding", C.c_uint16),
                ("offset", C.c_uint64), ("size", C.c_uint64), ("usize", C.c_uint64),
                ("crc", C.c_uint32), ("flags", C.c_uint32),
                ("param", C.c_uint32 * NB_SECTION_PARAMS), ("name", C.c_char * (NB_NAME_MAX + 1))]


class Agent(C.Structure):
    _fields_ = [("name", C.c_char * (NB_NAME_MAX + 1)), ("size", C.c_uint32),
                ("capability", _cap), ("weighted", C.c_int),
                ("cost", C.c_double * NB_MAX_TERRAINS)]


class Cell(C.Structure):
    _fields_ = [("x", C.c_int32), ("y", C.c_int32)]


class Vec2(C.Structure):
    _fields_ = [("x", C.c_double), ("y", C.c_double)]


class Frame(C.Structure):
    _fields_ = [("origin_x", C.c_double), ("origin_y", C.c_double), ("cell", C.c_double),
                ("y_up", C.c_int)]


class AAQuery(C.Structure):
    _fields_ = [("start", Cell), ("goal", Cell), ("size", C.c_uint32), ("capability", _cap),
                ("corner", _enum), ("max_expansions", C.c_uint64),
                ("costs", C.POINTER(C.c_double)), ("overlay", C.c_void_p), ("partial", C.c_int)]


class AAResult(C.Structure):
    _fields_ = [("status", _enum), ("length", C.c_double), ("cost", C.c_double),
                ("expanded", C.c_uint64), ("searched", C.c_int), ("path_len", C.c_size_t),
                ("path", C.POINTER(Cell))]


class SGQuery(C.Structure):
    _fields_ = AAQuery._fields_


class SGResult(C.Structure):
    _fields_ = [("status", _enum), ("length", C.c_double), ("expanded", C.c_uint64),
                ("scanned", C.c_uint64), ("searched", C.c_int), ("path_len", C.c_size_t),
                ("path", C.POINTER(Cell)), ("waypoint_len", C.c_size_t),
                ("waypoints", C.POINTER(Cell)), ("fallback", C.c_int),
                ("cost", C.c_double)]


class HAAQuery(C.Structure):
    _fields_ = [("start", Cell), ("goal", Cell), ("size", C.c_uint32), ("capability", _cap),
                ("corner", _enum), ("max_expansions", C.c_uint64),
                ("costs", C.POINTER(C.c_double)), ("overlay", C.c_void_p), ("flags", C.c_uint),
                ("partial", C.c_int)]


class HAAResult(C.Structure):
    _fields_ = [("status", _enum), ("length", C.c_double), ("cost", C.c_double),
                ("cell_length", C.c_double), ("abstract_length", C.c_double),
                ("expanded", C.c_uint64), ("expanded_insert", C.c_uint64),
                ("expanded_search", C.c_uint64), ("expanded_refine", C.c_uint64),
                ("searched", C.c_int), ("abstract_len", C.c_size_t), ("path_len", C.c_size_t),
                ("path", C.POINTER(Cell)), ("level", C.c_uint)]


class HAAGraph(C.Structure):
    _fields_ = [("cluster", C.c_uint32), ("quality", C.c_char_p), ("placement", C.c_char_p),
                ("nodes", C.c_uint32), ("edges", C.c_uint32), ("inter_edges", C.c_uint32),
                ("paths", C.c_int), ("bytes", C.c_size_t), ("levels", C.c_uint),
                ("level_factor", C.c_uint)]


class MotionState(C.Structure):
    _fields_ = [("x", C.c_int32), ("y", C.c_int32), ("heading", C.c_uint16),
                ("speed", C.c_uint16)]


class MotionQuery(C.Structure):
    _fields_ = [("start", MotionState), ("goal", MotionState), ("heuristic", _enum),
                ("weight", C.c_double), ("truncate", C.c_uint), ("max_expansions", C.c_uint64),
                ("overlay", C.c_void_p), ("reopen", C.c_int), ("waypoint_heading", C.c_int),
                ("heading_classes", C.c_uint), ("abstraction", _enum)]


class MotionResult(C.Structure):
    _fields_ = [("status", _enum), ("cost", C.c_double), ("h_start", C.c_double),
                ("expanded", C.c_uint64), ("generated", C.c_uint64), ("reopened", C.c_uint64),
                ("grid_expanded", C.c_uint64), ("path_len", C.c_size_t),
                ("path", C.POINTER(MotionState)), ("end", MotionState)]


class Pose(C.Structure):
    _fields_ = [("x", C.c_double), ("y", C.c_double), ("heading", C.c_double)]


class Segment(C.Structure):
    _fields_ = [("kind", _enum), ("turn", C.c_int), ("gear", C.c_int), ("x", C.c_double),
                ("y", C.c_double), ("heading", C.c_double), ("length", C.c_double),
                ("cx", C.c_double), ("cy", C.c_double), ("radius", C.c_double)]


class Curve(C.Structure):
    _fields_ = [("length", C.c_double), ("count", C.c_uint), ("word", C.c_char * 4),
                ("variant", C.c_uint), ("seg", Segment * NB_CURVE_MAX_SEGMENTS)]


class Unit(C.Structure):
    _fields_ = [("name", C.c_char * (NB_NAME_MAX + 1)), ("radius", C.c_double),
                ("width", C.c_double), ("headings", C.c_uint), ("neighbourhood", C.c_uint),
                ("reverse", C.c_int), ("reverse_penalty", C.c_double), ("capability", _cap)]


class PlannerQuery(C.Structure):
    _fields_ = [("start", Pose), ("goal", Cell), ("goal_heading", C.c_int), ("method", _enum),
                ("neighbourhood", C.c_uint), ("flags", C.c_uint),
                ("max_expansions", C.c_uint64), ("window", C.c_uint), ("overlay", C.c_void_p)]


class PlannerResult(C.Structure):
    _fields_ = [("status", _enum), ("reason", C.c_char_p), ("length", C.c_double),
                ("cost", C.c_double), ("segment_len", C.c_size_t),
                ("segments", C.POINTER(Segment)), ("waypoint_len", C.c_size_t),
                ("waypoints", C.POINTER(Pose)), ("expanded", C.c_uint64),
                ("generated", C.c_uint64), ("fallback", C.c_int)]


class Circle(C.Structure):
    _fields_ = [("x", C.c_double), ("y", C.c_double), ("r", C.c_double)]


class ForestGraphInfo(C.Structure):
    _fields_ = [("agent_radius", C.c_double), ("nodes", C.c_uint32),
                ("transitions", C.c_uint32), ("candidates", C.c_uint32), ("arcs", C.c_uint64),
                ("free_arcs", C.c_uint32)]


class ForestQuery(C.Structure):
    _fields_ = [("start", Vec2), ("goal", Vec2), ("agent_radius", C.c_double),
                ("flags", C.c_uint), ("max_expansions", C.c_uint64)]


class ForestResult(C.Structure):
    _fields_ = [("status", _enum), ("blocked_by", C.c_long), ("start", Vec2), ("goal", Vec2),
                ("length", C.c_double), ("segment_len", C.c_size_t),
                ("segments", C.POINTER(Segment)), ("expanded", C.c_uint64),
                ("generated", C.c_uint64), ("pruned", C.c_uint64), ("los_tests", C.c_uint64),
                ("circles_opened", C.c_uint64)]


class NearestQuery(C.Structure):
    _fields_ = [("point", Cell), ("radius", C.c_double), ("reachable", C.c_int),
                ("start", Cell), ("size", C.c_uint32), ("capability", _cap),
                ("max_expansions", C.c_uint64), ("overlay", C.c_void_p)]


class NearestResult(C.Structure):
    _fields_ = [("status", _enum), ("cell", Cell), ("distance", C.c_double),
                ("examined", C.c_uint64), ("expanded", C.c_uint64)]


class LineQuery(C.Structure):
    _fields_ = [("start", Vec2), ("goal", Vec2), ("size", C.c_uint32), ("capability", _cap),
                ("max_expansions", C.c_uint64), ("overlay", C.c_void_p)]


class LineResult(C.Structure):
    _fields_ = [("status", _enum), ("t", C.c_double), ("last", Vec2), ("blocking", Cell),
                ("examined", C.c_uint64)]


class RandomQuery(C.Structure):
    _fields_ = [("reachable", C.c_int), ("start", Cell), ("seed", C.c_uint64),
                ("size", C.c_uint32), ("capability", _cap), ("max_expansions", C.c_uint64),
                ("overlay", C.c_void_p)]


class RandomResult(C.Structure):
    _fields_ = [("status", _enum), ("cell", Cell), ("component", C.c_uint32),
                ("cells", C.c_uint64), ("state", C.c_uint64), ("draws", C.c_uint64),
                ("expanded", C.c_uint64)]


class WorldTile(C.Structure):
    _fields_ = [("column", C.c_uint32), ("row", C.c_uint32)]


class WorldInfo(C.Structure):
    _fields_ = [("width", C.c_uint32), ("height", C.c_uint32), ("tile", C.c_uint32),
                ("cluster", C.c_uint32), ("halo", C.c_uint32), ("columns", C.c_uint32),
                ("rows", C.c_uint32), ("loaded", C.c_uint32), ("retired", C.c_uint64)]


# nb_world_loader and nb_world_release (a NULL one: the type called with None).
WorldLoader = C.CFUNCTYPE(C.c_int, C.c_void_p, WorldTile, C.POINTER(C.c_void_p),
                          C.POINTER(C.c_void_p), C.POINTER(C.c_size_t), C.POINTER(Err))
WorldRelease = C.CFUNCTYPE(None, C.c_void_p, WorldTile, C.c_void_p)


class Abi(C.Structure):
    _fields_ = [("major", C.c_uint32), ("minor", C.c_uint32), ("count", C.c_uint32),
                ("sizes", C.POINTER(C.c_uint32))]


# navbake.h's NB_ABI_STRUCTS, in its order (entries are only ever added at
# the end): the C name and this module's class of each.
ABI_STRUCTS = [
    ("nb_err", Err), ("nb_allocator", Allocator), ("nb_section_info", SectionInfo),
    ("nb_agent", Agent), ("nb_cell", Cell), ("nb_vec2", Vec2), ("nb_frame", Frame),
    ("nb_aa_query", AAQuery), ("nb_aa_result", AAResult), ("nb_sg_query", SGQuery),
    ("nb_sg_result", SGResult), ("nb_haa_query", HAAQuery), ("nb_haa_result", HAAResult),
    ("nb_haa_graph", HAAGraph), ("nb_motion_state", MotionState),
    ("nb_motion_query", MotionQuery), ("nb_motion_result", MotionResult), ("nb_pose", Pose),
    ("nb_segment", Segment), ("nb_curve", Curve), ("nb_unit", Unit),
    ("nb_planner_query", PlannerQuery), ("nb_planner_result", PlannerResult),
    ("nb_circle", Circle), ("nb_forest_graph_info", ForestGraphInfo),
    ("nb_forest_query", ForestQuery), ("nb_forest_result", ForestResult),
    ("nb_nearest_query", NearestQuery), ("nb_nearest_result", NearestResult),
    ("nb_line_query", LineQuery), ("nb_line_result", LineResult),
    ("nb_random_query", RandomQuery), ("nb_random_result", RandomResult),
    ("nb_world_tile", WorldTile), ("nb_world_info", WorldInfo),
]

# The version of navbake.h these declarations follow.
VERSION_MAJOR = 1
VERSION_MINOR = 0

_sizes = (C.c_uint32 * len(ABI_STRUCTS))(*[C.sizeof(cls) for _, cls in ABI_STRUCTS])
ABI = Abi(VERSION_MAJOR, VERSION_MINOR, len(ABI_STRUCTS),
          C.cast(_sizes, C.POINTER(C.c_uint32)))
ABI_P = C.pointer(ABI)
