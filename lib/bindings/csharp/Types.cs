// Types.cs: navbake.h's enums and structs, laid out exactly as the C ABI
// (tests/layout.sh compares every size and offset with the C compiler's).
// Pointer fields are internal: a query's costs and overlay are given to a
// workspace's Find, which keeps them alive for the call; a result's path
// is copied out by the workspace into the caller's array.
using System;
using System.Runtime.InteropServices;

namespace Navbake
{
    public enum Status
    {
        Ok = 0, Arg, Io, NoMem, Syntax, Format, Version, Crc, NotFound, Unsupported, Limit, Outside,
        Unloaded, Mismatch, Cancelled
    }

    public enum PathStatus
    {
        Found = 0, None, StartBlocked, GoalBlocked, Limit, BeyondRadius, Partial
    }

    public enum SectionType : uint
    {
        Legend = 1, Agents = 2, Map = 3, Clearance = 16, Components = 17, Runs = 18, Subgoal = 19,
        Abstract = 32, AbstractCosts = 33, AbstractLevels = 34, Model = 48, Perimeter = 49,
        Unit = 64, Hitcheck = 65, Curves = 66, Forest = 80, Bitangent = 81
    }

    public enum Corner { Strict = 0, Weak = 1 }
    public enum BundleForm { Binary = 0, Sqlite = 1 }
    public enum MotionHeuristic
    {
        Octile = 0, Perimeter, Extended, Grid, PerimeterGrid, ExtendedGrid, Heading, PerimeterHeading, ExtendedHeading
    }
    public enum RouteAbstraction { Sectors = 0, Haa = 1 }
    public enum PerimeterLayout { Full = 0, SpeedLimited = 1, Symmetric = 2, Rotated = 3 }
    public enum SegmentKind { Line = 0, Arc = 1 }
    public enum PlanMethod { Directional = 0, Hybrid = 1, Presmooth = 2, Lines = 3 }

