// Motion.cs: motion models, perimeter tables and the motion-constrained
// search (a workspace for one model and one agent).
using System;
using System.Runtime.InteropServices;

namespace Navbake
{
    public sealed class Model : IDisposable
    {
        internal readonly ModelHandle Handle;
        public Model(Bundle bundle, string name)
        {
            var e = Errs.Local; ModelHandle h;
            h = e.Opened(Native.nb_model_open(bundle.H, Text.ToUtf8(name), out h, e.Ptr), h);
            h.HoldParent(bundle.Handle);
            Handle = h;
        }
        public void Dispose() { Handle.Shut(); }
        internal ModelHandle H { get { Handle.Live("Model"); return Handle; } }
        public string Name { get { var s = Text.FromUtf8(Native.nb_model_name(H)); GC.KeepAlive(this); return s; } }
        public int Headings { get { return (int)Native.nb_model_headings(H); } }
        public int Speeds { get { return (int)Native.nb_model_speeds(H); } }
        public int Stop { get { return (int)Native.nb_model_stop(H); } }
        public double Speed(int level) { return Native.nb_model_speed(H, (uint)level); }
        public string SpeedName(int level) { var s = Text.FromUtf8(Native.nb_model_speed_name(H, (uint)level)); GC.KeepAlive(this); return s; }
        public int SpeedLookup(string name)
        {
            var e = Errs.Local; UIntPtr l;
            e.Check(Native.nb_model_speed_lookup(H, Text.ToUtf8(name), out l, e.Ptr));
            return (int)l;
        }
        public int Turn(int level) { return (int)Native.nb_model_turn(H, (uint)level); }
        public int SpeedChange { get { return (int)Native.nb_model_speed_change(H); } }
        public Cell Offset(int heading) { int dx, dy; Native.nb_model_offset(H, (uint)heading, out dx, out dy); return new Cell(dx, dy); }
        public double TopSpeed { get { return Native.nb_model_top_speed(H); } }
        public double StillCost { get { return Native.nb_model_still_cost(H); } }
        public double TurnCost { get { return Native.nb_model_turn_cost(H); } }
        public double ExtendedWeight { get { return Native.nb_model_extended_weight(H); } }
        /// <summary>The cells a step of this heading passes, as (dx, dy) pairs.</summary>
        public Cell[] Sweep(int heading)
        {
            IntPtr p;
            int n = (int)Native.nb_model_sweep(H, (uint)heading, out p);
            var c = new Cell[n];
            for (int i = 0; i < n; i++)
                c[i] = new Cell((sbyte)Marshal.ReadByte(p, 2 * i), (sbyte)Marshal.ReadByte(p, 2 * i + 1));
            GC.KeepAlive(this);
            return c;
        }
        public static string HeuristicName(MotionHeuristic h) { return Text.FromUtf8(Native.nb_motion_heuristic_name(h)); }
        public static MotionHeuristic HeuristicParse(string name)
        {
            var e = Errs.Local; MotionHeuristic h;
            e.Check(Native.nb_motion_heuristic_parse(Text.ToUtf8(name), out h, e.Ptr));
            return h;
        }
        public static string AbstractionName(RouteAbstraction a) { return Text.FromUtf8(Native.nb_route_abstraction_name(a)); }
        public static RouteAbstraction AbstractionParse(string name)
        {
            var e = Errs.Local; RouteAbstraction a;
            e.Check(Native.nb_route_abstraction_parse(Text.ToUtf8(name), out a, e.Ptr));
            return a;
        }
    }

