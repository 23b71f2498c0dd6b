// WorldQuery.cs: queries across a world's tiles (nb_world_aa_open(3),
// nb_world_line_find(3), nb_world_haa_open(3)): Annotated A*, the nearest
// standable cell, the line of walk, random cells and HAA* on world cells,
// each cell answered by the tile that owns it, and cells blocked at run
// time in world coordinates.  No query loads a tile: one that a tile not loaded could
// change throws UnloadedException, whose Needed lists the tiles to load.
// Both hold their world open (SafeHandle parent) until they are released.
using System;

namespace Navbake
{
    /// <summary>Cells blocked at run time in a world's coordinates, whatever
    /// tiles they fall in (nb_world_overlay).  Change it only while no query reads it.</summary>
    public sealed class WorldOverlay : IDisposable
    {
        internal readonly WorldOverlayHandle Handle;
        readonly ErrBuffer err = new ErrBuffer();

        public WorldOverlay(World world)
        {
            var e = Errs.Local; WorldOverlayHandle h;
            Handle = e.Opened(Native.nb_world_overlay_open(world.H, out h, e.Ptr), h);
            Handle.HoldParent(world.Handle);
        }

        public void Dispose() { Handle.Shut(); err.Dispose(); }
        public bool IsClosed { get { return Handle.IsShut; } }
        WorldOverlayHandle H { get { Handle.Live("WorldOverlay"); return Handle; } }

        /// <summary>Blocks the w x h cells from (x, y), which lie inside the world (NavbakeException otherwise).</summary>
        public void Block(long x, long y, long w, long h) { err.Check(Native.nb_world_overlay_block(H, x, y, w, h, err.Ptr)); }
        public void Unblock(long x, long y, long w, long h) { err.Check(Native.nb_world_overlay_unblock(H, x, y, w, h, err.Ptr)); }
        /// <summary>Whether world cell (x, y) is blocked (false off the world).</summary>
        public bool Blocked(long x, long y) { return Native.nb_world_overlay_blocked(H, x, y) != 0; }
    }

    /// <summary>nb_world_aa: a workspace for Annotated A* and nearest across a
    /// world's tiles, one per world and thread.  The queries are Aa's and
    /// Place's; the query's own overlay stays null, a WorldOverlay blocks cells.</summary>
    public sealed class WorldAa : Workspace
    {
        AaResult last;
        WorldTile[] needed = new WorldTile[8];

        public WorldAa(World world) : base(Open(world), WorkspaceKind.WorldAa, world.Handle, "WorldAa") { }
        static WorkspaceHandle Open(World w)
        {
            var e = Errs.Local; WorkspaceHandle h;
            return e.Opened(Native.nb_world_aa_open(w.H, out h, e.Ptr), h);
        }
        public void SetMaxNodes(ulong n) { Native.nb_world_aa_set_max_nodes(H, n); }
        public ulong Bytes { get { return (ulong)Native.nb_world_aa_bytes(H); } }

        /// <summary>nb_world_aa_find; costs (one per terrain) and overlay may be null.</summary>
        public AaResult Find(AaQuery q, WorldOverlay overlay = null, double[] costs = null)
        {
            var h = H;
            q.Costs = Costs(costs);
            q.Overlay = IntPtr.Zero;
            IntPtr ov = Hold(overlay == null ? null : overlay.Handle, "WorldOverlay");
            Status st = Native.nb_world_aa_find(h, ref q, ov, out last, Err.Ptr);
            Release();
            Checked(st);
            return last;
        }

        /// <summary>nb_world_nearest_find: the standable cell nearest q.Point on the world.</summary>
        public NearestResult Nearest(NearestQuery q, WorldOverlay overlay = null)
        {
            var h = H; NearestResult r;
            q.Overlay = IntPtr.Zero;
            IntPtr ov = Hold(overlay == null ? null : overlay.Handle, "WorldOverlay");
            Status st = Native.nb_world_nearest_find(h, ref q, ov, out r, Err.Ptr);
            Release();
            Checked(st);
            return r;
        }

