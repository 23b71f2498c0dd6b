/* layout.c: the C compiler's size and field offsets of every struct of
 * navbake.h, one line each ("nb_aa_query 64", "nb_aa_query.start 0"), for
 * the C# test to compare with the binding's Marshal.SizeOf and OffsetOf.
 * A field added to a struct changes its size, so the binding, which must
 * declare it too, fails the test until it does. */
#include <stddef.h>
#include <stdio.h>
#include "navbake.h"

#define S(t) printf("%s %u\n", #t, (unsigned)sizeof(t));
#define F(t, f) printf("%s.%s %u\n", #t, #f, (unsigned)offsetof(t, f));

int main(void)
{
    S(nb_err) F(nb_err, code) F(nb_err, msg)
    S(nb_section_info) F(nb_section_info, type) F(nb_section_info, version) F(nb_section_info, encoding)
    F(nb_section_info, offset) F(nb_section_info, size) F(nb_section_info, usize) F(nb_section_info, crc)
    F(nb_section_info, flags) F(nb_section_info, param) F(nb_section_info, name)
    S(nb_agent) F(nb_agent, name) F(nb_agent, size) F(nb_agent, capability) F(nb_agent, weighted) F(nb_agent, cost)
    S(nb_cell) F(nb_cell, x) F(nb_cell, y)
    S(nb_vec2) F(nb_vec2, x) F(nb_vec2, y)
    S(nb_frame) F(nb_frame, origin_x) F(nb_frame, origin_y) F(nb_frame, cell) F(nb_frame, y_up)
#define GRIDQ(t) S(t) F(t, start) F(t, goal) F(t, size) F(t, capability) F(t, corner) F(t, max_expansions) \
    F(t, costs) F(t, overlay) F(t, partial)
    GRIDQ(nb_aa_query) GRIDQ(nb_sg_query) GRIDQ(nb_haa_query) F(nb_haa_query, flags)
    S(nb_aa_result) F(nb_aa_result, status) F(nb_aa_result, length) F(nb_aa_result, cost) F(nb_aa_result, expanded)
    F(nb_aa_result, searched) F(nb_aa_result, path_len) F(nb_aa_result, path)
    S(nb_sg_result) F(nb_sg_result, status) F(nb_sg_result, length) F(nb_sg_result, expanded) F(nb_sg_result, scanned)
    F(nb_sg_result, searched) F(nb_sg_result, path_len) F(nb_sg_result, path) F(nb_sg_result, waypoint_len)
    F(nb_sg_result, waypoints) F(nb_sg_result, fallback)
    S(nb_haa_result) F(nb_haa_result, status) F(nb_haa_result, length) F(nb_haa_result, cost)
    F(nb_haa_result, cell_length) F(nb_haa_result, abstract_length) F(nb_haa_result, expanded)
    F(nb_haa_result, expanded_insert) F(nb_haa_result, expanded_search) F(nb_haa_result, expanded_refine)
    F(nb_haa_result, searched) F(nb_haa_result, abstract_len) F(nb_haa_result, path_len) F(nb_haa_result, path)
    F(nb_haa_result, level)
    S(nb_haa_graph) F(nb_haa_graph, cluster) F(nb_haa_graph, quality) F(nb_haa_graph, placement) F(nb_haa_graph, nodes)
    F(nb_haa_graph, edges) F(nb_haa_graph, inter_edges) F(nb_haa_graph, paths) F(nb_haa_graph, bytes)
    F(nb_haa_graph, levels) F(nb_haa_graph, level_factor)
    S(nb_motion_state) F(nb_motion_state, x) F(nb_motion_state, y) F(nb_motion_state, heading) F(nb_motion_state, speed)
    S(nb_motion_query) F(nb_motion_query, start) F(nb_motion_query, goal) F(nb_motion_query, heuristic)
    F(nb_motion_query, weight) F(nb_motion_query, truncate) F(nb_motion_query, max_expansions)
    F(nb_motion_query, overlay) F(nb_motion_query, reopen) F(nb_motion_query, waypoint_heading)
    F(nb_motion_query, heading_classes) F(nb_motion_query, abstraction)
    S(nb_motion_result) F(nb_motion_result, status) F(nb_motion_result, cost) F(nb_motion_result, h_start)
    F(nb_motion_result, expanded) F(nb_motion_result, generated) F(nb_motion_result, reopened)
    F(nb_motion_result, grid_expanded) F(nb_motion_result, path_len) F(nb_motion_result, path) F(nb_motion_result, end)
    S(nb_pose) F(nb_pose, x) F(nb_pose, y) F(nb_pose, heading)
    S(nb_segment) F(nb_segment, kind) F(nb_segment, turn) F(nb_segment, gear) F(nb_segment, x) F(nb_segment, y)
    F(nb_segment, heading) F(nb_segment, length) F(nb_segment, cx) F(nb_segment, cy) F(nb_segment, radius)
    S(nb_curve) F(nb_curve, length) F(nb_curve, count) F(nb_curve, word) F(nb_curve, variant) F(nb_curve, seg)
    S(nb_unit) F(nb_unit, name) F(nb_unit, radius) F(nb_unit, width) F(nb_unit, headings) F(nb_unit, neighbourhood)
    F(nb_unit, reverse) F(nb_unit, reverse_penalty) F(nb_unit, capability)
    S(nb_planner_query) F(nb_planner_query, start) F(nb_planner_query, goal) F(nb_planner_query, goal_heading)
    F(nb_planner_query, method) F(nb_planner_query, neighbourhood) F(nb_planner_query, flags)
    F(nb_planner_query, max_expansions) F(nb_planner_query, window) F(nb_planner_query, overlay)
    S(nb_planner_result) F(nb_planner_result, status) F(nb_planner_result, reason) F(nb_planner_result, length)
    F(nb_planner_result, cost) F(nb_planner_result, segment_len) F(nb_planner_result, segments)
    F(nb_planner_result, waypoint_len) F(nb_planner_result, waypoints) F(nb_planner_result, expanded)
    F(nb_planner_result, generated) F(nb_planner_result, fallback)
    S(nb_circle) F(nb_circle, x) F(nb_circle, y) F(nb_circle, r)
    S(nb_forest_graph_info) F(nb_forest_graph_info, agent_radius) F(nb_forest_graph_info, nodes)
    F(nb_forest_graph_info, transitions) F(nb_forest_graph_info, candidates) F(nb_forest_graph_info, arcs)
    F(nb_forest_graph_info, free_arcs)
    S(nb_forest_query) F(nb_forest_query, start) F(nb_forest_query, goal) F(nb_forest_query, agent_radius)
    F(nb_forest_query, flags) F(nb_forest_query, max_expansions)
    S(nb_forest_result) F(nb_forest_result, status) F(nb_forest_result, blocked_by) F(nb_forest_result, start)
    F(nb_forest_result, goal) F(nb_forest_result, length) F(nb_forest_result, segment_len)
    F(nb_forest_result, segments) F(nb_forest_result, expanded) F(nb_forest_result, generated)
    F(nb_forest_result, pruned) F(nb_forest_result, los_tests) F(nb_forest_result, circles_opened)
    S(nb_nearest_query) F(nb_nearest_query, point) F(nb_nearest_query, radius) F(nb_nearest_query, reachable)
    F(nb_nearest_query, start) F(nb_nearest_query, size) F(nb_nearest_query, capability)
    F(nb_nearest_query, max_expansions) F(nb_nearest_query, overlay)
    S(nb_nearest_result) F(nb_nearest_result, status) F(nb_nearest_result, cell) F(nb_nearest_result, distance)
    F(nb_nearest_result, examined) F(nb_nearest_result, expanded)
    S(nb_line_query) F(nb_line_query, start) F(nb_line_query, goal) F(nb_line_query, size) F(nb_line_query, capability)
    F(nb_line_query, max_expansions) F(nb_line_query, overlay)
    S(nb_line_result) F(nb_line_result, status) F(nb_line_result, t) F(nb_line_result, last) F(nb_line_result, blocking)
    F(nb_line_result, examined)
    S(nb_random_query) F(nb_random_query, reachable) F(nb_random_query, start) F(nb_random_query, seed)
    F(nb_random_query, size) F(nb_random_query, capability) F(nb_random_query, max_expansions) F(nb_random_query, overlay)
    S(nb_random_result) F(nb_random_result, status) F(nb_random_result, cell) F(nb_random_result, component)
    F(nb_random_result, cells) F(nb_random_result, state) F(nb_random_result, draws) F(nb_random_result, expanded)
    return 0;
}
