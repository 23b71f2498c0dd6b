// Handles.cs: SafeHandles for every navbake handle.  A handle made from
// another (a workspace from its bundle, an overlay from its bundle, a
// forest workspace from its forest) holds a reference on its parent, so
// the parent's native close waits until the last child is released,
// whatever order the program disposes them in: the library's rule "close
// the workspace before its bundle" is kept by the runtime, not the caller.
using System;
using System.Runtime.InteropServices;

namespace Navbake
{
    public abstract class NavbakeHandle : SafeHandle
    {
        SafeHandle[] parents = new SafeHandle[0];
        protected NavbakeHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }

        internal void HoldParent(SafeHandle p)
        {
            if (p == null) return;
            bool ok = false;
            p.DangerousAddRef(ref ok);
            if (!ok) return;
            var a = new SafeHandle[parents.Length + 1];
            parents.CopyTo(a, 0);
            a[parents.Length] = p;
            parents = a;
        }

        protected abstract void Close(IntPtr h);

        /// <summary>Takes a pointer the library returned (not through an out parameter).</summary>
        internal void Adopt(IntPtr h) { SetHandle(h); }

        protected override bool ReleaseHandle()
        {
            Close(handle);
            var ps = parents;
            parents = new SafeHandle[0];
            foreach (var p in ps) p.DangerousRelease();
            return true;
        }

        // Set by the owner's Dispose: the native close may wait for the
        // handles made from this one, but the owner may not use it again.
        volatile bool shut;
        internal void Shut() { shut = true; Dispose(); }
        internal bool IsShut { get { return shut || IsClosed; } }

        /// <summary>Throws ObjectDisposedException once the owner has disposed the handle.</summary>
        internal void Live(string what)
        {
            if (shut || IsClosed || IsInvalid) throw new ObjectDisposedException(what);
        }
    }

    public sealed class BundleHandle : NavbakeHandle
    {
        // A world's own bundle (nb_world_bundle): its world closes it.
        internal bool Borrowed;
        protected override void Close(IntPtr h) { if (!Borrowed) Native.nb_bundle_close(h); }
    }

    public sealed class WorldHandle : NavbakeHandle
    {
        protected override void Close(IntPtr h) { Native.nb_world_close(h); }
    }

    public sealed class OverlayHandle : NavbakeHandle
    {
        protected override void Close(IntPtr h) { Native.nb_overlay_close(h); }
    }

    public sealed class WorldOverlayHandle : NavbakeHandle
    {
        protected override void Close(IntPtr h) { Native.nb_world_overlay_close(h); }
    }

    public sealed class ModelHandle : NavbakeHandle
    {
        protected override void Close(IntPtr h) { Native.nb_model_close(h); }
    }

    public sealed class PerimeterHandle : NavbakeHandle
    {
        protected override void Close(IntPtr h) { Native.nb_perimeter_close(h); }
    }

    public sealed class ForestHandle : NavbakeHandle
    {
        protected override void Close(IntPtr h) { Native.nb_forest_close(h); }
    }

    internal enum WorkspaceKind { Aa, Sg, Haa, Motion, Planner, ForestWs, Place, WorldAa, WorldHaa }

    /// <summary>A workspace of any family; its kind says which close it takes.</summary>
    public sealed class WorkspaceHandle : NavbakeHandle
    {
        internal WorkspaceKind Kind;
        protected override void Close(IntPtr h)
        {
            switch (Kind)
            {
                case WorkspaceKind.Aa: Native.nb_aa_close(h); break;
                case WorkspaceKind.Sg: Native.nb_sg_close(h); break;
                case WorkspaceKind.Haa: Native.nb_haa_close(h); break;
                case WorkspaceKind.Motion: Native.nb_motion_close(h); break;
                case WorkspaceKind.Planner: Native.nb_planner_close(h); break;
                case WorkspaceKind.ForestWs: Native.nb_forest_ws_close(h); break;
                case WorkspaceKind.Place: Native.nb_place_close(h); break;
                case WorkspaceKind.WorldAa: Native.nb_world_aa_close(h); break;
                case WorkspaceKind.WorldHaa: Native.nb_world_haa_close(h); break;
            }
        }
    }
}
