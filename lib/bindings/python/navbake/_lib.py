"""Finding libnavbake and declaring its functions for ctypes.

The library is looked for, in order: the file or directory named by the
NAVBAKE_LIB environment variable; the build tree this package sits in
(lib/.libs/ beside lib/bindings/python/); the libdir that `make install`
wrote into _installed.py (relative to the package first, so that a moved
tree works); and the system's search (ctypes.util.find_library).

PROTOTYPES declares every function of navbake.h: the binding's modules call
them through `lib`, and tests/test_coverage.py checks the table against the
header.
"""
import ctypes as C
import ctypes.util
import os

from . import _types as T
from . import _installed

_P = C.c_void_p                       # an opaque handle (nb_bundle *, nb_aa *...)
_S = C.c_int                          # nb_status and the other enums
_E = C.POINTER(T.Err)
_STR = C.c_char_p
_SZ = C.c_size_t
_U = C.c_uint
_U32 = C.c_uint32
_U64 = C.c_uint64
_L = C.c_long
_D = C.c_double
_DONE = C.POINTER(C.c_int)
_ABI = C.POINTER(T.Abi)
_PSZ = C.POINTER(C.c_size_t)
_PD = C.POINTER(C.c_double)
_PCELL = C.POINTER(T.Cell)
_PSEG = C.POINTER(T.Segment)
_PPOSE = C.POINTER(T.Pose)
_PSTATE = C.POINTER(T.MotionState)
_PCURVE = C.POINTER(T.Curve)

# nb_motion_route_find's callback: void (*)(void *ctx, const nb_motion_result *)
SEGMENT_FN = C.CFUNCTYPE(None, C.c_void_p, C.POINTER(T.MotionResult))


def _family(fam, ws, query, result):
    """The functions every search family has: begin, step, finish, find."""
    return {
        "nb_%s_find" % fam: (_S, [ws, C.POINTER(query), C.POINTER(result), _E]),
        "nb_%s_begin" % fam: (_S, [ws, C.POINTER(query), _E]),
        "nb_%s_step" % fam: (_S, [ws, _U64, _DONE, _E]),
        "nb_%s_finish" % fam: (_S, [ws, C.POINTER(result), _E]),
        "nb_%s_query_init_abi" % fam: (_S, [C.POINTER(query), _ABI]),
    }


def _workspace(fam, opener=None):
    """open, close, set_max_nodes and bytes of a workspace on a bundle."""
    return {
        "nb_%s_open" % fam: (_S, opener or [_P, C.POINTER(_P), _E]),
        "nb_%s_close" % fam: (None, [_P]),
        "nb_%s_set_max_nodes" % fam: (None, [_P, _U64]),
        "nb_%s_bytes" % fam: (_SZ, [_P]),
    }


