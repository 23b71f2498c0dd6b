"""Positions, segments and curves: the value functions of navbake.h.

Segment, Pose, Curve, Frame, Cell, Vec2 and Circle are the C structs
themselves (ctypes), so a list of segments from a result passes back to the
library as it is.
"""
import ctypes as C

from . import _types as T
from ._lib import lib

Segment, Pose, Curve, Frame, Cell, Vec2, Circle = (T.Segment, T.Pose, T.Curve, T.Frame, T.Cell,
                                                    T.Vec2, T.Circle)
SEG_LINE, SEG_ARC = 0, 1


def pose(p):
    return p if isinstance(p, T.Pose) else T.Pose(*p)


def segments_array(segs):
    """A ctypes array of nb_segment from a sequence of Segments."""
    segs = list(segs)
    return (T.Segment * max(1, len(segs)))(*segs), len(segs)


def frame(origin_x=0.0, origin_y=0.0, cell=1.0, y_up=False):
    """An nb_frame; frame() is the grid's own (nb_frame_init)."""
    f = T.Frame()
    lib.nb_frame_init(C.byref(f))
    f.origin_x, f.origin_y, f.cell, f.y_up = origin_x, origin_y, cell, 1 if y_up else 0
    return f


def anchor_of_centre(centre, size, frame=None):
    """The anchor cell (x, y) of an agent of this size centred at centre (world units)."""
    c = lib.nb_anchor_of_centre(C.byref(frame) if frame else None, T.Vec2(*centre), size)
    return (c.x, c.y)


def centre_of_anchor(anchor, size, frame=None):
    v = lib.nb_centre_of_anchor(C.byref(frame) if frame else None, T.Cell(*anchor), size)
    return (v.x, v.y)


def segment_line(x0, y0, x1, y1):
    return lib.nb_segment_line(x0, y0, x1, y1)


def segment_arc(cx, cy, radius, start_angle, sweep):
    return lib.nb_segment_arc(cx, cy, radius, start_angle, sweep)


def segment_angles(seg):
    """(from, sweep) of an arc; (heading, 0) of a line."""
    a, s = C.c_double(), C.c_double()
    lib.nb_segment_angles(C.byref(seg), C.byref(a), C.byref(s))
    return a.value, s.value


def segment_sample(seg, at):
    p = T.Pose()
    lib.nb_segment_sample(C.byref(seg), at, C.byref(p))
    return (p.x, p.y, p.heading)


def segments_sample(segs, at):
    """(x, y, heading) at distance at along a path of segments."""
    arr, n = segments_array(segs)
    p = T.Pose()
    lib.nb_segments_sample(arr, n, at, C.byref(p))
    return (p.x, p.y, p.heading)


def segments_length(segs):
    arr, n = segments_array(segs)
    return lib.nb_segments_length(arr, n)


def curve_to_point(start, radius, x, y):
    """Every curve from a pose to a point, shortest first (a list of Curve)."""
    out = (T.Curve * T.NB_CURVE_MAX_CANDIDATES)()
    n = lib.nb_curve_to_point(C.byref(pose(start)), radius, x, y, out)
    return [T.Curve.from_buffer_copy(out[i]) for i in range(n)]


def curve_to_pose(start, goal, radius):
    """Every Dubins curve between two poses, shortest first."""
    out = (T.Curve * T.NB_CURVE_MAX_CANDIDATES)()
    n = lib.nb_curve_to_pose(C.byref(pose(start)), C.byref(pose(goal)), radius, out)
    return [T.Curve.from_buffer_copy(out[i]) for i in range(n)]


def curve_set_reverse(curve):
    """Turns a curve into the same movement driven in reverse (in place)."""
    lib.nb_curve_set_reverse(C.byref(curve))
    return curve


def curve_sample(curve, at):
    p = T.Pose()
    lib.nb_curve_sample(C.byref(curve), at, C.byref(p))
    return (p.x, p.y, p.heading)


def curve_word(curve):
    return curve.word.decode()


def curve_segments(curve):
    return [curve.seg[i] for i in range(curve.count)]