    public sealed class Perimeter : IDisposable
    {
        internal readonly PerimeterHandle Handle;
        public Perimeter(Bundle bundle, Model model)
        {
            var e = Errs.Local; PerimeterHandle h;
            h = e.Opened(Native.nb_perimeter_open(bundle.H, model.H, out h, e.Ptr), h);
            h.HoldParent(model.Handle);
            Handle = h;
        }
        public void Dispose() { Handle.Shut(); }
        internal PerimeterHandle H { get { Handle.Live("Perimeter"); return Handle; } }
        public int Radius { get { return (int)Native.nb_perimeter_radius(H); } }
        public PerimeterLayout Layout { get { return Native.nb_perimeter_layout_of(H); } }
        public static string LayoutName(PerimeterLayout l) { return Text.FromUtf8(Native.nb_perimeter_layout_name(l)); }
        /// <summary>Flags.PerimOutside, PerimExact or PerimApprox, and the cost in value.</summary>
        public int Lookup(MotionState s, MotionState g, out double value) { return Native.nb_perimeter_lookup(H, ref s, ref g, out value); }
        public int Extended(MotionState s, MotionState g, out double value) { return Native.nb_perimeter_extended(H, ref s, ref g, out value); }
    }

    public sealed class Motion : Workspace
    {
        MotionResult last;
        public Motion(Bundle bundle, Model model, Perimeter perimeter, uint capability, uint size)
            : base(Open(bundle, model, perimeter, capability, size), WorkspaceKind.Motion, bundle.Handle, "Motion")
        {
            // The workspace reads the model and the table: they stay open with it.
            Handle.HoldParent(model.Handle);
            if (perimeter != null) Handle.HoldParent(perimeter.Handle);
        }
        static WorkspaceHandle Open(Bundle b, Model m, Perimeter p, uint cap, uint size)
        {
            var e = Errs.Local; WorkspaceHandle h;
            Status st = p == null ? Native.nb_motion_open(b.H, m.H, IntPtr.Zero, cap, size, out h, e.Ptr)
                                  : Native.nb_motion_open(b.H, m.H, p.H, cap, size, out h, e.Ptr);
            if (st != Status.Ok) { h.Dispose(); e.Throw(st); }
            return h;
        }
        public void SetMaxNodes(ulong n) { Native.nb_motion_set_max_nodes(H, n); }
        public ulong Bytes { get { return (ulong)Native.nb_motion_bytes(H); } }
        public bool Standable(long x, long y) { return Native.nb_motion_standable(H, x, y) != 0; }
        public bool Action(MotionState s, int turn, uint speed, out MotionState to, out double cost)
        {
            return Native.nb_motion_action(H, ref s, turn, speed, out to, out cost) != 0;
        }
        public MotionResult Find(MotionQuery q, Overlay overlay = null)
        {
            var h = H;
            q.Overlay = Hold(overlay);
            Status st = Native.nb_motion_find(h, ref q, out last, Err.Ptr);
            Release(); Check(st);
            return last;
        }
        public void Begin(MotionQuery q, Overlay overlay = null)
        {
            var h = H;
            q.Overlay = Hold(overlay);
            Check(Native.nb_motion_begin(h, ref q, Err.Ptr));
        }
        public bool Step(ulong expansions) { int d; return Done(Native.nb_motion_step(H, expansions, out d, Err.Ptr), d); }
        public MotionResult Finish()
        {
            Status st = Native.nb_motion_finish(H, out last, Err.Ptr);
            Release(); Check(st);
            return last;
        }
        public void UseSectors(uint side) { Check(Native.nb_motion_use_sectors(H, side, Err.Ptr)); }
        public void UseHaa() { Check(Native.nb_motion_use_haa(H, Err.Ptr)); }

        /// <summary>nb_motion_route_find; each (may be null) sees every segment's result.</summary>
        public MotionResult RouteFind(MotionQuery q, uint segment, Action<MotionResult> each, out int segments)
        {
            var h = H;
            q.Overlay = IntPtr.Zero;
            Native.SegmentFn fn = null;
            if (each != null) fn = (IntPtr ctx, ref MotionResult s) => each(s);
            UIntPtr n;
            Status st = Native.nb_motion_route_find(h, ref q, segment, fn, IntPtr.Zero, out last, out n, Err.Ptr);
            GC.KeepAlive(fn);
            Check(st);
            segments = (int)n;
            return last;
        }
        public int CopyPath(ref MotionState[] states) { H.Live("Motion"); return Copy(last.Path, last.PathLen, ref states); }
    }
}
