// World.cs: a world of tiles at run time (nb_world_open(3)): the world
// bundle navbake world link writes, and the tile bundles the game loads
// and drops.  No query loads a tile: one that needs a tile not loaded
// throws UnloadedException, whose Needed lists the tiles to load.  Loads
// and unloads belong to one thread at a time; any number of threads may
// query meanwhile (each with its own error buffer and tile list).
using System;
using System.Runtime.InteropServices;

namespace Navbake
{
    public sealed class World : IDisposable
    {
        internal readonly WorldHandle Handle;
        readonly ErrBuffer err = new ErrBuffer();   // the loading thread's
        Bundle bundle;
        // The loader the library calls, kept from the collector while set,
        // and the bytes it pinned for the load under way.
        Native.WorldLoader loader;
        Native.WorldRelease release;
        Func<WorldTile, string> paths;
        Func<WorldTile, byte[]> bytes;
        IntPtr pathBuf;
        GCHandle pinned;
        Exception loaderError;

        [ThreadStatic] static WorldTile[] needed;

        World(WorldHandle h) { Handle = h; }

        /// <summary>nb_world_open: the world bundle at path; tiles is the folder of
        /// the tile bundles X_Y.nbb (null: "tiles" beside it).  No tile is loaded.</summary>
        public static World Open(string path, string tiles = null, uint flags = 0)
        {
            if (path == null) throw new ArgumentNullException("path");
            var e = Errs.Local;
            WorldHandle h;
            Status st = Native.nb_world_open_abi(Text.ToUtf8(path), Text.ToUtf8(tiles), flags, IntPtr.Zero, out h, e.Ptr, ref Abi.This);
            if (st != Status.Ok) { h.Dispose(); e.Throw(st); }
            return new World(h);
        }

        public void Dispose()
        {
            if (bundle != null) bundle.Dispose();
            Handle.Shut();
            Unpin();
            if (pathBuf != IntPtr.Zero) { Marshal.FreeHGlobal(pathBuf); pathBuf = IntPtr.Zero; }
            err.Dispose();
            GC.SuppressFinalize(this);
        }
        ~World() { Unpin(); if (pathBuf != IntPtr.Zero) Marshal.FreeHGlobal(pathBuf); }

        public bool IsClosed { get { return Handle.IsShut; } }
        internal WorldHandle H { get { Handle.Live("World"); return Handle; } }

        /// <summary>The world bundle (its agents, terrains, sections), closed with the world.</summary>
        public Bundle Bundle
        {
            get
            {
                var h = H;
                if (bundle == null || bundle.IsClosed) bundle = Bundle.Borrow(Native.nb_world_bundle(h), h);
                return bundle;
            }
        }

        /// <summary>nb_world_describe: the world's shape and the tiles it holds now.</summary>
        public WorldInfo Info { get { WorldInfo i; Native.nb_world_describe(H, out i); return i; } }
        /// <summary>The bytes the world holds: its bundle, its arrays, each tile mapped.</summary>
        public ulong Bytes { get { return (ulong)Native.nb_world_bytes(H); } }
        /// <summary>nb_world_resident: what of Bytes is in memory now (the pages of
        /// each mapped file the system holds, and what lives in the heap).</summary>
        public ulong Resident { get { return (ulong)Native.nb_world_resident(H); } }
        /// <summary>nb_world_set_budget: with a loader set and bytes above 0, a query
        /// that needs a tile not loaded loads it, and each load unloads the tiles
        /// least recently used until Bytes is at most bytes (ulong.MaxValue: no
        /// limit; 0: off, queries never load).  The loading thread's, as Load.</summary>
        public void SetBudget(ulong bytes)
        {
            var h = H;
            // SIZE_MAX on a 32-bit process too
            Native.nb_world_set_budget(h, UIntPtr.Size == 4 && bytes > uint.MaxValue ? new UIntPtr(uint.MaxValue) : new UIntPtr(bytes));
        }