PROTOTYPES = {
    # status, version, ABI guard
    "nb_status_str": (_STR, [_S]),
    "nb_version": (_STR, []),
    "nb_abi_check": (_S, [_ABI, _E]),
    "nb_abi_size": (_U32, [_U]),
    "nb_abi_name": (_STR, [_U]),
    # bundles
    "nb_bundle_open_abi": (_S, [_STR, _U, C.POINTER(T.Allocator), C.POINTER(_P), _E, _ABI]),
    "nb_bundle_open_memory_abi": (_S, [C.c_void_p, _SZ, _U, C.POINTER(T.Allocator),
                                       C.POINTER(_P), _E, _ABI]),
    "nb_bundle_close": (None, [_P]),
    "nb_bundle_verify": (_S, [_P, _E]),
    "nb_bundle_format_version": (None, [_P, C.POINTER(_U), C.POINTER(_U)]),
    "nb_bundle_file_size": (_U64, [_P]),
    "nb_bundle_section_count": (_SZ, [_P]),
    "nb_bundle_section_get": (C.POINTER(T.SectionInfo), [_P, _SZ]),
    "nb_bundle_section_lookup": (_S, [_P, _U32, _STR, C.POINTER(_U32), _SZ, _PSZ, _E]),
    "nb_bundle_payload": (_S, [_P, _SZ, C.POINTER(C.c_void_p), _PSZ, _E]),
    "nb_section_type_name": (_STR, [_U32]),
    "nb_section_type_parse": (_S, [_STR, C.POINTER(_U32), _E]),
    "nb_section_param_name": (_STR, [_U32, _U]),
    "nb_section_param": (_U32, [C.POINTER(T.SectionInfo), _U]),
    "nb_encoding_name": (_STR, [C.c_uint16]),
    "nb_bundle_form_of": (_S, [_P]),
    "nb_sqlite_supported": (C.c_int, []),
    # the level
    "nb_terrain_count": (_U, [_P]),
    "nb_terrain_name": (_STR, [_P, _U]),
    "nb_terrain_chars": (_STR, [_P, _U]),
    "nb_obstacle_chars": (_STR, [_P]),
    "nb_capability_parse": (_S, [_P, _STR, C.POINTER(_U32), _E]),
    "nb_capability_format": (_SZ, [_P, _U32, C.c_char_p, _SZ]),
    "nb_agent_count": (_SZ, [_P]),
    "nb_agent_get": (C.POINTER(T.Agent), [_P, _SZ]),
    "nb_agent_lookup": (_S, [_P, _STR, _PSZ, _E]),
    "nb_has_map": (C.c_int, [_P]),
    "nb_map_width": (_U32, [_P]),
    "nb_map_height": (_U32, [_P]),
    "nb_map_terrain": (C.c_int, [_P, _L, _L]),
    "nb_map_char": (C.c_char, [_P, _L, _L]),
    # clearance, positions
    "nb_frame_init": (None, [C.POINTER(T.Frame)]),
    "nb_anchor_of_centre": (T.Cell, [C.POINTER(T.Frame), T.Vec2, _U]),
    "nb_centre_of_anchor": (T.Vec2, [C.POINTER(T.Frame), T.Cell, _U]),
    "nb_clearance": (C.c_int, [_P, _U32, _L, _L]),
    "nb_clearance_cap": (C.c_int, [_P, _U32]),
    "nb_can_stand": (C.c_int, [_P, _U32, _U, _L, _L]),
    "nb_reachable": (C.c_int, [_P, _U32, _U, T.Cell, T.Cell]),
    "nb_component": (_L, [_P, _U32, _U, _L, _L]),
    # overlays
    "nb_overlay_open": (_S, [_P, C.POINTER(_P), _E]),
    "nb_overlay_close": (None, [_P]),
    "nb_overlay_clone": (_S, [_P, C.POINTER(_P), _E]),
    "nb_overlay_block": (_S, [_P, _L, _L, _L, _L, _E]),
    "nb_overlay_unblock": (_S, [_P, _L, _L, _L, _L, _E]),
    "nb_overlay_block_cells": (_S, [_P, _PCELL, _SZ, _E]),
    "nb_overlay_unblock_cells": (_S, [_P, _PCELL, _SZ, _E]),
    "nb_overlay_clear": (None, [_P]),
    "nb_overlay_blocked": (C.c_int, [_P, _L, _L]),
    "nb_overlay_blocked_count": (_U64, [_P]),
    "nb_overlay_bytes": (_SZ, [_P]),
    "nb_overlay_can_stand": (C.c_int, [_P, _U32, _U, _L, _L]),
    "nb_overlay_reachable": (C.c_int, [_P, _U32, _U, T.Cell, T.Cell]),
    "nb_path_status_str": (_STR, [_S]),
    # the grid families' agent helpers
    "nb_aa_query_agent": (None, [C.POINTER(T.AAQuery), C.POINTER(T.Agent)]),
    "nb_sg_query_agent": (None, [C.POINTER(T.SGQuery), C.POINTER(T.Agent)]),
    "nb_haa_query_agent": (None, [C.POINTER(T.HAAQuery), C.POINTER(T.Agent)]),
    "nb_nearest_query_agent": (None, [C.POINTER(T.NearestQuery), C.POINTER(T.Agent)]),
    "nb_line_query_agent": (None, [C.POINTER(T.LineQuery), C.POINTER(T.Agent)]),
    "nb_random_query_agent": (None, [C.POINTER(T.RandomQuery), C.POINTER(T.Agent)]),
    # HAA*'s own
    "nb_haa_set_levels": (None, [_P, _U]),
    "nb_haa_reachable": (_S, [_P, C.POINTER(T.HAAQuery), C.POINTER(C.c_int), _E]),
    "nb_haa_describe": (None, [_P, C.POINTER(T.HAAGraph)]),
    # motion models, perimeter tables, motion search
    "nb_model_open": (_S, [_P, _STR, C.POINTER(_P), _E]),
    "nb_model_close": (None, [_P]),
    "nb_model_name": (_STR, [_P]),
    "nb_model_headings": (_U, [_P]),
    "nb_model_speeds": (_U, [_P]),
    "nb_model_stop": (_U, [_P]),
    "nb_model_speed": (_D, [_P, _U]),
    "nb_model_speed_name": (_STR, [_P, _U]),
    "nb_model_speed_lookup": (_S, [_P, _STR, _PSZ, _E]),
    "nb_model_turn": (_U, [_P, _U]),
    "nb_model_speed_change": (_U, [_P]),
    "nb_model_offset": (None, [_P, _U, C.POINTER(C.c_int), C.POINTER(C.c_int)]),
    "nb_model_top_speed": (_D, [_P]),
    "nb_model_still_cost": (_D, [_P]),
    "nb_model_turn_cost": (_D, [_P]),
    "nb_model_extended_weight": (_D, [_P]),
    "nb_model_sweep": (_U, [_P, _U, C.POINTER(C.POINTER(C.c_int8))]),
    "nb_perimeter_open": (_S, [_P, _P, C.POINTER(_P), _E]),
    "nb_perimeter_close": (None, [_P]),
    "nb_perimeter_radius": (_U, [_P]),
    "nb_perimeter_layout_of": (_S, [_P]),
    "nb_perimeter_layout_name": (_STR, [_S]),
    "nb_perimeter_lookup": (C.c_int, [_P, _PSTATE, _PSTATE, _PD]),
    "nb_perimeter_extended": (C.c_int, [_P, _PSTATE, _PSTATE, _PD]),
    "nb_motion_heuristic_name": (_STR, [_S]),
    "nb_motion_heuristic_parse": (_S, [_STR, C.POINTER(_S), _E]),
    "nb_motion_standable": (C.c_int, [_P, _L, _L]),
    "nb_motion_action": (C.c_int, [_P, _PSTATE, C.c_int, _U, _PSTATE, _PD]),
    "nb_route_abstraction_name": (_STR, [_S]),
    "nb_route_abstraction_parse": (_S, [_STR, C.POINTER(_S), _E]),
    "nb_motion_use_sectors": (_S, [_P, _U, _E]),
    "nb_motion_use_haa": (_S, [_P, _E]),
    "nb_motion_route_find": (_S, [_P, C.POINTER(T.MotionQuery), _U, SEGMENT_FN, C.c_void_p,
                                  C.POINTER(T.MotionResult), _PSZ, _E]),
    # geometry
    "nb_segment_line": (T.Segment, [_D, _D, _D, _D]),
    "nb_segment_arc": (T.Segment, [_D, _D, _D, _D, _D]),
    "nb_segment_angles": (None, [_PSEG, _PD, _PD]),
    "nb_segment_sample": (None, [_PSEG, _D, _PPOSE]),
    "nb_segments_sample": (_D, [_PSEG, _SZ, _D, _PPOSE]),
    "nb_segments_length": (_D, [_PSEG, _SZ]),
    "nb_curve_to_point": (_SZ, [_PPOSE, _D, _D, _D, _PCURVE]),
    "nb_curve_to_pose": (_SZ, [_PPOSE, _PPOSE, _D, _PCURVE]),
    "nb_curve_set_reverse": (None, [_PCURVE]),
    "nb_curve_sample": (None, [_PCURVE, _D, _PPOSE]),
    # units and the planner
    "nb_unit_count": (_SZ, [_P]),
    "nb_unit_get": (_S, [_P, _SZ, C.POINTER(T.Unit), _E]),
    "nb_unit_lookup": (_S, [_P, _STR, _PSZ, _E]),
    "nb_planner_unit": (C.POINTER(T.Unit), [_P]),
    "nb_planner_walkable": (C.c_int, [_P, _PSEG, _SZ]),
    "nb_planner_blocked": (C.c_int, [_P, _L, _L]),
    # forests
    "nb_forest_open": (_S, [_P, C.POINTER(_P), _E]),
    "nb_forest_open_circles_abi": (_S, [C.POINTER(T.Circle), _SZ, _PD, C.POINTER(T.Allocator),
                                        C.POINTER(_P), _E, _ABI]),
    "nb_forest_close": (None, [_P]),
    "nb_forest_circle_count": (_SZ, [_P]),
    "nb_forest_circle_get": (C.POINTER(T.Circle), [_P, _SZ]),
    "nb_forest_bounds": (C.c_int, [_P, _PD]),
    "nb_forest_set_circle": (_S, [_P, _SZ, T.Circle, _E]),
    "nb_forest_add_circle": (_S, [_P, T.Circle, _E]),
    "nb_forest_remove_circle": (_S, [_P, _SZ, _E]),
    "nb_forest_radius_count": (_U, [_P]),
    "nb_forest_radius_get": (_D, [_P, _U]),
    "nb_forest_radius_lookup": (_S, [_P, _D, _PSZ, _E]),
    "nb_forest_graph": (_S, [_P, _U, C.POINTER(T.ForestGraphInfo), _E]),
    "nb_forest_ws_open": (_S, [_P, C.POINTER(_P), _E]),
    "nb_forest_ws_close": (None, [_P]),
    "nb_forest_ws_set_max_nodes": (None, [_P, _U64]),
    "nb_forest_ws_bytes": (_SZ, [_P]),
    # places
    "nb_place_open": (_S, [_P, C.POINTER(_P), _E]),
    "nb_place_close": (None, [_P]),
    "nb_place_bytes": (_SZ, [_P]),
    # The world handle (issue 31): stream.py.
    "nb_world_open_abi": (_S, [_STR, _STR, _U, C.POINTER(T.Allocator), C.POINTER(_P), _E, _ABI]),
    "nb_world_close": (None, [_P]),
    "nb_world_bundle": (_P, [_P]),
    "nb_world_describe": (None, [_P, C.POINTER(T.WorldInfo)]),
    "nb_world_set_loader": (None, [_P, T.WorldLoader, T.WorldRelease, C.c_void_p]),
    "nb_world_load": (_S, [_P, T.WorldTile, _E]),
    "nb_world_unload": (_S, [_P, T.WorldTile, _E]),
    "nb_world_load_cells": (_S, [_P, _L, _L, _L, _L, _E]),
    "nb_world_unload_cells": (_S, [_P, _L, _L, _L, _L, _E]),
    "nb_world_loaded": (C.c_int, [_P, T.WorldTile]),
    "nb_world_reachable": (_S, [_P, _U32, _U, T.Cell, T.Cell, C.POINTER(C.c_int),
                                C.POINTER(T.WorldTile), _SZ, C.POINTER(_SZ), _E]),
    "nb_world_bytes": (_SZ, [_P]),
    "nb_world_overlay_open": (_S, [_P, C.POINTER(_P), _E]),
    "nb_world_overlay_close": (None, [_P]),
    "nb_world_overlay_block": (_S, [_P, _L, _L, _L, _L, _E]),
    "nb_world_overlay_unblock": (_S, [_P, _L, _L, _L, _L, _E]),
    "nb_world_overlay_blocked": (C.c_int, [_P, _L, _L]),
    "nb_world_aa_open": (_S, [_P, C.POINTER(_P), _E]),
    "nb_world_aa_close": (None, [_P]),
    "nb_world_aa_bytes": (_SZ, [_P]),
    "nb_world_aa_set_max_nodes": (None, [_P, _U64]),
    "nb_world_aa_find": (_S, [_P, C.POINTER(T.AAQuery), _P, C.POINTER(T.AAResult), _E]),
    "nb_world_aa_needed": (_SZ, [_P, C.POINTER(T.WorldTile), _SZ]),
    "nb_world_aa_begin": (_S, [_P, C.POINTER(T.AAQuery), _P, _E]),
    "nb_world_aa_step": (_S, [_P, _U64, C.POINTER(C.c_int), _E]),
    "nb_world_aa_finish": (_S, [_P, C.POINTER(T.AAResult), _E]),
    "nb_world_nearest_find": (_S, [_P, C.POINTER(T.NearestQuery), _P,
                                   C.POINTER(T.NearestResult), _E]),
    "nb_world_line_find": (_S, [_P, C.POINTER(T.LineQuery), _P, C.POINTER(T.LineResult), _E]),
    "nb_world_random_find": (_S, [_P, C.POINTER(T.RandomQuery), _P, _L, _L, _L, _L,
                                  C.POINTER(T.RandomResult), _E]),
    "nb_world_haa_open": (_S, [_P, C.POINTER(_P), _E]),
    "nb_world_haa_close": (None, [_P]),
    "nb_world_haa_bytes": (_SZ, [_P]),
    "nb_world_haa_find": (_S, [_P, C.POINTER(T.HAAQuery), _P, C.POINTER(T.HAAResult), _E]),
    "nb_world_haa_needed": (_SZ, [_P, C.POINTER(T.WorldTile), _SZ]),
    "nb_world_haa_begin": (_S, [_P, C.POINTER(T.HAAQuery), _P, _E]),
    "nb_world_haa_step": (_S, [_P, _U64, C.POINTER(C.c_int), _E]),
    "nb_world_haa_finish": (_S, [_P, C.POINTER(T.HAAResult), _E]),
    "nb_world_sg_open": (_S, [_P, C.POINTER(_P), _E]),
    "nb_world_sg_close": (None, [_P]),
    "nb_world_sg_bytes": (_SZ, [_P]),
    "nb_world_sg_find": (_S, [_P, C.POINTER(T.SGQuery), _P, C.POINTER(T.SGResult), _E]),
    "nb_world_sg_needed": (_SZ, [_P, C.POINTER(T.WorldTile), _SZ]),
    "nb_world_sg_begin": (_S, [_P, C.POINTER(T.SGQuery), _P, _E]),
    "nb_world_sg_step": (_S, [_P, _U64, C.POINTER(C.c_int), _E]),
    "nb_world_sg_finish": (_S, [_P, C.POINTER(T.SGResult), _E]),
    "nb_world_resident": (_SZ, [_P]),
    "nb_world_trim": (_SZ, [_P]),
    "nb_world_set_budget": (None, [_P, C.c_size_t]),
}
PROTOTYPES.update(_workspace("aa"))
PROTOTYPES.update(_workspace("sg"))
PROTOTYPES.update(_workspace("haa"))
PROTOTYPES.update(_workspace("motion", [_P, _P, _P, _U32, _U, C.POINTER(_P), _E]))
PROTOTYPES.update(_workspace("planner", [_P, _STR, C.POINTER(_P), _E]))
PROTOTYPES.update(_family("aa", _P, T.AAQuery, T.AAResult))
PROTOTYPES.update(_family("sg", _P, T.SGQuery, T.SGResult))
PROTOTYPES.update(_family("haa", _P, T.HAAQuery, T.HAAResult))
PROTOTYPES.update(_family("motion", _P, T.MotionQuery, T.MotionResult))
PROTOTYPES.update(_family("planner", _P, T.PlannerQuery, T.PlannerResult))
PROTOTYPES.update(_family("forest", _P, T.ForestQuery, T.ForestResult))
PROTOTYPES.update(_family("nearest", _P, T.NearestQuery, T.NearestResult))
PROTOTYPES.update(_family("line", _P, T.LineQuery, T.LineResult))
PROTOTYPES.update(_family("random", _P, T.RandomQuery, T.RandomResult))

