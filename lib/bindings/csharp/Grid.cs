// Grid.cs: the grid path families: Annotated A* (Aa), the optimal layer
// (Sg) and HAA* (Haa).  One workspace per thread; Find is begin, step and
// finish; a result's path is copied by CopyPath into the caller's array,
// which it grows only when too small, so a loop of queries allocates
// nothing once its arrays are large enough.
using System;

namespace Navbake
{
    public sealed class Aa : Workspace
    {
        AaResult last;
        public Aa(Bundle bundle) : base(Open(bundle), WorkspaceKind.Aa, bundle.Handle, "Aa") { }
        static WorkspaceHandle Open(Bundle b)
        {
            var e = Errs.Local; WorkspaceHandle h;
            return e.Opened(Native.nb_aa_open(b.H, out h, e.Ptr), h);
        }
        public void SetMaxNodes(ulong n) { Native.nb_aa_set_max_nodes(H, n); }
        public ulong Bytes { get { return (ulong)Native.nb_aa_bytes(H); } }

        /// <summary>nb_aa_find; costs (one per terrain) and overlay may be null.</summary>
        public AaResult Find(AaQuery q, Overlay overlay = null, double[] costs = null)
        {
            var h = H;
            q.Costs = Costs(costs);
            q.Overlay = Hold(overlay);
            Status st = Native.nb_aa_find(h, ref q, out last, Err.Ptr);
            Release();
            Check(st);
            return last;
        }
        public void Begin(AaQuery q, Overlay overlay = null, double[] costs = null)
        {
            var h = H;
            q.Costs = Costs(costs);
            q.Overlay = Hold(overlay);
            Check(Native.nb_aa_begin(h, ref q, Err.Ptr));
        }
        public bool Step(ulong expansions) { int d; return Done(Native.nb_aa_step(H, expansions, out d, Err.Ptr), d); }
        public AaResult Finish()
        {
            Status st = Native.nb_aa_finish(H, out last, Err.Ptr);
            Release();
            Check(st);
            return last;
        }
        /// <summary>The last result's path into cells (grown when too small); returns its length.</summary>
        public int CopyPath(ref Cell[] cells) { H.Live("Aa"); return Copy(last.Path, last.PathLen, ref cells); }
    }

    public sealed class Sg : Workspace
    {
        SgResult last;
        public Sg(Bundle bundle) : base(Open(bundle), WorkspaceKind.Sg, bundle.Handle, "Sg") { }
        static WorkspaceHandle Open(Bundle b)
        {
            var e = Errs.Local; WorkspaceHandle h;
            return e.Opened(Native.nb_sg_open(b.H, out h, e.Ptr), h);
        }
        public void SetMaxNodes(ulong n) { Native.nb_sg_set_max_nodes(H, n); }
        public ulong Bytes { get { return (ulong)Native.nb_sg_bytes(H); } }
        public SgResult Find(SgQuery q, Overlay overlay = null, double[] costs = null)
        {
            var h = H;
            q.Costs = Costs(costs);
            q.Overlay = Hold(overlay);
            Status st = Native.nb_sg_find(h, ref q, out last, Err.Ptr);
            Release();
            Check(st);
            return last;
        }
        public void Begin(SgQuery q, Overlay overlay = null, double[] costs = null)
        {
            var h = H;
            q.Costs = Costs(costs);
            q.Overlay = Hold(overlay);
            Check(Native.nb_sg_begin(h, ref q, Err.Ptr));
        }
        public bool Step(ulong expansions) { int d; return Done(Native.nb_sg_step(H, expansions, out d, Err.Ptr), d); }
        public SgResult Finish()
        {
            Status st = Native.nb_sg_finish(H, out last, Err.Ptr);
            Release();
            Check(st);
            return last;
        }
        public int CopyPath(ref Cell[] cells) { H.Live("Sg"); return Copy(last.Path, last.PathLen, ref cells); }
        public int CopyWaypoints(ref Cell[] cells) { H.Live("Sg"); return Copy(last.Waypoints, last.WaypointLen, ref cells); }
    }

    public sealed class Haa : Workspace
    {
        HaaResult last;
        public Haa(Bundle bundle) : base(Open(bundle), WorkspaceKind.Haa, bundle.Handle, "Haa") { }
        static WorkspaceHandle Open(Bundle b)
        {
            var e = Errs.Local; WorkspaceHandle h;
            return e.Opened(Native.nb_haa_open(b.H, out h, e.Ptr), h);
        }
        public void SetMaxNodes(ulong n) { Native.nb_haa_set_max_nodes(H, n); }
        public void SetLevels(uint levels) { Native.nb_haa_set_levels(H, levels); }
        public ulong Bytes { get { return (ulong)Native.nb_haa_bytes(H); } }
        public HaaResult Find(HaaQuery q, Overlay overlay = null, double[] costs = null)
        {
            var h = H;
            q.Costs = Costs(costs);
            q.Overlay = Hold(overlay);
            Status st = Native.nb_haa_find(h, ref q, out last, Err.Ptr);
            Release();
            Check(st);
            return last;
        }
        public void Begin(HaaQuery q, Overlay overlay = null, double[] costs = null)
        {
            var h = H;
            q.Costs = Costs(costs);
            q.Overlay = Hold(overlay);
            Check(Native.nb_haa_begin(h, ref q, Err.Ptr));
        }
        public bool Step(ulong expansions) { int d; return Done(Native.nb_haa_step(H, expansions, out d, Err.Ptr), d); }
        public HaaResult Finish()
        {
            Status st = Native.nb_haa_finish(H, out last, Err.Ptr);
            Release();
            Check(st);
            return last;
        }
        /// <summary>nb_haa_reachable: exact reach under the overlay (null: the bundle's map).</summary>
        public bool Reachable(HaaQuery q, Overlay overlay = null)
        {
            var h = H;
            q.Costs = IntPtr.Zero;
            q.Overlay = Hold(overlay);
            int r;
            Status st = Native.nb_haa_reachable(h, ref q, out r, Err.Ptr);
            Release();
            Check(st);
            return r != 0;
        }
        public HaaGraph Describe()
        {
            HaaGraphNative g;
            Native.nb_haa_describe(H, out g);
            var d = new HaaGraph { Cluster = g.Cluster, Quality = Text.FromUtf8(g.Quality), Placement = Text.FromUtf8(g.Placement),
                Nodes = g.Nodes, Edges = g.Edges, InterEdges = g.InterEdges, Paths = g.Paths != 0, Bytes = (ulong)g.Bytes,
                Levels = g.Levels, LevelFactor = g.LevelFactor };
            GC.KeepAlive(this);
            return d;
        }
        public int CopyPath(ref Cell[] cells) { H.Live("Haa"); return Copy(last.Path, last.PathLen, ref cells); }
    }
}