        public void Load(uint column, uint row) { Done(Native.nb_world_load(H, new WorldTile(column, row), err.Ptr)); }
        public void Unload(uint column, uint row) { Done(Native.nb_world_unload(H, new WorldTile(column, row), err.Ptr)); }
        /// <summary>Loads every tile the w x h cells from (x, y) meet, clipped to the world.</summary>
        public void LoadCells(long x, long y, long w, long h) { Done(Native.nb_world_load_cells(H, x, y, w, h, err.Ptr)); }
        public void UnloadCells(long x, long y, long w, long h) { Done(Native.nb_world_unload_cells(H, x, y, w, h, err.Ptr)); }
        public bool IsLoaded(uint column, uint row) { return Native.nb_world_loaded(H, new WorldTile(column, row)) != 0; }

        /// <summary>Later loads map the file loader names for a tile.</summary>
        public void SetPathLoader(Func<WorldTile, string> loader)
        {
            if (loader == null) throw new ArgumentNullException("loader");
            Install(loader, null);
        }
        /// <summary>Later loads read the tile bundle's bytes loader returns (copied by the load).</summary>
        public void SetByteLoader(Func<WorldTile, byte[]> loader)
        {
            if (loader == null) throw new ArgumentNullException("loader");
            Install(null, loader);
        }
        /// <summary>Later loads read the tile folder again.</summary>
        public void ClearLoader()
        {
            Native.nb_world_set_loader(H, null, null, IntPtr.Zero);
            loader = null; release = null; paths = null; bytes = null;
        }

        void Install(Func<WorldTile, string> p, Func<WorldTile, byte[]> b)
        {
            var h = H;
            paths = p; bytes = b;
            if (loader == null) { loader = Load; release = Released; }
            Native.nb_world_set_loader(h, loader, release, IntPtr.Zero);
        }

        // Called by the library on the loading thread.  An exception may not
        // cross the native frames: it becomes the load's error, and the
        // exception the load throws has it as its InnerException.
        Status Load(IntPtr opaque, WorldTile tile, IntPtr path, IntPtr data, IntPtr len, IntPtr e)
        {
            try
            {
                if (paths != null)
                {
                    string f = paths(tile);
                    if (f == null) throw new ArgumentNullException("the loader's path for tile " + tile);
                    var z = Text.ToUtf8(f);
                    if (pathBuf != IntPtr.Zero) Marshal.FreeHGlobal(pathBuf);
                    pathBuf = Marshal.AllocHGlobal(z.Length);
                    Marshal.Copy(z, 0, pathBuf, z.Length);
                    Marshal.WriteIntPtr(path, pathBuf);
                }
                else
                {
                    byte[] got = bytes(tile);
                    if (got == null) throw new ArgumentNullException("the loader's bytes for tile " + tile);
                    Unpin();
                    pinned = GCHandle.Alloc(got, GCHandleType.Pinned);
                    Marshal.WriteIntPtr(data, pinned.AddrOfPinnedObject());
                    Marshal.WriteIntPtr(len, (IntPtr)got.Length);
                }
                return Status.Ok;
            }
            catch (Exception x)
            {
                loaderError = x;
                var ne = x as NavbakeException;
                Status st = ne != null && ne.Status != Status.Ok ? ne.Status : Status.Io;
                ErrBuffer.Write(e, st, x.GetType().Name + ": " + x.Message);
                return st;
            }
        }
        void Released(IntPtr opaque, WorldTile tile, IntPtr data) { Unpin(); }
        void Unpin() { if (pinned.IsAllocated) pinned.Free(); }

        void Done(Status st)
        {
            Unpin();   // the load copied the bytes, whether or not it succeeded
            var inner = loaderError;
            loaderError = null;
            if (st != Status.Ok) err.Throw(st, inner);
        }

        /// <summary>nb_world_reachable: whether a path joins world cells from and
        /// to for an agent of (cap, size), in O(1); UnloadedException naming
        /// the tiles it needs when a cell's tile is not loaded.</summary>
        public bool Reachable(uint cap, uint size, Cell from, Cell to)
        {
            var h = H;
            var e = Errs.Local;
            if (needed == null) needed = new WorldTile[2];
            int r;
            UIntPtr count;
            Status st = Native.nb_world_reachable(h, cap, size, from, to, out r, needed, (UIntPtr)needed.Length, out count, e.Ptr);
            if (st == Status.Unloaded)
            {
                var list = new WorldTile[Math.Min((int)count, needed.Length)];
                Array.Copy(needed, list, list.Length);
                throw new UnloadedException(e.Message, list);
            }
            e.Check(st);
            return r != 0;
        }
    }
}