# Names of the shared library, by platform, the soname's first.
_NAMES = ("libnavbake.so.2", "libnavbake.so", "libnavbake-2.dll", "libnavbake.dll",
          "navbake.dll", "libnavbake.2.dylib", "libnavbake.dylib")


def _in_dir(d):
    for name in _NAMES:
        p = os.path.join(d, name)
        if os.path.isfile(p):
            return p
    return None


def candidates():
    """Where the library is looked for, in order: (how it was found, path)."""
    out = []
    env = os.environ.get("NAVBAKE_LIB")
    if env:
        out.append(("NAVBAKE_LIB", _in_dir(env) if os.path.isdir(env) else env))
    here = os.path.dirname(os.path.abspath(__file__))
    tree = os.path.normpath(os.path.join(here, "..", "..", "..", ".libs"))
    found = _in_dir(tree)
    if found:
        out.append(("build tree", found))
    for d in (_installed.LIBDIR_FROM_PACKAGE and os.path.join(here, _installed.LIBDIR_FROM_PACKAGE),
              _installed.LIBDIR):
        found = d and _in_dir(d)
        if found:
            out.append(("installed libdir", found))
            break
    system = ctypes.util.find_library("navbake")
    if system:
        out.append(("system", system))
    return out


def load():
    """The library, its functions declared; ImportError naming where it looked."""
    tried = []
    for how, path in candidates():
        if not path:
            tried.append("%s names no library file" % how)
            continue
        try:
            dll = C.CDLL(path)
        except OSError as e:
            tried.append("%s %s: %s" % (how, path, e))
            continue
        missing = [name for name in PROTOTYPES if not hasattr(dll, name)]
        if missing:
            tried.append("%s %s lacks %s" % (how, path, ", ".join(sorted(missing)[:5])))
            continue
        for name, (restype, argtypes) in PROTOTYPES.items():
            f = getattr(dll, name)
            f.restype = restype
            f.argtypes = argtypes
        return dll, path
    raise ImportError("navbake: libnavbake not found (set NAVBAKE_LIB to the library or its "
                      "directory): " + ("; ".join(tried) or "no candidate"))


lib, path = load()


def fast(name):
    """Another function pointer to name, without argtypes: ctypes then passes the
    arguments as they are, skipping a from_param per argument (about 3 us a
    call on the benchmark's machine).  For the hot calls alone (a family's
    find, begin and finish), whose callers pass ctypes objects of the right
    types: a handle's c_void_p and byref()s made once; the result is nb_status."""
    f = lib._FuncPtr((name, lib))
    f.restype = C.c_int
    return f