        /// <summary>nb_world_line_find: whether the agent can travel the straight
        /// segment q.Start to q.Goal on the world, as Place.Line on the map baked whole.</summary>
        public LineResult Line(LineQuery q, WorldOverlay overlay = null)
        {
            var h = H; LineResult r;
            q.Overlay = IntPtr.Zero;
            IntPtr ov = Hold(overlay == null ? null : overlay.Handle, "WorldOverlay");
            Status st = Native.nb_world_line_find(h, ref q, ov, out r, Err.Ptr);
            Release();
            Checked(st);
            return r;
        }

        /// <summary>nb_world_random_find: a standable cell drawn uniformly from the
        /// w x h world cells from (x, y), clipped to the world (r.State: the next seed).</summary>
        public RandomResult Random(RandomQuery q, long x, long y, long w, long hgt, WorldOverlay overlay = null)
        {
            var h = H; RandomResult r;
            q.Overlay = IntPtr.Zero;
            IntPtr ov = Hold(overlay == null ? null : overlay.Handle, "WorldOverlay");
            Status st = Native.nb_world_random_find(h, ref q, ov, x, y, w, hgt, out r, Err.Ptr);
            Release();
            Checked(st);
            return r;
        }

        /// <summary>The last result's path into cells (grown when too small); returns its length.</summary>
        public int CopyPath(ref Cell[] cells) { H.Live("WorldAa"); return Copy(last.Path, last.PathLen, ref cells); }

        /// <summary>The tiles the last query that threw UnloadedException needs (nb_world_aa_needed).</summary>
        public WorldTile[] Needed() { return WorldNeeds.List(H, (h, b, m) => Native.nb_world_aa_needed(h, b, m), ref needed); }

        void Checked(Status st)
        {
            if (st == Status.Unloaded) throw new UnloadedException(Err.Message, Needed());
            Check(st);
        }
    }

    /// <summary>nb_world_haa: a workspace for HAA* across a world's tiles, over
    /// the graph navbake world link writes above them: a path exactly where
    /// WorldAa finds one, never shorter.  Terrain costs, NB_HAA_SMOOTH, partial
    /// and an overlay that blocks cells are refused (nb_world_haa_open(3)).
    /// One per world and thread.</summary>
    public sealed class WorldHaa : Workspace
    {
        HaaResult last;
        WorldTile[] needed = new WorldTile[8];

        public WorldHaa(World world) : base(Open(world), WorkspaceKind.WorldHaa, world.Handle, "WorldHaa") { }
        static WorkspaceHandle Open(World w)
        {
            var e = Errs.Local; WorkspaceHandle h;
            return e.Opened(Native.nb_world_haa_open(w.H, out h, e.Ptr), h);
        }
        public ulong Bytes { get { return (ulong)Native.nb_world_haa_bytes(H); } }

        /// <summary>nb_world_haa_find; the query's costs and own overlay are cleared.</summary>
        public HaaResult Find(HaaQuery q, WorldOverlay overlay = null)
        {
            var h = H;
            q.Costs = IntPtr.Zero;
            q.Overlay = IntPtr.Zero;
            IntPtr ov = Hold(overlay == null ? null : overlay.Handle, "WorldOverlay");
            Status st = Native.nb_world_haa_find(h, ref q, ov, out last, Err.Ptr);
            Release();
            if (st == Status.Unloaded) throw new UnloadedException(Err.Message, Needed());
            Check(st);
            return last;
        }

        /// <summary>The last result's path into cells (grown when too small); returns its length.</summary>
        public int CopyPath(ref Cell[] cells) { H.Live("WorldHaa"); return Copy(last.Path, last.PathLen, ref cells); }

        /// <summary>The tiles the last query that threw UnloadedException needs (nb_world_haa_needed).</summary>
        public WorldTile[] Needed() { return WorldNeeds.List(H, (h, b, m) => Native.nb_world_haa_needed(h, b, m), ref needed); }
    }

    /// <summary>What a world workspace's needed call lists, copied out.</summary>
    static class WorldNeeds
    {
        internal delegate UIntPtr Fn(WorkspaceHandle ws, WorldTile[] needed, UIntPtr max);
        internal static WorldTile[] List(WorkspaceHandle h, Fn fn, ref WorldTile[] buf)
        {
            int n = (int)fn(h, buf, (UIntPtr)buf.Length);
            if (n > buf.Length)
            {
                buf = new WorldTile[n];
                n = (int)fn(h, buf, (UIntPtr)n);
            }
            var list = new WorldTile[n];
            Array.Copy(buf, list, n);
            return list;
        }
    }
}