    /// <summary>Constants of navbake.h.</summary>
    public static class Flags
    {
        public const uint OpenVerify = 0x1, OpenPrivate = 0x2;
        public const uint HaaSmooth = 0x1, HaaStraighten = 0x2;
        public const uint PlanOnTheFly = 0x1, PlanSmooth = 0x2, PlanForward = 0x4, PlanLocalBound = 0x8;
        public const uint ForestNoPrune = 0x1, ForestPlain = 0x2, ForestDeferred = 0x4;
        public const int ReachUnknown = 2;
        public const int PerimOutside = 0, PerimExact = 1, PerimApprox = 2;
        public const ushort HeadingAny = 0xffff, SpeedAny = 0xffff;
        public const double NearestRadius = 64.0;
        public const int MaxTerrains = 32;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Cell
    {
        public int X, Y;
        public Cell(int x, int y) { X = x; Y = y; }
        public override string ToString() { return X + "," + Y; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Vec2
    {
        public double X, Y;
        public Vec2(double x, double y) { X = x; Y = y; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Frame
    {
        public double OriginX, OriginY, Cell;
        public int YUp;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Pose
    {
        public double X, Y, Heading;
        public Pose(double x, double y, double heading) { X = x; Y = y; Heading = heading; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Segment
    {
        public SegmentKind Kind;
        public int Turn, Gear;
        public double X, Y, Heading, Length, Cx, Cy, Radius;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Curve
    {
        public double Length;
        public uint Count;
        internal byte Word0, Word1, Word2, Word3;
        public uint Variant;
        public Segment Seg0, Seg1, Seg2, Seg3;
        /// <summary>"LSR", "RLR", ...</summary>
        public string Word
        {
            get
            {
                var w = new char[] { (char)Word0, (char)Word1, (char)Word2, (char)Word3 };
                int n = 0;
                while (n < 4 && w[n] != '\0') n++;
                return new string(w, 0, n);
            }
        }
        public Segment this[int i]
        {
            get
            {
                switch (i) { case 0: return Seg0; case 1: return Seg1; case 2: return Seg2; case 3: return Seg3; }
                throw new IndexOutOfRangeException();
            }
        }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct Circle
    {
        public double X, Y, R;
        public Circle(double x, double y, double r) { X = x; Y = y; R = r; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct MotionState
    {
        public int X, Y;
        public ushort Heading, Speed;
        public MotionState(int x, int y, ushort heading, ushort speed) { X = x; Y = y; Heading = heading; Speed = speed; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public unsafe struct SectionInfo
    {
        public uint Type;
        public ushort Version, Encoding;
        public ulong Offset, Size, Usize;
        public uint Crc, Flags;
        internal fixed uint Param[8];
        internal fixed byte Name[32];
        public uint GetParam(int i) { if (i < 0 || i >= 8) throw new ArgumentOutOfRangeException("i"); fixed (uint* p = Param) return p[i]; }
        public string GetName() { fixed (byte* p = Name) return Text.FromUtf8((IntPtr)p); }
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct AgentNative
    {
        public fixed byte Name[32];
        public uint Size, Capability;
        public int Weighted;
        public fixed double Cost[32];
    }

    [StructLayout(LayoutKind.Sequential)]
    internal unsafe struct UnitNative
    {
        public fixed byte Name[32];
        public double Radius, Width;
        public uint Headings, Neighbourhood;
        public int Reverse;
        public double ReversePenalty;
        public uint Capability;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct HaaGraphNative
    {
        public uint Cluster;
        public IntPtr Quality, Placement;
        public uint Nodes, Edges, InterEdges;
        public int Paths;
        public UIntPtr Bytes;
        public uint Levels, LevelFactor;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct ForestGraphInfo
    {
        public double AgentRadius;
        public uint Nodes, Transitions, Candidates;
        public ulong Arcs;
        public uint FreeArcs;
    }

    // ---- queries and results -------------------------------------------

    [StructLayout(LayoutKind.Sequential)]
    public struct AaQuery
    {
        public Cell Start, Goal;
        public uint Size, Capability;
        public Corner Corner;
        public ulong MaxExpansions;
        internal IntPtr Costs, Overlay;
        public int Partial;
        /// <summary>The defaults of nb_aa_query_init: size 1, strict corners, no limit.</summary>
        /// <summary>The agent's size and capability (nb_aa_query_agent; its terrain costs go to Find).</summary>
        public void SetAgent(Agent a) { Size = a.Size; Capability = a.Capability; }
        public static AaQuery Init() { AaQuery q; Abi.Check(Native.nb_aa_query_init_abi(out q, ref Abi.This)); return q; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct AaResult
    {
        public PathStatus Status;
        public double Length, Cost;
        public ulong Expanded;
        public int Searched;
        internal UIntPtr PathLen;
        internal IntPtr Path;
        public int PathLength { get { return (int)PathLen; } }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct SgQuery
    {
        public Cell Start, Goal;
        public uint Size, Capability;
        public Corner Corner;
        public ulong MaxExpansions;
        internal IntPtr Costs, Overlay;
        public int Partial;
        /// <summary>The agent's size and capability (nb_sg_query_agent; its terrain costs go to Find).</summary>
        public void SetAgent(Agent a) { Size = a.Size; Capability = a.Capability; }
        public static SgQuery Init() { SgQuery q; Abi.Check(Native.nb_sg_query_init_abi(out q, ref Abi.This)); return q; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct SgResult
    {
        public PathStatus Status;
        public double Length;
        public ulong Expanded, Scanned;
        public int Searched;
        internal UIntPtr PathLen;
        internal IntPtr Path;
        internal UIntPtr WaypointLen;
        internal IntPtr Waypoints;
        public int Fallback;
        public double Cost;
        public int PathLength { get { return (int)PathLen; } }
        public int WaypointLength { get { return (int)WaypointLen; } }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct HaaQuery
    {
        public Cell Start, Goal;
        public uint Size, Capability;
        public Corner Corner;
        public ulong MaxExpansions;
        internal IntPtr Costs, Overlay;
        public uint Flags;
        public int Partial;
        /// <summary>The agent's size and capability (nb_haa_query_agent; its terrain costs go to Find).</summary>
        public void SetAgent(Agent a) { Size = a.Size; Capability = a.Capability; }
        public static HaaQuery Init() { HaaQuery q; Abi.Check(Native.nb_haa_query_init_abi(out q, ref Abi.This)); return q; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct HaaResult
    {
        public PathStatus Status;
        public double Length, Cost, CellLength, AbstractLength;
        public ulong Expanded, ExpandedInsert, ExpandedSearch, ExpandedRefine;
        public int Searched;
        internal UIntPtr AbstractLen;
        internal UIntPtr PathLen;
        internal IntPtr Path;
        public uint Level;
        public int PathLength { get { return (int)PathLen; } }
        public int AbstractNodes { get { return (int)AbstractLen; } }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct MotionQuery
    {
        public MotionState Start, Goal;
        public MotionHeuristic Heuristic;
        public double Weight;
        public uint Truncate;
        public ulong MaxExpansions;
        internal IntPtr Overlay;
        public int Reopen, WaypointHeading;
        public uint HeadingClasses;
        public RouteAbstraction Abstraction;
        public static MotionQuery Init() { MotionQuery q; Abi.Check(Native.nb_motion_query_init_abi(out q, ref Abi.This)); return q; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct MotionResult
    {
        public PathStatus Status;
        public double Cost, HStart;
        public ulong Expanded, Generated, Reopened, GridExpanded;
        internal UIntPtr PathLen;
        internal IntPtr Path;
        public MotionState End;
        public int PathLength { get { return (int)PathLen; } }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct PlannerQuery
    {
        public Pose Start;
        public Cell Goal;
        public int GoalHeading;
        public PlanMethod Method;
        public uint Neighbourhood, Flags;
        public ulong MaxExpansions;
        public uint Window;
        internal IntPtr Overlay;
        public static PlannerQuery Init() { PlannerQuery q; Abi.Check(Native.nb_planner_query_init_abi(out q, ref Abi.This)); return q; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct PlannerResult
    {
        public PathStatus Status;
        internal IntPtr ReasonPtr;
        public double Length, Cost;
        internal UIntPtr SegmentLen;
        internal IntPtr Segments;
        internal UIntPtr WaypointLen;
        internal IntPtr Waypoints;
        public ulong Expanded, Generated;
        public int Fallback;
        public int SegmentLength { get { return (int)SegmentLen; } }
        public int WaypointLength { get { return (int)WaypointLen; } }
        /// <summary>Why no path was found (a constant string of the library), or null.</summary>
        public string Reason { get { return Text.FromUtf8(ReasonPtr); } }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct ForestQuery
    {
        public Vec2 Start, Goal;
        public double AgentRadius;
        public uint Flags;
        public ulong MaxExpansions;
        public static ForestQuery Init() { ForestQuery q; Abi.Check(Native.nb_forest_query_init_abi(out q, ref Abi.This)); return q; }
    }

    // nb_forest_result holds a C long (blocked_by): 8 bytes on Linux and
    // macOS, 4 on Windows, so it has a layout for each; ForestResult is
    // what the caller sees.
    [StructLayout(LayoutKind.Sequential)]
    internal struct ForestResultLp64
    {
        public PathStatus Status;
        public long BlockedBy;
        public Vec2 Start, Goal;
        public double Length;
        public UIntPtr SegmentLen;
        public IntPtr Segments;
        public ulong Expanded, Generated, Pruned, LosTests, CirclesOpened;
    }

    [StructLayout(LayoutKind.Sequential)]
    internal struct ForestResultLlp64
    {
        public PathStatus Status;
        public int BlockedBy;
        public Vec2 Start, Goal;
        public double Length;
        public UIntPtr SegmentLen;
        public IntPtr Segments;
        public ulong Expanded, Generated, Pruned, LosTests, CirclesOpened;
    }

    public struct ForestResult
    {
        public PathStatus Status;
        public long BlockedBy;
        public Vec2 Start, Goal;
        public double Length;
        public int SegmentLength;
        public ulong Expanded, Generated, Pruned, LosTests, CirclesOpened;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct NearestQuery
    {
        public Cell Point;
        public double Radius;
        public int Reachable;
        public Cell Start;
        public uint Size, Capability;
        public ulong MaxExpansions;
        internal IntPtr Overlay;
        /// <summary>The agent's size and capability (nb_nearest_query_agent; its terrain costs go to Find).</summary>
        public void SetAgent(Agent a) { Size = a.Size; Capability = a.Capability; }
        public static NearestQuery Init() { NearestQuery q; Abi.Check(Native.nb_nearest_query_init_abi(out q, ref Abi.This)); return q; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct NearestResult
    {
        public PathStatus Status;
        public Cell Cell;
        public double Distance;
        public ulong Examined, Expanded;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct LineQuery
    {
        public Vec2 Start, Goal;
        public uint Size, Capability;
        public ulong MaxExpansions;
        internal IntPtr Overlay;
        /// <summary>The agent's size and capability (nb_line_query_agent; its terrain costs go to Find).</summary>
        public void SetAgent(Agent a) { Size = a.Size; Capability = a.Capability; }
        public static LineQuery Init() { LineQuery q; Abi.Check(Native.nb_line_query_init_abi(out q, ref Abi.This)); return q; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct LineResult
    {
        public PathStatus Status;
        public double T;
        public Vec2 Last;
        public Cell Blocking;
        public ulong Examined;
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct RandomQuery
    {
        public int Reachable;
        public Cell Start;
        public ulong Seed;
        public uint Size, Capability;
        public ulong MaxExpansions;
        internal IntPtr Overlay;
        /// <summary>The agent's size and capability (nb_random_query_agent; its terrain costs go to Find).</summary>
        public void SetAgent(Agent a) { Size = a.Size; Capability = a.Capability; }
        public static RandomQuery Init() { RandomQuery q; Abi.Check(Native.nb_random_query_init_abi(out q, ref Abi.This)); return q; }
    }

    [StructLayout(LayoutKind.Sequential)]
    public struct RandomResult
    {
        public PathStatus Status;
        public Cell Cell;
        public uint Component;
        public ulong Cells, State, Draws, Expanded;
    }

    /// <summary>A tile's place in a world's grid of tiles (nb_world_tile).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct WorldTile
    {
        public uint Column, Row;
        public WorldTile(uint column, uint row) { Column = column; Row = row; }
        public override string ToString() { return Column + "_" + Row; }
    }

    /// <summary>What a world is and holds now (nb_world_info).</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct WorldInfo
    {
        public uint Width, Height, Tile, Cluster, Halo, Columns, Rows, Loaded;
        public ulong Retired;
    }
}
