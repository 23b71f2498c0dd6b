// Bake.cs: baking in-process through the bake library (navbake_bake.h,
// libnavbake_bake): a level from a grid of terrain ids, MovingAI text or
// any level file the bakers read, with the legend and agents from YAML
// text, baked into a bundle's bytes or written to a file.  The bytes are
// what mkclear then mkabstract write for the same level and options.
using System;
using System.Runtime.InteropServices;

namespace Navbake
{
    /// <summary>What a bake makes (nb_bake_options); null fields keep the library's defaults.</summary>
    public sealed class BakeSettings
    {
        /// <summary>The HAA* graph, its levels and cost profiles (mkabstract); true by default.</summary>
        public bool Abstract = true;
        /// <summary>Optimal-search layers with strict (Optimal) and weak (OptimalWeak) corners.</summary>
        public bool Optimal, OptimalWeak;
        /// <summary>Sections stored as zlib streams.</summary>
        public bool Zlib;
        public uint? Cluster, Levels, Landmarks, Threads, Quality, Placement;
        /// <summary>Told the fraction done (0 to 1) on the baking thread; true cancels
        /// the bake (NavbakeException, Status.Cancelled, nothing written).  An
        /// exception it throws cancels too and is the InnerException of the one thrown.</summary>
        public Func<double, bool> Progress;
    }

    public sealed class BakeHandle : NavbakeHandle
    {
        protected override void Close(IntPtr h) { NativeBake.nb_bake_close(h); }
    }

    /// <summary>A level being made and baked (nb_bake).  One Baker bakes on one thread at a time.</summary>
    public sealed class Baker : IDisposable
    {
        public const byte Obstacle = 255;   // NB_BAKE_OBSTACLE
        internal readonly BakeHandle Handle;
        readonly ErrBuffer err = new ErrBuffer();
        // The callback the library calls during a bake, kept from the collector
        // until the bake returns, and what the caller's Progress threw.
        NativeBake.ProgressFn progress;
        Func<double, bool> userProgress;
        Exception progressError;

        public Baker()
        {
            var e = Errs.Local; BakeHandle h;
            Status st = NativeBake.nb_bake_open_abi(IntPtr.Zero, out h, e.Ptr, ref Abi.This, ref NativeBake.BakeAbi);
            Handle = e.Opened(st, h);
        }

        public void Dispose() { Handle.Shut(); err.Dispose(); GC.SuppressFinalize(this); }
        public bool IsClosed { get { return Handle.IsShut; } }
        BakeHandle H { get { Handle.Live("Baker"); return Handle; } }

        /// <summary>The bake library's ABI guard against this binding's nb_bake_options.</summary>
        public static void CheckAbi() { var e = Errs.Local; e.Check(NativeBake.nb_bake_abi_check(ref NativeBake.BakeAbi, e.Ptr)); }

        static byte[] Bytes(string s) { return s == null ? null : System.Text.Encoding.UTF8.GetBytes(s); }
        static UIntPtr Len(byte[] b) { return (UIntPtr)(b == null ? 0 : b.Length); }

        /// <summary>The terrain legend from its YAML text (null: the default); drops the agents and grid.</summary>
        public void SetLegend(string yaml, string name = null)
        {
            var b = Bytes(yaml);
            err.Check(NativeBake.nb_bake_set_legend(H, b, Len(b), Text.ToUtf8(name), err.Ptr));
        }
        /// <summary>The agent set from its YAML text (null: the default).</summary>
        public void SetAgents(string yaml, string name = null)
        {
            var b = Bytes(yaml);
            err.Check(NativeBake.nb_bake_set_agents(H, b, Len(b), Text.ToUtf8(name), err.Ptr));
        }
        /// <summary>The grid of terrain ids, row after row (0 .. TerrainCount - 1, or Obstacle).</summary>
        public void SetGrid(byte[] cells, int width, int height)
        {
            if (cells == null) throw new ArgumentNullException("cells");
            if (width < 0 || height < 0 || (long)width * height != cells.Length)
                throw new ArgumentException("a " + width + "x" + height + " grid has " + ((long)width * height) + " cells, not " + cells.Length, "cells");
            err.Check(NativeBake.nb_bake_set_grid(H, (uint)width, (uint)height, cells, err.Ptr));
        }
        /// <summary>The grid from a MovingAI map's text, in the legend's characters.</summary>
        public void SetMap(string text, string name = null)
        {
            if (text == null) throw new ArgumentNullException("text");
            var b = Bytes(text);
            err.Check(NativeBake.nb_bake_set_map(H, b, Len(b), Text.ToUtf8(name), err.Ptr));
        }
        /// <summary>Reads a level from its files as mkclear does (MovingAI, Tiled, LDtk, image,
        /// heightmap by its extension); legend and agents null: the defaults.</summary>
        public void ReadLevel(string level, string legend = null, string agents = null)
        {
            if (level == null) throw new ArgumentNullException("level");
            err.Check(NativeBake.nb_bake_read_level(H, Text.ToUtf8(legend), Text.ToUtf8(agents), Text.ToUtf8(level), err.Ptr));
        }
        public uint TerrainCount { get { return NativeBake.nb_bake_terrain_count(H); } }
        /// <summary>The id of the terrain called name (NavbakeException, Status.NotFound, naming those there are).</summary>
        public uint Terrain(string name)
        {
            uint id;
            err.Check(NativeBake.nb_bake_terrain_lookup(H, Text.ToUtf8(name), out id, err.Ptr));
            return id;
        }

