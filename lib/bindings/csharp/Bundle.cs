// Bundle.cs: a bundle (read-only once open: share one between threads,
// each with its own workspaces), its section table, its level, and the
// look-ups that read its layers in place.
using System;
using System.Runtime.InteropServices;

namespace Navbake
{
    /// <summary>An agent type of the bundle's agent set (a copy of nb_agent).</summary>
    public sealed class Agent
    {
        public string Name { get; internal set; }
        public uint Size { get; internal set; }
        public uint Capability { get; internal set; }
        /// <summary>Its terrain costs (one per terrain), or null when it has none.</summary>
        public double[] Costs { get; internal set; }
    }

    /// <summary>What a workspace's HAA* graph is (nb_haa_graph).</summary>
    public sealed class HaaGraph
    {
        public uint Cluster, Nodes, Edges, InterEdges, Levels, LevelFactor;
        public string Quality, Placement;
        public bool Paths;
        public ulong Bytes;
    }

    /// <summary>A unit with a turning radius (nb_unit).</summary>
    public sealed class Unit
    {
        public string Name;
        public double Radius, Width, ReversePenalty;
        public uint Headings, Neighbourhood, Capability;
        public bool Reverse;

        internal static unsafe Unit Of(ref UnitNative u)
        {
            string name;
            fixed (byte* p = u.Name) name = Text.FromUtf8((IntPtr)p);
            return new Unit { Name = name, Radius = u.Radius, Width = u.Width, Headings = u.Headings,
                Neighbourhood = u.Neighbourhood, Reverse = u.Reverse != 0, ReversePenalty = u.ReversePenalty,
                Capability = u.Capability };
        }
    }

    public sealed class Bundle : IDisposable
    {
        internal readonly BundleHandle Handle;

        Bundle(BundleHandle h) { Handle = h; }

        /// <summary>A bundle another handle owns (a world's), kept until this one is released.</summary>
        internal static Bundle Borrow(IntPtr p, SafeHandle owner)
        {
            var h = new BundleHandle();
            h.Borrowed = true;
            h.Adopt(p);
            h.HoldParent(owner);
            return new Bundle(h);
        }

        /// <summary>nb_bundle_open: maps a bundle file (flags: Flags.OpenVerify, Flags.OpenPrivate).</summary>
        public static Bundle Open(string path, uint flags = 0)
        {
            if (path == null) throw new ArgumentNullException("path");
            var e = Errs.Local;
            BundleHandle h;
            Status st = Native.nb_bundle_open_abi(Text.ToUtf8(path), flags, IntPtr.Zero, out h, e.Ptr, ref Abi.This);
            if (st != Status.Ok) { h.Dispose(); e.Throw(st); }
            return new Bundle(h);
        }

        /// <summary>nb_bundle_open_memory: a bundle from bytes (copied).</summary>
        public static Bundle OpenMemory(byte[] data, uint flags = 0)
        {
            if (data == null) throw new ArgumentNullException("data");
            var e = Errs.Local;
            BundleHandle h;
            Status st = Native.nb_bundle_open_memory_abi(data, (UIntPtr)data.Length, flags, IntPtr.Zero, out h, e.Ptr, ref Abi.This);
            if (st != Status.Ok) { h.Dispose(); e.Throw(st); }
            return new Bundle(h);
        }

        public void Dispose() { Handle.Shut(); }
        public bool IsClosed { get { return Handle.IsShut; } }
        internal BundleHandle H { get { Handle.Live("Bundle"); return Handle; } }

        public static string Version { get { return Text.FromUtf8(Native.nb_version()); } }
        public static bool SqliteSupported { get { return Native.nb_sqlite_supported() != 0; } }
        public static string StatusString(Status s) { return Text.FromUtf8(Native.nb_status_str(s)); }
        public static string PathStatusString(PathStatus s) { return Text.FromUtf8(Native.nb_path_status_str(s)); }

        /// <summary>nb_abi_check with the binding's own struct sizes.</summary>
        public static void CheckAbi()
        {
            var e = Errs.Local;
            e.Check(Native.nb_abi_check(ref Abi.This, e.Ptr));
        }
        /// <summary>The library's size of struct number i of NB_ABI_STRUCTS (0 past the end), and its name.</summary>
        public static uint AbiSize(uint i) { return Native.nb_abi_size(i); }
        public static string AbiName(uint i) { return Text.FromUtf8(Native.nb_abi_name(i)); }

        public void Verify() { Errs.Local.Check(Native.nb_bundle_verify(H, Errs.Local.Ptr)); }
        public Version FormatVersion
        {
            get { uint a, b; Native.nb_bundle_format_version(H, out a, out b); return new Version((int)a, (int)b); }
        }
        public ulong FileSize { get { return Native.nb_bundle_file_size(H); } }
        public BundleForm Form { get { return Native.nb_bundle_form_of(H); } }

