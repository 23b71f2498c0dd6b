// Native.cs: the C ABI of navbake.h as P/Invoke declarations, one for each
// public function.  Internal: the public surface is the classes of the
// other files, which hold handles in SafeHandles and check every status.
// Parameters of C type long are passed as Int64: on the 64-bit targets
// (Linux, macOS, Windows x64) a C long is passed in a 64-bit register or
// stack slot either way; a long returned is read as Int64 and cut to the
// 32 bits its values fit in (Windows leaves the upper half undefined).
using System;
using System.Runtime.InteropServices;

namespace Navbake
{
    internal static class Native
    {
        // "navbake": libnavbake.so on Linux, navbake.dll on Windows (the
        // README says how to name libnavbake-N.dll).
        internal const string Lib = "navbake";
        const CallingConvention C = CallingConvention.Cdecl;

        // nb_err, read and written through a pointer to unmanaged memory
        internal const int ErrMsgMax = 512;
        internal const int ErrBytes = 4 + ErrMsgMax;

        [StructLayout(LayoutKind.Sequential)]
        internal struct Abi
        {
            public uint Major, Minor, Count;
            public IntPtr Sizes;
        }

        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_status_str(Status status);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_version();
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_abi_check(ref Abi abi, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern uint nb_abi_size(uint i);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_abi_name(uint i);

        // Bundles
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_bundle_open_abi(byte[] path, uint flags, IntPtr alloc, out BundleHandle bundle, IntPtr err, ref Abi abi);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_bundle_open_memory_abi(byte[] data, UIntPtr len, uint flags, IntPtr alloc, out BundleHandle bundle, IntPtr err, ref Abi abi);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_bundle_close(IntPtr bundle);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_bundle_verify(BundleHandle b, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_bundle_format_version(BundleHandle b, out uint major, out uint minor);
        [DllImport(Lib, CallingConvention = C)] internal static extern ulong nb_bundle_file_size(BundleHandle b);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_bundle_section_count(BundleHandle b);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_bundle_section_get(BundleHandle b, UIntPtr index);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_bundle_section_lookup(BundleHandle b, uint type, byte[] name, uint[] parameters, UIntPtr nparams, out UIntPtr index, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_bundle_payload(BundleHandle b, UIntPtr index, out IntPtr data, out UIntPtr len, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_section_type_name(uint type);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_section_type_parse(byte[] name, out uint type, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_section_param_name(uint type, uint i);
        [DllImport(Lib, CallingConvention = C)] internal static extern uint nb_section_param(ref SectionInfo info, uint i);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_encoding_name(ushort encoding);
        [DllImport(Lib, CallingConvention = C)] internal static extern BundleForm nb_bundle_form_of(BundleHandle b);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_sqlite_supported();

        // The level
        [DllImport(Lib, CallingConvention = C)] internal static extern uint nb_terrain_count(BundleHandle b);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_terrain_name(BundleHandle b, uint terrain);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_terrain_chars(BundleHandle b, uint terrain);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_obstacle_chars(BundleHandle b);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_capability_parse(BundleHandle b, byte[] list, out uint cap, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_capability_format(BundleHandle b, uint cap, byte[] buf, UIntPtr len);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_agent_count(BundleHandle b);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_agent_get(BundleHandle b, UIntPtr index);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_agent_lookup(BundleHandle b, byte[] name, out UIntPtr index, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_has_map(BundleHandle b);
        [DllImport(Lib, CallingConvention = C)] internal static extern uint nb_map_width(BundleHandle b);
        [DllImport(Lib, CallingConvention = C)] internal static extern uint nb_map_height(BundleHandle b);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_map_terrain(BundleHandle b, long x, long y);
        [DllImport(Lib, CallingConvention = C)] internal static extern byte nb_map_char(BundleHandle b, long x, long y);

        // Clearance and positions
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_frame_init(out Frame frame);
        [DllImport(Lib, CallingConvention = C)] internal static extern Cell nb_anchor_of_centre(ref Frame frame, Vec2 centre, uint size);
        [DllImport(Lib, CallingConvention = C)] internal static extern Vec2 nb_centre_of_anchor(ref Frame frame, Cell anchor, uint size);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_clearance(BundleHandle b, uint cap, long x, long y);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_clearance_cap(BundleHandle b, uint cap);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_can_stand(BundleHandle b, uint cap, uint size, long x, long y);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_reachable(BundleHandle b, uint cap, uint size, Cell from, Cell to);
        [DllImport(Lib, CallingConvention = C)] internal static extern long nb_component(BundleHandle b, uint cap, uint size, long x, long y);

        // Overlays
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_overlay_open(BundleHandle b, out OverlayHandle o, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_overlay_close(IntPtr o);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_overlay_clone(OverlayHandle src, out OverlayHandle o, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_overlay_block(OverlayHandle o, long x, long y, long w, long h, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_overlay_unblock(OverlayHandle o, long x, long y, long w, long h, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_overlay_block_cells(OverlayHandle o, Cell[] cells, UIntPtr n, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_overlay_unblock_cells(OverlayHandle o, Cell[] cells, UIntPtr n, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_overlay_clear(OverlayHandle o);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_overlay_blocked(OverlayHandle o, long x, long y);
        [DllImport(Lib, CallingConvention = C)] internal static extern ulong nb_overlay_blocked_count(OverlayHandle o);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_overlay_bytes(OverlayHandle o);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_overlay_can_stand(OverlayHandle o, uint cap, uint size, long x, long y);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_overlay_reachable(OverlayHandle o, uint cap, uint size, Cell from, Cell to);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_path_status_str(PathStatus status);

        // Annotated A*
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_aa_query_init_abi(out AaQuery q, ref Abi abi);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_aa_open(BundleHandle b, out WorkspaceHandle ws, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_aa_close(IntPtr ws);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_aa_set_max_nodes(WorkspaceHandle ws, ulong n);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_aa_bytes(WorkspaceHandle ws);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_aa_find(WorkspaceHandle ws, ref AaQuery q, out AaResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_aa_begin(WorkspaceHandle ws, ref AaQuery q, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_aa_step(WorkspaceHandle ws, ulong expansions, out int done, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_aa_finish(WorkspaceHandle ws, out AaResult r, IntPtr err);

        // The optimal layer
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_sg_query_init_abi(out SgQuery q, ref Abi abi);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_sg_open(BundleHandle b, out WorkspaceHandle ws, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_sg_close(IntPtr ws);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_sg_set_max_nodes(WorkspaceHandle ws, ulong n);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_sg_bytes(WorkspaceHandle ws);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_sg_find(WorkspaceHandle ws, ref SgQuery q, out SgResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_sg_begin(WorkspaceHandle ws, ref SgQuery q, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_sg_step(WorkspaceHandle ws, ulong expansions, out int done, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_sg_finish(WorkspaceHandle ws, out SgResult r, IntPtr err);

        // HAA*
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_haa_query_init_abi(out HaaQuery q, ref Abi abi);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_haa_open(BundleHandle b, out WorkspaceHandle ws, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_haa_close(IntPtr ws);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_haa_set_max_nodes(WorkspaceHandle ws, ulong n);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_haa_set_levels(WorkspaceHandle ws, uint levels);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_haa_bytes(WorkspaceHandle ws);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_haa_find(WorkspaceHandle ws, ref HaaQuery q, out HaaResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_haa_begin(WorkspaceHandle ws, ref HaaQuery q, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_haa_step(WorkspaceHandle ws, ulong expansions, out int done, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_haa_finish(WorkspaceHandle ws, out HaaResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_haa_reachable(WorkspaceHandle ws, ref HaaQuery q, out int reachable, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_haa_describe(WorkspaceHandle ws, out HaaGraphNative g);

        // Motion models, perimeter tables, motion search
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_model_open(BundleHandle b, byte[] name, out ModelHandle m, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_model_close(IntPtr m);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_model_name(ModelHandle m);
        [DllImport(Lib, CallingConvention = C)] internal static extern uint nb_model_headings(ModelHandle m);
        [DllImport(Lib, CallingConvention = C)] internal static extern uint nb_model_speeds(ModelHandle m);
        [DllImport(Lib, CallingConvention = C)] internal static extern uint nb_model_stop(ModelHandle m);
        [DllImport(Lib, CallingConvention = C)] internal static extern double nb_model_speed(ModelHandle m, uint level);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_model_speed_name(ModelHandle m, uint level);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_model_speed_lookup(ModelHandle m, byte[] name, out UIntPtr level, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern uint nb_model_turn(ModelHandle m, uint level);
        [DllImport(Lib, CallingConvention = C)] internal static extern uint nb_model_speed_change(ModelHandle m);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_model_offset(ModelHandle m, uint heading, out int dx, out int dy);
        [DllImport(Lib, CallingConvention = C)] internal static extern double nb_model_top_speed(ModelHandle m);
        [DllImport(Lib, CallingConvention = C)] internal static extern double nb_model_still_cost(ModelHandle m);
        [DllImport(Lib, CallingConvention = C)] internal static extern double nb_model_turn_cost(ModelHandle m);
        [DllImport(Lib, CallingConvention = C)] internal static extern double nb_model_extended_weight(ModelHandle m);
        [DllImport(Lib, CallingConvention = C)] internal static extern uint nb_model_sweep(ModelHandle m, uint heading, out IntPtr cells);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_perimeter_open(BundleHandle b, ModelHandle m, out PerimeterHandle p, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_perimeter_close(IntPtr p);
        [DllImport(Lib, CallingConvention = C)] internal static extern uint nb_perimeter_radius(PerimeterHandle p);
        [DllImport(Lib, CallingConvention = C)] internal static extern PerimeterLayout nb_perimeter_layout_of(PerimeterHandle p);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_perimeter_layout_name(PerimeterLayout layout);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_perimeter_lookup(PerimeterHandle p, ref MotionState s, ref MotionState g, out double value);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_perimeter_extended(PerimeterHandle p, ref MotionState s, ref MotionState g, out double value);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_motion_heuristic_name(MotionHeuristic h);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_motion_heuristic_parse(byte[] name, out MotionHeuristic h, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_motion_open(BundleHandle b, ModelHandle m, PerimeterHandle p, uint cap, uint size, out WorkspaceHandle ws, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_motion_open(BundleHandle b, ModelHandle m, IntPtr p, uint cap, uint size, out WorkspaceHandle ws, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_motion_close(IntPtr ws);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_motion_set_max_nodes(WorkspaceHandle ws, ulong n);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_motion_bytes(WorkspaceHandle ws);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_motion_standable(WorkspaceHandle ws, long x, long y);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_motion_action(WorkspaceHandle ws, ref MotionState s, int turn, uint speed, out MotionState to, out double cost);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_route_abstraction_name(RouteAbstraction a);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_route_abstraction_parse(byte[] name, out RouteAbstraction a, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_motion_query_init_abi(out MotionQuery q, ref Abi abi);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_motion_find(WorkspaceHandle ws, ref MotionQuery q, out MotionResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_motion_begin(WorkspaceHandle ws, ref MotionQuery q, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_motion_step(WorkspaceHandle ws, ulong expansions, out int done, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_motion_finish(WorkspaceHandle ws, out MotionResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_motion_use_sectors(WorkspaceHandle ws, uint side, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_motion_use_haa(WorkspaceHandle ws, IntPtr err);
        [UnmanagedFunctionPointer(CallingConvention.Cdecl)]
        internal delegate void SegmentFn(IntPtr ctx, ref MotionResult segment);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_motion_route_find(WorkspaceHandle ws, ref MotionQuery q, uint segment, SegmentFn each, IntPtr ctx, out MotionResult r, out UIntPtr segments, IntPtr err);

        // Curves, units, planners
        [DllImport(Lib, CallingConvention = C)] internal static extern Segment nb_segment_line(double x0, double y0, double x1, double y1);
        [DllImport(Lib, CallingConvention = C)] internal static extern Segment nb_segment_arc(double cx, double cy, double radius, double from, double sweep);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_segment_angles(ref Segment s, out double from, out double sweep);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_segment_sample(ref Segment s, double at, out Pose pose);
        [DllImport(Lib, CallingConvention = C)] internal static extern double nb_segments_sample(Segment[] s, UIntPtr n, double at, out Pose pose);
        [DllImport(Lib, CallingConvention = C)] internal static extern double nb_segments_length(Segment[] s, UIntPtr n);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_curve_to_point(ref Pose from, double radius, double x, double y, [Out] Curve[] curves);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_curve_to_pose(ref Pose from, ref Pose to, double radius, [Out] Curve[] curves);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_curve_set_reverse(ref Curve c);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_curve_sample(ref Curve c, double at, out Pose pose);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_unit_count(BundleHandle b);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_unit_get(BundleHandle b, UIntPtr index, out UnitNative u, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_unit_lookup(BundleHandle b, byte[] name, out UIntPtr index, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_planner_open(BundleHandle b, byte[] unit, out WorkspaceHandle p, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_planner_close(IntPtr p);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_planner_unit(WorkspaceHandle p);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_planner_set_max_nodes(WorkspaceHandle p, ulong n);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_planner_bytes(WorkspaceHandle p);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_planner_query_init_abi(out PlannerQuery q, ref Abi abi);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_planner_find(WorkspaceHandle p, ref PlannerQuery q, out PlannerResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_planner_begin(WorkspaceHandle p, ref PlannerQuery q, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_planner_step(WorkspaceHandle p, ulong expansions, out int done, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_planner_finish(WorkspaceHandle p, out PlannerResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_planner_walkable(WorkspaceHandle p, Segment[] s, UIntPtr n);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_planner_blocked(WorkspaceHandle p, long x, long y);

        // Forests
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_forest_open(BundleHandle b, out ForestHandle f, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_forest_open_circles_abi(Circle[] circles, UIntPtr n, double[] bounds, IntPtr alloc, out ForestHandle f, IntPtr err, ref Abi abi);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_forest_close(IntPtr f);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_forest_circle_count(ForestHandle f);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_forest_circle_get(ForestHandle f, UIntPtr index);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_forest_bounds(ForestHandle f, [Out] double[] bounds);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_forest_set_circle(ForestHandle f, UIntPtr index, Circle c, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_forest_add_circle(ForestHandle f, Circle c, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_forest_remove_circle(ForestHandle f, UIntPtr index, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern uint nb_forest_radius_count(ForestHandle f);
        [DllImport(Lib, CallingConvention = C)] internal static extern double nb_forest_radius_get(ForestHandle f, uint i);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_forest_radius_lookup(ForestHandle f, double radius, out UIntPtr index, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_forest_graph(ForestHandle f, uint i, out ForestGraphInfo info, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_forest_query_init_abi(out ForestQuery q, ref Abi abi);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_forest_ws_open(ForestHandle f, out WorkspaceHandle ws, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_forest_ws_close(IntPtr ws);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_forest_ws_set_max_nodes(WorkspaceHandle ws, ulong n);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_forest_ws_bytes(WorkspaceHandle ws);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_forest_find(WorkspaceHandle ws, ref ForestQuery q, IntPtr r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_forest_begin(WorkspaceHandle ws, ref ForestQuery q, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_forest_step(WorkspaceHandle ws, ulong expansions, out int done, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_forest_finish(WorkspaceHandle ws, IntPtr r, IntPtr err);

        // Places
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_place_open(BundleHandle b, out WorkspaceHandle p, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_place_close(IntPtr p);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_place_bytes(WorkspaceHandle p);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_nearest_query_init_abi(out NearestQuery q, ref Abi abi);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_nearest_find(WorkspaceHandle p, ref NearestQuery q, out NearestResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_nearest_begin(WorkspaceHandle p, ref NearestQuery q, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_nearest_step(WorkspaceHandle p, ulong expansions, out int done, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_nearest_finish(WorkspaceHandle p, out NearestResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_line_query_init_abi(out LineQuery q, ref Abi abi);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_line_find(WorkspaceHandle p, ref LineQuery q, out LineResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_line_begin(WorkspaceHandle p, ref LineQuery q, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_line_step(WorkspaceHandle p, ulong expansions, out int done, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_line_finish(WorkspaceHandle p, out LineResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_random_query_init_abi(out RandomQuery q, ref Abi abi);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_random_find(WorkspaceHandle p, ref RandomQuery q, out RandomResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_random_begin(WorkspaceHandle p, ref RandomQuery q, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_random_step(WorkspaceHandle p, ulong expansions, out int done, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_random_finish(WorkspaceHandle p, out RandomResult r, IntPtr err);

        // Worlds of tiles (World.cs)
        [UnmanagedFunctionPointer(C)] internal delegate Status WorldLoader(IntPtr opaque, WorldTile tile, IntPtr path, IntPtr data, IntPtr len, IntPtr err);
        [UnmanagedFunctionPointer(C)] internal delegate void WorldRelease(IntPtr opaque, WorldTile tile, IntPtr data);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_world_open_abi(byte[] path, byte[] tiles, uint flags, IntPtr alloc, out WorldHandle world, IntPtr err, ref Abi abi);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_world_close(IntPtr world);
        [DllImport(Lib, CallingConvention = C)] internal static extern IntPtr nb_world_bundle(WorldHandle w);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_world_describe(WorldHandle w, out WorldInfo info);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_world_set_loader(WorldHandle w, WorldLoader loader, WorldRelease release, IntPtr opaque);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_world_load(WorldHandle w, WorldTile tile, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_world_unload(WorldHandle w, WorldTile tile, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_world_load_cells(WorldHandle w, long x, long y, long width, long height, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_world_unload_cells(WorldHandle w, long x, long y, long width, long height, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_world_loaded(WorldHandle w, WorldTile tile);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_world_reachable(WorldHandle w, uint cap, uint size, Cell from, Cell to, out int reachable, [Out] WorldTile[] needed, UIntPtr neededMax, out UIntPtr neededCount, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_world_bytes(WorldHandle w);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_world_resident(WorldHandle w);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_world_set_budget(WorldHandle w, UIntPtr bytes);

        // Queries across a world's tiles (WorldQuery.cs)
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_world_overlay_open(WorldHandle w, out WorldOverlayHandle o, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_world_overlay_close(IntPtr o);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_world_overlay_block(WorldOverlayHandle o, long x, long y, long w, long h, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_world_overlay_unblock(WorldOverlayHandle o, long x, long y, long w, long h, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern int nb_world_overlay_blocked(WorldOverlayHandle o, long x, long y);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_world_aa_open(WorldHandle w, out WorkspaceHandle ws, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_world_aa_close(IntPtr ws);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_world_aa_bytes(WorkspaceHandle ws);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_world_aa_set_max_nodes(WorkspaceHandle ws, ulong n);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_world_aa_find(WorkspaceHandle ws, ref AaQuery q, IntPtr overlay, out AaResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_world_aa_needed(WorkspaceHandle ws, [Out] WorldTile[] needed, UIntPtr max);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_world_nearest_find(WorkspaceHandle ws, ref NearestQuery q, IntPtr overlay, out NearestResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_world_line_find(WorkspaceHandle ws, ref LineQuery q, IntPtr overlay, out LineResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_world_random_find(WorkspaceHandle ws, ref RandomQuery q, IntPtr overlay, long x, long y, long w, long h, out RandomResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_world_haa_open(WorldHandle w, out WorkspaceHandle ws, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern void nb_world_haa_close(IntPtr ws);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_world_haa_bytes(WorkspaceHandle ws);
        [DllImport(Lib, CallingConvention = C)] internal static extern Status nb_world_haa_find(WorkspaceHandle ws, ref HaaQuery q, IntPtr overlay, out HaaResult r, IntPtr err);
        [DllImport(Lib, CallingConvention = C)] internal static extern UIntPtr nb_world_haa_needed(WorkspaceHandle ws, [Out] WorldTile[] needed, UIntPtr max);
    }
}