        /// <summary>The bundle's bytes.</summary>
        public byte[] Bake(BakeSettings settings = null)
        {
            var h = H;
            var o = Options(settings);
            IntPtr data; UIntPtr len;
            Status st = NativeBake.nb_bake_memory(h, ref o, out data, out len, err.Ptr);
            Done(st);
            try
            {
                var b = new byte[(long)len];
                if (b.Length > 0) Marshal.Copy(data, b, 0, b.Length);
                return b;
            }
            finally { NativeBake.nb_bake_free(h, data); }
        }

        /// <summary>Writes the bundle to path (binary, or SQLite by its name); a failure or a
        /// cancel leaves any file there as it was.</summary>
        public void Write(string path, BakeSettings settings = null)
        {
            if (path == null) throw new ArgumentNullException("path");
            var h = H;
            var o = Options(settings);
            Done(NativeBake.nb_bake_write(h, ref o, Text.ToUtf8(path), err.Ptr));
        }

        NativeBake.Options Options(BakeSettings s)
        {
            NativeBake.Options o;
            err.Check(NativeBake.nb_bake_options_init_abi(out o, ref Abi.This, ref NativeBake.BakeAbi));
            progressError = null;
            userProgress = null;
            if (s == null) return o;
            o.Flags = (s.Abstract ? 1u : 0) | (s.Optimal ? 2u : 0) | (s.OptimalWeak ? 4u : 0) | (s.Zlib ? 8u : 0);
            if (s.Cluster.HasValue) o.Cluster = s.Cluster.Value;
            if (s.Levels.HasValue) o.Levels = s.Levels.Value;
            if (s.Landmarks.HasValue) o.Landmarks = s.Landmarks.Value;
            if (s.Threads.HasValue) o.Threads = s.Threads.Value;
            if (s.Quality.HasValue) o.Quality = s.Quality.Value;
            if (s.Placement.HasValue) o.Placement = s.Placement.Value;
            if (s.Progress != null)
            {
                userProgress = s.Progress;
                if (progress == null) progress = Told;
                o.Progress = Marshal.GetFunctionPointerForDelegate(progress);
            }
            return o;
        }

        // Called by the library on the baking thread.  An exception may not
        // cross the native frames: it cancels the bake and is kept for Done.
        int Told(IntPtr arg, double fraction)
        {
            try { return userProgress(fraction) ? 1 : 0; }
            catch (Exception x) { progressError = x; return 1; }
        }

        void Done(Status st)
        {
            var inner = progressError;
            progressError = null;
            userProgress = null;
            GC.KeepAlive(progress);
            if (st != Status.Ok) err.Throw(st, inner);
        }
    }

    internal static class NativeBake
    {
        // libnavbake_bake.so on Linux, navbake_bake.dll on Windows.
        internal const string Lib = "navbake_bake";
        const CallingConvention C = CallingConvention.Cdecl;

        [UnmanagedFunctionPointer(C)] internal delegate int ProgressFn(IntPtr arg, double fraction);

        [StructLayout(LayoutKind.Sequential)]
        internal struct Options
        {
            public uint Flags, Cluster, Levels, Landmarks, Threads, Quality, Placement, Reserved;
            public IntPtr Progress, ProgressArg;
        }

        // NB_BAKE_ABI_STRUCTS: nb_bake_options alone.  Lives as long as the process.
        static readonly IntPtr sizes = MakeSizes();
        static IntPtr MakeSizes()
        {
            var p = Marshal.AllocHGlobal(4);
            Marshal.WriteInt32(p, Marshal.SizeOf(typeof(Options)));
            return p;
        }
        internal static Native.Abi BakeAbi = new Native.Abi { Major = Abi.Major, Minor = Abi.Minor, Count = 1, Sizes = sizes };

        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_bake_options_init_abi(out Options o, ref Native.Abi abi, ref Native.Abi bakeAbi);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_bake_open_abi(IntPtr alloc, out BakeHandle bake, IntPtr err, ref Native.Abi abi, ref Native.Abi bakeAbi);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_bake_close(IntPtr bake);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_bake_set_legend(BakeHandle b, byte[] yaml, UIntPtr len, byte[] name, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_bake_set_agents(BakeHandle b, byte[] yaml, UIntPtr len, byte[] name, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_bake_set_grid(BakeHandle b, uint width, uint height, byte[] terrain, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_bake_set_map(BakeHandle b, byte[] text, UIntPtr len, byte[] name, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_bake_read_level(BakeHandle b, byte[] legend, byte[] agents, byte[] level, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern uint nb_bake_terrain_count(BakeHandle b);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_bake_terrain_lookup(BakeHandle b, byte[] name, out uint id, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_bake_memory(BakeHandle b, ref Options o, out IntPtr data, out UIntPtr len, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_bake_free(BakeHandle b, IntPtr data);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_bake_write(BakeHandle b, ref Options o, byte[] path, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_bake_abi_check(ref Native.Abi bakeAbi, IntPtr err);
    }
}
