// Abi.cs: the binding's side of navbake.h's ABI guard.  The binding
// declares the structs itself, so it passes their sizes as it laid them
// out (Marshal.SizeOf), in the order of NB_ABI_STRUCTS; the library refuses
// a binding that has fallen behind its header with NB_ERR_VERSION naming
// the struct, rather than read or write past one.
using System;
using System.Runtime.InteropServices;

namespace Navbake
{
    internal static class Abi
    {
        internal const uint Major = 1, Minor = 0;
        internal static readonly bool Llp64 = Environment.OSVersion.Platform == PlatformID.Win32NT;

        // NB_ABI_STRUCTS, in its order.
        internal static readonly string[] Names = {
            "nb_err", "nb_allocator", "nb_section_info", "nb_agent", "nb_cell", "nb_vec2", "nb_frame",
            "nb_aa_query", "nb_aa_result", "nb_sg_query", "nb_sg_result", "nb_haa_query",
            "nb_haa_result", "nb_haa_graph", "nb_motion_state", "nb_motion_query", "nb_motion_result",
            "nb_pose", "nb_segment", "nb_curve", "nb_unit", "nb_planner_query", "nb_planner_result",
            "nb_circle", "nb_forest_graph_info", "nb_forest_query", "nb_forest_result",
            "nb_nearest_query", "nb_nearest_result", "nb_line_query", "nb_line_result",
            "nb_random_query", "nb_random_result", "nb_world_tile", "nb_world_info" };

        /// <summary>The binding's type for a struct of navbake.h, or null (nb_err, nb_allocator).</summary>
        internal static Type TypeOf(string name)
        {
            switch (name)
            {
                case "nb_section_info": return typeof(SectionInfo);
                case "nb_agent": return typeof(AgentNative);
                case "nb_cell": return typeof(Cell);
                case "nb_vec2": return typeof(Vec2);
                case "nb_frame": return typeof(Frame);
                case "nb_aa_query": return typeof(AaQuery);
                case "nb_aa_result": return typeof(AaResult);
                case "nb_sg_query": return typeof(SgQuery);
                case "nb_sg_result": return typeof(SgResult);
                case "nb_haa_query": return typeof(HaaQuery);
                case "nb_haa_result": return typeof(HaaResult);
                case "nb_haa_graph": return typeof(HaaGraphNative);
                case "nb_motion_state": return typeof(MotionState);
                case "nb_motion_query": return typeof(MotionQuery);
                case "nb_motion_result": return typeof(MotionResult);
                case "nb_pose": return typeof(Pose);
                case "nb_segment": return typeof(Segment);
                case "nb_curve": return typeof(Curve);
                case "nb_unit": return typeof(UnitNative);
                case "nb_planner_query": return typeof(PlannerQuery);
                case "nb_planner_result": return typeof(PlannerResult);
                case "nb_circle": return typeof(Circle);
                case "nb_forest_graph_info": return typeof(ForestGraphInfo);
                case "nb_forest_query": return typeof(ForestQuery);
                case "nb_forest_result": return Llp64 ? typeof(ForestResultLlp64) : typeof(ForestResultLp64);
                case "nb_nearest_query": return typeof(NearestQuery);
                case "nb_nearest_result": return typeof(NearestResult);
                case "nb_line_query": return typeof(LineQuery);
                case "nb_line_result": return typeof(LineResult);
                case "nb_random_query": return typeof(RandomQuery);
                case "nb_random_result": return typeof(RandomResult);
                case "nb_world_tile": return typeof(WorldTile);
                case "nb_world_info": return typeof(WorldInfo);
            }
            return null;
        }

        internal static uint SizeOf(string name)
        {
            if (name == "nb_err") return (uint)Native.ErrBytes;
            if (name == "nb_allocator") return (uint)(4 * IntPtr.Size);
            return (uint)Marshal.SizeOf(TypeOf(name));
        }

        static readonly IntPtr sizes = MakeSizes();
        internal static Native.Abi This = new Native.Abi { Major = Major, Minor = Minor, Count = (uint)Names.Length, Sizes = sizes };

        static IntPtr MakeSizes()
        {
            // Lives as long as the process: the library reads it at every guarded call.
            IntPtr p = Marshal.AllocHGlobal(4 * Names.Length);
            for (int i = 0; i < Names.Length; i++)
                Marshal.WriteInt32(p, 4 * i, (int)SizeOf(Names[i]));
            return p;
        }

        /// <summary>A status of a call made without an nb_err: the library's short description.</summary>
        internal static void Check(Status st)
        {
            if (st != Status.Ok)
            {
                using (var e = new ErrBuffer())
                {
                    Native.nb_abi_check(ref This, e.Ptr);
                    e.Throw(st);
                }
            }
        }
    }

    /// <summary>Strings across the boundary: UTF-8, NUL-terminated.</summary>
    internal static class Text
    {
        internal static byte[] ToUtf8(string s)
        {
            if (s == null) return null;
            var b = System.Text.Encoding.UTF8.GetBytes(s);
            var z = new byte[b.Length + 1];
            Buffer.BlockCopy(b, 0, z, 0, b.Length);
            return z;
        }

        internal static string FromUtf8(IntPtr p)
        {
            if (p == IntPtr.Zero) return null;
            int n = 0;
            while (Marshal.ReadByte(p, n) != 0) n++;
            var b = new byte[n];
            Marshal.Copy(p, b, 0, n);
            return System.Text.Encoding.UTF8.GetString(b);
        }
    }
}