        public int SectionCount { get { return (int)Native.nb_bundle_section_count(H); } }
        public SectionInfo Section(int index)
        {
            IntPtr p = Native.nb_bundle_section_get(H, (UIntPtr)(uint)index);
            if (p == IntPtr.Zero) throw new ArgumentOutOfRangeException("index");
            return (SectionInfo)Marshal.PtrToStructure(p, typeof(SectionInfo));
        }
        /// <summary>The first section of this type (and name, and leading parameters when given).</summary>
        public int SectionLookup(uint type, string name = null, uint[] parameters = null)
        {
            UIntPtr i;
            Errs.Local.Check(Native.nb_bundle_section_lookup(H, type, Text.ToUtf8(name), parameters,
                (UIntPtr)(parameters == null ? 0 : parameters.Length), out i, Errs.Local.Ptr));
            return (int)i;
        }
        /// <summary>A copy of a section's decoded payload.</summary>
        public byte[] Payload(int index)
        {
            IntPtr data; UIntPtr len;
            Errs.Local.Check(Native.nb_bundle_payload(H, (UIntPtr)(uint)index, out data, out len, Errs.Local.Ptr));
            var b = new byte[(int)len];
            if (b.Length > 0) Marshal.Copy(data, b, 0, b.Length);
            GC.KeepAlive(this);
            return b;
        }
        public static string SectionTypeName(uint type) { return Text.FromUtf8(Native.nb_section_type_name(type)); }
        public static uint SectionTypeParse(string name)
        {
            var e = Errs.Local; uint t;
            e.Check(Native.nb_section_type_parse(Text.ToUtf8(name), out t, e.Ptr));
            return t;
        }
        public static string SectionParamName(uint type, uint i) { return Text.FromUtf8(Native.nb_section_param_name(type, i)); }
        public static uint SectionParam(SectionInfo info, uint i) { return Native.nb_section_param(ref info, i); }
        public static string EncodingName(ushort encoding) { return Text.FromUtf8(Native.nb_encoding_name(encoding)); }

        // ---- the level ----
        public int TerrainCount { get { return (int)Native.nb_terrain_count(H); } }
        public string TerrainName(int t) { var s = Text.FromUtf8(Native.nb_terrain_name(H, (uint)t)); GC.KeepAlive(this); return s; }
        public string TerrainChars(int t) { var s = Text.FromUtf8(Native.nb_terrain_chars(H, (uint)t)); GC.KeepAlive(this); return s; }
        public string ObstacleChars { get { var s = Text.FromUtf8(Native.nb_obstacle_chars(H)); GC.KeepAlive(this); return s; } }
        public uint CapabilityParse(string list)
        {
            uint c;
            Errs.Local.Check(Native.nb_capability_parse(H, Text.ToUtf8(list), out c, Errs.Local.Ptr));
            return c;
        }
        public string CapabilityFormat(uint cap)
        {
            var buf = new byte[256];
            int n = (int)Native.nb_capability_format(H, cap, buf, (UIntPtr)buf.Length);
            if (n >= buf.Length) { buf = new byte[n + 1]; Native.nb_capability_format(H, cap, buf, (UIntPtr)buf.Length); }
            return System.Text.Encoding.UTF8.GetString(buf, 0, n);
        }

        public int AgentCount { get { return (int)Native.nb_agent_count(H); } }
        public unsafe Agent Agent(int index)
        {
            IntPtr p = Native.nb_agent_get(H, (UIntPtr)(uint)index);
            if (p == IntPtr.Zero) throw new ArgumentOutOfRangeException("index");
            var a = (AgentNative*)p;
            var r = new Agent { Name = Text.FromUtf8((IntPtr)a->Name), Size = a->Size, Capability = a->Capability };
            if (a->Weighted != 0)
            {
                int n = TerrainCount;
                r.Costs = new double[n];
                for (int t = 0; t < n; t++) r.Costs[t] = a->Cost[t];
            }
            GC.KeepAlive(this);
            return r;
        }
        public int AgentLookup(string name)
        {
            UIntPtr i;
            Errs.Local.Check(Native.nb_agent_lookup(H, Text.ToUtf8(name), out i, Errs.Local.Ptr));
            return (int)i;
        }
        public Agent Agent(string name) { return Agent(AgentLookup(name)); }

        public bool HasMap { get { return Native.nb_has_map(H) != 0; } }
        public int Width { get { return (int)Native.nb_map_width(H); } }
        public int Height { get { return (int)Native.nb_map_height(H); } }
        public int Terrain(long x, long y) { return Native.nb_map_terrain(H, x, y); }
        public char MapChar(long x, long y) { return (char)Native.nb_map_char(H, x, y); }

        // ---- clearance and reachability ----
        public int Clearance(uint cap, long x, long y) { return Native.nb_clearance(H, cap, x, y); }
        public int ClearanceCap(uint cap) { return Native.nb_clearance_cap(H, cap); }
        public int CanStand(uint cap, uint size, long x, long y) { return Native.nb_can_stand(H, cap, size, x, y); }
        public int Reachable(uint cap, uint size, Cell from, Cell to) { return Native.nb_reachable(H, cap, size, from, to); }
        public int Component(uint cap, uint size, long x, long y) { return (int)Native.nb_component(H, cap, size, x, y); }

        // ---- units ----
        public int UnitCount { get { return (int)Native.nb_unit_count(H); } }
        public Unit Unit(int index)
        {
            UnitNative u;
            Errs.Local.Check(Native.nb_unit_get(H, (UIntPtr)(uint)index, out u, Errs.Local.Ptr));
            return Navbake.Unit.Of(ref u);
        }
        public int UnitLookup(string name)
        {
            UIntPtr i;
            Errs.Local.Check(Native.nb_unit_lookup(H, Text.ToUtf8(name), out i, Errs.Local.Ptr));
            return (int)i;
        }
    }

    /// <summary>Positions: a game's centres and an agent's anchor cell.</summary>
    public static class Frames
    {
        public static Frame Grid() { Frame f; Native.nb_frame_init(out f); return f; }
        public static Cell AnchorOfCentre(Frame frame, Vec2 centre, uint size) { return Native.nb_anchor_of_centre(ref frame, centre, size); }
        public static Vec2 CentreOfAnchor(Frame frame, Cell anchor, uint size) { return Native.nb_centre_of_anchor(ref frame, anchor, size); }
    }
}
