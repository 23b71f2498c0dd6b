// Forest.cs: round obstacles: a bundle's forest (read-only, shared) or a
// program's own (changed at will between queries), and the workspace of a
// thread that searches one.
using System;
using System.Runtime.InteropServices;

namespace Navbake
{
    public sealed class Forest : IDisposable
    {
        internal readonly ForestHandle Handle;
        readonly ErrBuffer err = new ErrBuffer();
        Forest(ForestHandle h) { Handle = h; }

        public static Forest Open(Bundle bundle)
        {
            var e = Errs.Local; ForestHandle h;
            h = e.Opened(Native.nb_forest_open(bundle.H, out h, e.Ptr), h);
            h.HoldParent(bundle.Handle);
            return new Forest(h);
        }
        /// <summary>A forest of the program's circles; bounds {xmin, ymin, xmax, ymax} or null.</summary>
        public static Forest OpenCircles(Circle[] circles, double[] bounds = null)
        {
            if (circles == null) throw new ArgumentNullException("circles");
            if (bounds != null && bounds.Length != 4) throw new ArgumentException("bounds are xmin, ymin, xmax, ymax");
            var e = Errs.Local; ForestHandle h;
            h = e.Opened(Native.nb_forest_open_circles_abi(circles, (UIntPtr)circles.Length, bounds, IntPtr.Zero, out h, e.Ptr, ref Abi.This), h);
            return new Forest(h);
        }
        public void Dispose() { Handle.Shut(); err.Dispose(); }
        internal ForestHandle H { get { Handle.Live("Forest"); return Handle; } }

        public int CircleCount { get { return (int)Native.nb_forest_circle_count(H); } }
        public Circle Circle(int index)
        {
            IntPtr p = Native.nb_forest_circle_get(H, (UIntPtr)(uint)index);
            if (p == IntPtr.Zero) throw new ArgumentOutOfRangeException("index");
            var c = (Circle)Marshal.PtrToStructure(p, typeof(Circle));
            GC.KeepAlive(this);
            return c;
        }
        /// <summary>The bounds {xmin, ymin, xmax, ymax}, or null when the forest has none.</summary>
        public double[] Bounds { get { var b = new double[4]; return Native.nb_forest_bounds(H, b) != 0 ? b : null; } }
        public void SetCircle(int index, Circle c) { err.Check(Native.nb_forest_set_circle(H, (UIntPtr)(uint)index, c, err.Ptr)); }
        public void AddCircle(Circle c) { err.Check(Native.nb_forest_add_circle(H, c, err.Ptr)); }
        public void RemoveCircle(int index) { err.Check(Native.nb_forest_remove_circle(H, (UIntPtr)(uint)index, err.Ptr)); }
        public int RadiusCount { get { return (int)Native.nb_forest_radius_count(H); } }
        public double Radius(int i) { return Native.nb_forest_radius_get(H, (uint)i); }
        public int RadiusLookup(double agentRadius)
        {
            UIntPtr i;
            err.Check(Native.nb_forest_radius_lookup(H, agentRadius, out i, err.Ptr));
            return (int)i;
        }
        public ForestGraphInfo Graph(int radiusIndex)
        {
            ForestGraphInfo g;
            err.Check(Native.nb_forest_graph(H, (uint)radiusIndex, out g, err.Ptr));
            return g;
        }
    }

    public sealed class ForestSearch : Workspace
    {
        // The result in unmanaged memory, laid out for the platform's C long.
        IntPtr res = Marshal.AllocHGlobal(Marshal.SizeOf(Abi.TypeOf("nb_forest_result")));
        IntPtr segs; UIntPtr segLen;

        public ForestSearch(Forest forest) : base(Open(forest), WorkspaceKind.ForestWs, forest.Handle, "ForestSearch") { }
        internal override void Freed() { if (res != IntPtr.Zero) { Marshal.FreeHGlobal(res); res = IntPtr.Zero; } }
        static WorkspaceHandle Open(Forest f)
        {
            var e = Errs.Local; WorkspaceHandle h;
            return e.Opened(Native.nb_forest_ws_open(f.H, out h, e.Ptr), h);
        }
        public void SetMaxNodes(ulong n) { Native.nb_forest_ws_set_max_nodes(H, n); }
        public ulong Bytes { get { return (ulong)Native.nb_forest_ws_bytes(H); } }

        public ForestResult Find(ForestQuery q)
        {
            Check(Native.nb_forest_find(H, ref q, res, Err.Ptr));
            return Read();
        }
        public void Begin(ForestQuery q) { Check(Native.nb_forest_begin(H, ref q, Err.Ptr)); }
        public bool Step(ulong expansions) { int d; return Done(Native.nb_forest_step(H, expansions, out d, Err.Ptr), d); }
        public ForestResult Finish()
        {
            Check(Native.nb_forest_finish(H, res, Err.Ptr));
            return Read();
        }
        public int CopySegments(ref Segment[] s) { H.Live("ForestSearch"); return Copy(segs, segLen, ref s); }

        unsafe ForestResult Read()
        {
            var r = new ForestResult();
            if (Abi.Llp64)
            {
                var n = (ForestResultLlp64*)res;
                r.Status = n->Status; r.BlockedBy = n->BlockedBy; r.Start = n->Start; r.Goal = n->Goal; r.Length = n->Length;
                segLen = n->SegmentLen; segs = n->Segments;
                r.Expanded = n->Expanded; r.Generated = n->Generated; r.Pruned = n->Pruned; r.LosTests = n->LosTests; r.CirclesOpened = n->CirclesOpened;
            }
            else
            {
                var n = (ForestResultLp64*)res;
                r.Status = n->Status; r.BlockedBy = n->BlockedBy; r.Start = n->Start; r.Goal = n->Goal; r.Length = n->Length;
                segLen = n->SegmentLen; segs = n->Segments;
                r.Expanded = n->Expanded; r.Generated = n->Generated; r.Pruned = n->Pruned; r.LosTests = n->LosTests; r.CirclesOpened = n->CirclesOpened;
            }
            r.SegmentLength = (int)segLen;
            return r;
        }
    }
}
