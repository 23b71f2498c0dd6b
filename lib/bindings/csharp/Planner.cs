// Planner.cs: planning for a unit with a turning radius (Directional A*,
// smoothing, the hybrid search), and the geometry of its paths: segments
// and curves.
using System;

namespace Navbake
{
    public sealed class Planner : Workspace
    {
        PlannerResult last;
        public Planner(Bundle bundle, string unit) : base(Open(bundle, unit), WorkspaceKind.Planner, bundle.Handle, "Planner") { }
        static WorkspaceHandle Open(Bundle b, string unit)
        {
            var e = Errs.Local; WorkspaceHandle h;
            return e.Opened(Native.nb_planner_open(b.H, Text.ToUtf8(unit), out h, e.Ptr), h);
        }
        public unsafe Unit Unit
        {
            get
            {
                var u = Navbake.Unit.Of(ref *(UnitNative*)Native.nb_planner_unit(H));
                GC.KeepAlive(this);
                return u;
            }
        }
        public void SetMaxNodes(ulong n) { Native.nb_planner_set_max_nodes(H, n); }
        public ulong Bytes { get { return (ulong)Native.nb_planner_bytes(H); } }
        public PlannerResult Find(PlannerQuery q, Overlay overlay = null)
        {
            var h = H;
            q.Overlay = Hold(overlay);
            Status st = Native.nb_planner_find(h, ref q, out last, Err.Ptr);
            Release(); Check(st);
            return last;
        }
        public void Begin(PlannerQuery q, Overlay overlay = null)
        {
            var h = H;
            q.Overlay = Hold(overlay);
            Check(Native.nb_planner_begin(h, ref q, Err.Ptr));
        }
        public bool Step(ulong expansions) { int d; return Done(Native.nb_planner_step(H, expansions, out d, Err.Ptr), d); }
        public PlannerResult Finish()
        {
            Status st = Native.nb_planner_finish(H, out last, Err.Ptr);
            Release(); Check(st);
            return last;
        }
        public bool Walkable(Segment[] segments, int n)
        {
            if (segments == null || n < 0 || n > segments.Length) throw new ArgumentOutOfRangeException("n");
            return Native.nb_planner_walkable(H, segments, (UIntPtr)n) != 0;
        }
        public bool Blocked(long x, long y) { return Native.nb_planner_blocked(H, x, y) != 0; }
        public int CopySegments(ref Segment[] s) { H.Live("Planner"); return Copy(last.Segments, last.SegmentLen, ref s); }
        public int CopyWaypoints(ref Pose[] p) { H.Live("Planner"); return Copy(last.Waypoints, last.WaypointLen, ref p); }
    }

    /// <summary>Segments and curves (nb_segment_*, nb_curve_*): pure functions.</summary>
    public static class Geometry
    {
        public static Segment Line(double x0, double y0, double x1, double y1) { return Native.nb_segment_line(x0, y0, x1, y1); }
        public static Segment Arc(double cx, double cy, double radius, double from, double sweep) { return Native.nb_segment_arc(cx, cy, radius, from, sweep); }
        public static void Angles(Segment s, out double from, out double sweep) { Native.nb_segment_angles(ref s, out from, out sweep); }
        public static Pose Sample(Segment s, double at) { Pose p; Native.nb_segment_sample(ref s, at, out p); return p; }
        public static double Sample(Segment[] s, int n, double at, out Pose pose)
        {
            if (s == null || n < 0 || n > s.Length) throw new ArgumentOutOfRangeException("n");
            return Native.nb_segments_sample(s, (UIntPtr)n, at, out pose);
        }
        public static double Length(Segment[] s, int n)
        {
            if (s == null || n < 0 || n > s.Length) throw new ArgumentOutOfRangeException("n");
            return Native.nb_segments_length(s, (UIntPtr)n);
        }
        public const int MaxCandidates = 8;
        /// <summary>Curves from a pose to a point into out (at least MaxCandidates long), shortest first.</summary>
        public static int CurveToPoint(Pose from, double radius, double x, double y, Curve[] @out)
        {
            Room(@out);
            return (int)Native.nb_curve_to_point(ref from, radius, x, y, @out);
        }
        public static int CurveToPose(Pose from, Pose to, double radius, Curve[] @out)
        {
            Room(@out);
            return (int)Native.nb_curve_to_pose(ref from, ref to, radius, @out);
        }
        static void Room(Curve[] c) { if (c == null || c.Length < MaxCandidates) throw new ArgumentException("needs room for " + MaxCandidates + " curves"); }
        public static void SetReverse(ref Curve c) { Native.nb_curve_set_reverse(ref c); }
        public static Pose Sample(Curve c, double at) { Pose p; Native.nb_curve_sample(ref c, at, out p); return p; }
    }
}
