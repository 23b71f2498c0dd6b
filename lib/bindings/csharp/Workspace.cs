// Workspace.cs: what every family's workspace shares: its SafeHandle, its
// own nb_err and terrain-cost buffer in unmanaged memory (allocated once,
// so that a query in a steady loop allocates nothing), the overlay it
// holds while a query may read it, and the copy of paths into the caller's
// arrays, grown only when too small.
using System;
using System.Runtime.InteropServices;

namespace Navbake
{
    public abstract class Workspace : IDisposable
    {
        internal readonly WorkspaceHandle Handle;
        internal readonly ErrBuffer Err = new ErrBuffer();
        readonly string name;
        IntPtr costs;
        NavbakeHandle held;

        internal Workspace(WorkspaceHandle h, WorkspaceKind kind, SafeHandle parent, string name)
        {
            h.Kind = kind;
            h.HoldParent(parent);
            Handle = h;
            this.name = name;
        }

        internal WorkspaceHandle H { get { Handle.Live(name); return Handle; } }
        public bool IsClosed { get { return Handle.IsShut; } }

        public void Dispose()
        {
            Release();
            Handle.Shut();
            if (costs != IntPtr.Zero) { Marshal.FreeHGlobal(costs); costs = IntPtr.Zero; }
            Err.Dispose();
            Freed();
            GC.SuppressFinalize(this);
        }
        /// <summary>Frees what a family keeps beside the handle (its result in unmanaged memory).</summary>
        internal virtual void Freed() { }
        // A sliced query left unfinished still holds its overlay: let it go, or
        // the overlay (and its bundle) would never be released.  Ordinary
        // finalizers run before the SafeHandles' critical ones.
        ~Workspace() { Release(); if (costs != IntPtr.Zero) Marshal.FreeHGlobal(costs); Freed(); }

        /// <summary>The terrain costs in the workspace's buffer, or NULL.</summary>
        internal IntPtr Costs(double[] c)
        {
            if (c == null) return IntPtr.Zero;
            if (c.Length > Flags.MaxTerrains) throw new ArgumentException("at most 32 terrain costs", "costs");
            if (costs == IntPtr.Zero) costs = Marshal.AllocHGlobal(8 * Flags.MaxTerrains);
            Marshal.Copy(c, 0, costs, c.Length);
            return costs;
        }

        /// <summary>Holds the overlay for a query (until Release) and gives its pointer.</summary>
        internal IntPtr Hold(Overlay o) { return Hold(o == null ? null : o.Handle, "Overlay"); }
        internal IntPtr Hold(NavbakeHandle o, string what)
        {
            Release();
            if (o == null) return IntPtr.Zero;
            o.Live(what);
            bool ok = false;
            o.DangerousAddRef(ref ok);
            held = o;
            return o.DangerousGetHandle();
        }
        internal void Release()
        {
            var h = held;
            held = null;
            if (h != null) h.DangerousRelease();
        }

        internal void Check(Status st) { if (st != Status.Ok) { Release(); Err.Throw(st); } }
        internal bool Done(Status st, int done) { Check(st); return done != 0; }

        // ---- copies of paths into the caller's arrays ----
        internal static unsafe int Copy<T>(IntPtr src, UIntPtr len, ref T[] dst) where T : struct
        {
            int n = (int)len;
            if (dst == null || dst.Length < n) dst = new T[Grow(n)];
            if (n > 0)
            {
                long bytes = (long)n * Marshal.SizeOf(typeof(T));
                var pin = GCHandle.Alloc(dst, GCHandleType.Pinned);
                try { Buffer.MemoryCopy((void*)src, (void*)pin.AddrOfPinnedObject(), bytes, bytes); }
                finally { pin.Free(); }
            }
            return n;
        }
        static int Grow(int n) { int c = 16; while (c < n) c *= 2; return c; }
    }

    /// <summary>Cells blocked at run time beside a read-only bundle (nb_overlay).</summary>
    public sealed class Overlay : IDisposable
    {
        internal readonly OverlayHandle Handle;
        readonly ErrBuffer err = new ErrBuffer();

        Overlay(OverlayHandle h, SafeHandle parent) { h.HoldParent(parent); Handle = h; }

        public Overlay(Bundle bundle) : this(Open(bundle), bundle.Handle) { }
        static OverlayHandle Open(Bundle b)
        {
            var e = Errs.Local; OverlayHandle h;
            return e.Opened(Native.nb_overlay_open(b.H, out h, e.Ptr), h);
        }
        /// <summary>nb_overlay_clone: a copy for a writer to change while readers use this one.</summary>
        public Overlay Clone()
        {
            OverlayHandle h;
            Status st = Native.nb_overlay_clone(H, out h, err.Ptr);
            if (st != Status.Ok) { h.Dispose(); err.Throw(st); }
            // The clone reads the same bundle: hold it through this overlay's parent chain.
            var o = new Overlay(h, Handle);
            return o;
        }

        public void Dispose() { Handle.Shut(); err.Dispose(); }
        public bool IsClosed { get { return Handle.IsShut; } }
        OverlayHandle H { get { Handle.Live("Overlay"); return Handle; } }

        public void Block(long x, long y, long w, long h) { err.Check(Native.nb_overlay_block(H, x, y, w, h, err.Ptr)); }
        public void Unblock(long x, long y, long w, long h) { err.Check(Native.nb_overlay_unblock(H, x, y, w, h, err.Ptr)); }
        public void BlockCells(Cell[] cells, int n) { Span(cells, n); err.Check(Native.nb_overlay_block_cells(H, cells, (UIntPtr)n, err.Ptr)); }
        public void UnblockCells(Cell[] cells, int n) { Span(cells, n); err.Check(Native.nb_overlay_unblock_cells(H, cells, (UIntPtr)n, err.Ptr)); }
        static void Span(Cell[] cells, int n) { if (cells == null || n < 0 || n > cells.Length) throw new ArgumentOutOfRangeException("n"); }
        public void Clear() { Native.nb_overlay_clear(H); }
        public bool Blocked(long x, long y) { return Native.nb_overlay_blocked(H, x, y) != 0; }
        public ulong BlockedCount { get { return Native.nb_overlay_blocked_count(H); } }
        public ulong Bytes { get { return (ulong)Native.nb_overlay_bytes(H); } }
        public int CanStand(uint cap, uint size, long x, long y) { return Native.nb_overlay_can_stand(H, cap, size, x, y); }
        /// <summary>1, 0, Flags.ReachUnknown, or -1 (no component layer).</summary>
        public int Reachable(uint cap, uint size, Cell from, Cell to) { return Native.nb_overlay_reachable(H, cap, size, from, to); }
    }
}
