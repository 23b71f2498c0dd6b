// Place.cs: the place queries (nearest cell, straight line, random cell)
// on a place, the workspace of one thread on a bundle.
using System;

namespace Navbake
{
    public sealed class Place : Workspace
    {
        public Place(Bundle bundle) : base(Open(bundle), WorkspaceKind.Place, bundle.Handle, "Place") { }
        static WorkspaceHandle Open(Bundle b)
        {
            var e = Errs.Local; WorkspaceHandle h;
            return e.Opened(Native.nb_place_open(b.H, out h, e.Ptr), h);
        }
        public ulong Bytes { get { return (ulong)Native.nb_place_bytes(H); } }

        public NearestResult Nearest(NearestQuery q, Overlay overlay = null)
        {
            var h = H; NearestResult r;
            q.Overlay = Hold(overlay);
            Status st = Native.nb_nearest_find(h, ref q, out r, Err.Ptr);
            Release(); Check(st);
            return r;
        }
        public void NearestBegin(NearestQuery q, Overlay overlay = null)
        {
            var h = H;
            q.Overlay = Hold(overlay);
            Check(Native.nb_nearest_begin(h, ref q, Err.Ptr));
        }
        public bool NearestStep(ulong expansions) { int d; return Done(Native.nb_nearest_step(H, expansions, out d, Err.Ptr), d); }
        public NearestResult NearestFinish()
        {
            NearestResult r;
            Status st = Native.nb_nearest_finish(H, out r, Err.Ptr);
            Release(); Check(st);
            return r;
        }

        public LineResult Line(LineQuery q, Overlay overlay = null)
        {
            var h = H; LineResult r;
            q.Overlay = Hold(overlay);
            Status st = Native.nb_line_find(h, ref q, out r, Err.Ptr);
            Release(); Check(st);
            return r;
        }
        public void LineBegin(LineQuery q, Overlay overlay = null)
        {
            var h = H;
            q.Overlay = Hold(overlay);
            Check(Native.nb_line_begin(h, ref q, Err.Ptr));
        }
        public bool LineStep(ulong expansions) { int d; return Done(Native.nb_line_step(H, expansions, out d, Err.Ptr), d); }
        public LineResult LineFinish()
        {
            LineResult r;
            Status st = Native.nb_line_finish(H, out r, Err.Ptr);
            Release(); Check(st);
            return r;
        }

        public RandomResult Random(RandomQuery q, Overlay overlay = null)
        {
            var h = H; RandomResult r;
            q.Overlay = Hold(overlay);
            Status st = Native.nb_random_find(h, ref q, out r, Err.Ptr);
            Release(); Check(st);
            return r;
        }
        public void RandomBegin(RandomQuery q, Overlay overlay = null)
        {
            var h = H;
            q.Overlay = Hold(overlay);
            Check(Native.nb_random_begin(h, ref q, Err.Ptr));
        }
        public bool RandomStep(ulong expansions) { int d; return Done(Native.nb_random_step(H, expansions, out d, Err.Ptr), d); }
        public RandomResult RandomFinish()
        {
            RandomResult r;
            Status st = Native.nb_random_finish(H, out r, Err.Ptr);
            Release(); Check(st);
            return r;
        }
    }
}
