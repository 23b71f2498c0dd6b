"""python3 -m navbake: navbake's info, query and scen commands through the
binding, printing what `navbake` prints for the same input (the times
apart), so that each answer can be checked against the C command's."""
import argparse
import json
import statistics
import sys
import time

from . import Bundle, NavbakeError, NotFoundError, PathStatus
from .scen import ScenError, read_scen

PROG = "navbake"
EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_NO, EXIT_PARTIAL = 0, 1, 2, 3, 4
_JSON_STATUS = ("found", "no path", "start blocked", "goal blocked", "limit", "beyond radius",
                "partial")


def fail(msg):
    print("%s: %s" % (PROG, msg), file=sys.stderr)
    return EXIT_FAIL


def printable(s):
    out = []
    for ch in s.encode("utf-8", "surrogateescape"):
        out.append("\\\\" if ch == 0x5c else chr(ch) if 0x20 <= ch < 0x7f else "\\x%02x" % ch)
    return "".join(out)


def jstr(s):
    return json.dumps(s, ensure_ascii=False)


def exit_of_path(status):
    if status == PathStatus.FOUND:
        return EXIT_OK
    return EXIT_PARTIAL if status == PathStatus.LIMIT else EXIT_NO


# ---------------------------------------------------------------- info
def _counts(b):
    """Cells per terrain, and obstacles, from the map's characters in place."""
    chars = bytes(b.map_view())
    counts = [sum(chars.count(c.encode("latin-1")) for c in t.chars) for t in b.terrains]
    return counts, b.width * b.height - sum(counts)


def _params(b, s, as_json):
    parts = []
    if s.name:
        parts.append('"name": %s' % jstr(s.name) if as_json else "name=" + printable(s.name))
    for name, v in s.params().items():
        if name == "capability":
            caps = b.capability_names(v)
            parts.append('"%s": %s' % (name, jstr(caps)) if as_json else "%s=%s" % (name, caps))
        else:
            parts.append('"%s": %d' % (name, v) if as_json else "%s=%d" % (name, v))
    return (", " if as_json else " ").join(parts)


def info_text(path, b):
    major, minor = b.format_version
    print("bundle     %s" % path)
    print("format     %d.%d" % (major, minor))
    print("form       %s" % b.form)
    print("file       %d bytes, %d sections" % (b.file_size, b.section_count))
    nt = len(b.terrains)
    if b.has_map:
        counts, obstacles = _counts(b)
        print("map        %d x %d cells: %d passable, %d obstacles"
              % (b.width, b.height, b.width * b.height - obstacles, obstacles))
    else:
        print("map        none")
    if nt:
        print("terrains   %d" % nt)
        tw = max([12] + [len(printable(t.name)) for t in b.terrains])
        for t in b.terrains:
            line = '  %-2d %-*s chars "%s"' % (t.index, tw, printable(t.name), t.chars)
            if b.has_map:
                line += ", %d cells" % counts[t.index]
            print(line)
        line = '  %-*s chars "%s"' % (tw + 3, "obstacles", b.obstacle_chars)
        if b.has_map:
            line += ", %d cells" % obstacles
        print(line)
    if b.agents:
        print("agents     %d" % len(b.agents))
        aw = max([14] + [len(printable(a.name)) for a in b.agents])
        cw = max([0] + [len(b.capability_names(a.capability)) for a in b.agents])
        for a in b.agents:
            caps = b.capability_names(a.capability)
            line = "  %-*s size %-3d capability %-*s" % (aw, printable(a.name), a.size,
                                                        cw if a.costs else 0, caps)
            sep = "   costs "
            for t in range(nt):
                if a.costs and (a.capability >> t & 1) and a.costs[t] != 1:
                    line += "%s%s %s" % (sep, b.terrains[t].name, "%g" % a.costs[t])
                    sep = ", "
            print(line)
    try:
        forest = b.forest()
    except NavbakeError:
        forest = None
    secs = b.sections
    n = len(secs)
    w = [max(3, len(str(n - 1 if n else 0))), 11, 3, 12, 10, 10]
    for s in secs:
        w[1] = max(w[1], len(s.type_name or "type-%d" % s.type))
        w[2] = max(w[2], len(str(s.version)))
        w[3] = max(w[3], len(s.encoding_name))
        w[4] = max(w[4], len(str(s.size)))
        w[5] = max(w[5], len(str(s.usize)))
    print("sections\n  %-*s %-*s %-*s %-*s %*s %*s %8s  %s" % (
        w[0], "#", w[1], "type", w[2], "ver", w[3], "encoding", w[4], "stored", w[5],
        "unpacked", "crc32", "parameters"))
    cells = float(b.width) * b.height

    for s in secs:
        line = "  %-*d %-*s %-*d %-*s %*d %*d %08x  " % (
            w[0], s.index, w[1], s.type_name or "type-%d" % s.type, w[2], s.version, w[3],
            s.encoding_name, w[4], s.size, w[5], s.usize, s.crc)
        line += _params(b, s, False)
        if _per_cell(s.type) and s.type != 32 and b.has_map:
            line += " (%.3f bytes/cell)" % (s.size / cells)
        if s.type == 32 and b.has_map:
            line += " (%.3f bytes/cell" % (s.size / cells)
            if s.param[6] and s.usize:
                line += "; stored paths %.0f%% of it" % (100.0 * s.param[6] / s.usize)
            line += ")"
        if s.type == 81 and forest is not None and s.param[0] < len(forest.radii):
            line += " (agent radius %s: %d of %d bitangents kept)" % (
                "%g" % forest.radii[s.param[0]], s.param[2], s.param[3])
        if not s.type_name:
            line += " (unknown to this reader; kept as is)"
        print(line)
    if b.has_map:
        print("bytes/cell %.3f (the map and what is baked from it, over its %d cells)"
              % (sum(s.size for s in secs if _per_cell(s.type)) / cells, b.width * b.height))
    if forest is not None:
        forest.close()


def _per_cell(t):
    # The map and what is baked from it (info.c's per_cell).
    return t == 3 or 16 <= t <= 19 or 32 <= t <= 34


def info_json(path, b):
    major, minor = b.format_version
    out = ['{\n  "bundle": %s,\n  "format": [%d, %d],\n  "form": "%s",\n  "file_size": %d,\n'
           % (jstr(path), major, minor, b.form, b.file_size)]
    nt = len(b.terrains)
    counts, obstacles = _counts(b) if b.has_map else ([0] * nt, 0)
    if b.has_map:
        out.append('  "map": {"width": %d, "height": %d, "obstacles": %d},\n'
                   % (b.width, b.height, obstacles))
    else:
        out.append('  "map": null,\n')
    out.append('  "terrains": [')
    for t in b.terrains:
        out.append('%s\n    {"name": %s, "chars": %s, "cells": %d}' % (
            "," if t.index else "", jstr(t.name), jstr(t.chars), counts[t.index]))
    out.append('%s],\n  "obstacle_chars": %s,\n  "agents": [' % ("\n  " if nt else "",
                                                               jstr(b.obstacle_chars)))
    for a in b.agents:
        out.append('%s\n    {"name": %s, "size": %d, "capability": %s' % (
            "," if a.index else "", jstr(a.name), a.size,
            jstr(b.capability_names(a.capability))))
        if a.costs:
            out.append(', "costs": {%s}' % ", ".join(
                "%s: %s" % (jstr(b.terrains[t].name), "%.17g" % a.costs[t])
                for t in range(nt) if a.capability >> t & 1))
        out.append("}")
    out.append('%s],\n  "sections": [' % ("\n  " if b.agents else ""))
    cells = b.width * b.height if b.has_map else 0
    for s in b.sections:
        out.append('%s\n    {"index": %d, "type": %d, "type_name": %s, "version": %d, '
                   '"encoding": "%s", "offset": %d, "stored": %d, "unpacked": %d, '
                   '"crc32": "%08x", "params": {%s}%s}' % (
                       "," if s.index else "", s.index, s.type,
                       jstr(s.type_name) if s.type_name else "null", s.version,
                       s.encoding_name, s.offset, s.size, s.usize, s.crc,
                       _params(b, s, True),
                       ', "bytes_per_cell": %.6f' % (s.size / cells)
                       if cells and _per_cell(s.type) else ""))
    out.append('%s]' % ("\n  " if b.section_count else ""))
    if cells:
        out.append(',\n  "bytes_per_cell": %.6f'
                   % (sum(s.size for s in b.sections if _per_cell(s.type)) / cells))
    out.append('\n}')
    print("".join(out))


def cmd_info(args):
    with Bundle(args.bundle) as b:
        (info_json if args.json else info_text)(args.bundle, b)
    return EXIT_OK


# ---------------------------------------------------------------- query, scen
class Session:
    """A bundle, the agent chosen by navbake's rule, and the method's workspace."""

    def __init__(self, args):
        self.b = Bundle(args.bundle)
        b = self.b
        self.name, self.changed, self.costs = None, None, None
        t = b.agent(args.agent) if args.agent else (b.agents[0] if b.agents else None)
        if t is None and not args.capability:
            raise NavbakeError("%s has no agent set: give --capability (and --size)"
                               % args.bundle)
        self.size, self.cap = (t.size, t.capability) if t else (1, 0)
        if t:
            self.name, self.costs = t.name, t.costs
        if args.size:
            self.size = args.size
        if args.capability:
            self.cap = b.capability(args.capability)
        if t and (args.size or args.capability):
            self.changed = ("--size and --capability" if args.size and args.capability
                            else "--size" if args.size else "--capability")
        self.caps = b.capability_names(self.cap)
        self.costs_text = ", ".join("%s %s" % (b.terrains[k].name, "%g" % self.costs[k])
                                    for k in range(len(b.terrains))
                                    if self.costs and self.cap >> k & 1 and self.costs[k] != 1)
        self.corner = args.corner
        self.method = args.method
        conf = dict(size=self.size, capability=self.cap, corner=self.corner,
                    costs=self.costs, partial=getattr(args, "partial", False),
                    max_expansions=getattr(args, "max_expansions", 0) or 0)
        t0 = time.perf_counter()
        self.ws = None
        if self.method == "optimal":
            try:
                self.ws = b.sg()
                self.ws.configure(**conf)
                self.ws.find((0, 0), (0, 0))   # is there a layer for this agent?
            except NotFoundError as e:
                print("%s: note: %s; answering with Annotated A* (aa)" % (PROG, e.message),
                      file=sys.stderr)
                if self.ws:
                    self.ws.close()
                self.ws = None
        if self.ws is None:
            t0 = time.perf_counter()
            self.ws = b.aa()
            self.ws.configure(**conf)
        self.setup_us = (time.perf_counter() - t0) * 1e6

    def agent_text(self):
        s = "agent      "
        if self.name:
            s += "%s%s " % (self.name, " with " + self.changed if self.changed else "")
        s += "(size %d, capability %s" % (self.size, self.caps)
        if self.costs and self.costs_text:
            s += ", costs " + self.costs_text
        return s + ")"

    def agent_json(self):
        s = '"agent": %s, "size": %d, "capability": %s' % (
            jstr(self.name) if self.name else "null", self.size, jstr(self.caps))
        if self.costs:
            s += ', "costs": %s' % jstr(self.costs_text)
        return s

    def close(self):
        self.b.close()


_WHY = {PathStatus.FOUND: "found", PathStatus.NONE: "no path",
        PathStatus.START_BLOCKED: "no path: the agent cannot stand at the start",
        PathStatus.GOAL_BLOCKED: "no path: the agent cannot stand at the goal",
        PathStatus.LIMIT: "stopped at the expansion limit: the best partial path",
        PathStatus.PARTIAL: "partial: no path to the goal; the path to the reachable cell "
                            "nearest it"}


def _cost(r):
    return r.cost if hasattr(r._r, "cost") else r.length


def print_query(s, args, r, us):
    st = r.status
    has_path = st in (PathStatus.FOUND, PathStatus.PARTIAL) or (
        st == PathStatus.LIMIT and r.path_len)
    corner = "weak" if s.corner == "weak" else "strict"
    fx, fy = args.from_
    tx, ty = args.to
    if args.json:
        out = '{"method": "%s", %s, "corner": "%s", "from": [%d, %d], "to": [%d, %d], ' \
              '"status": "%s", "found": %s, ' % (
                  s.method, s.agent_json(), corner, fx, fy, tx, ty, _JSON_STATUS[st],
                  "true" if st == PathStatus.FOUND else "false")
        out += '"length": %.8f, ' % r.length if has_path else '"length": null, '
        out += '"searched": %s, "expanded": %d, "microseconds": %.1f' % (
            "true" if r.searched else "false", r.expanded, us)
        out += ', "cost": %.8f' % _cost(r) if has_path else ', "cost": null'
        out += ', "workspace_bytes": %d, "setup_microseconds": %.1f' % (s.ws.bytes, s.setup_us)
        out += ', "path_of": "cells"'
        if args.path:
            out += ', "path": [%s]' % ", ".join(
                "[%d, %d]" % c for c in (r.path if has_path else ()))
        print(out + "}")
        return
    print(s.agent_text())
    print("query      %d,%d -> %d,%d (%s, %s corners)" % (fx, fy, tx, ty, s.method, corner))
    print("status     %s%s" % (_WHY.get(st, st.describe()),
                               " (different components: no search)"
                               if st == PathStatus.NONE and not r.searched else ""))
    path = r.path if has_path else None
    if st == PathStatus.FOUND:
        print("length     %.8f (%d cells)" % (r.length, r.path_len))
    elif has_path:
        print("partial    %.8f (%d cells, to %d,%d)" % ((r.length, r.path_len) + path[-1]))
    if s.costs and has_path:
        print("cost       %.8f (the length times the terrain costs)" % _cost(r))
    print("expanded   %d" % r.expanded)
    print("time       %.1f us" % us)
    print("workspace  %d bytes, made in %.1f us" % (s.ws.bytes, s.setup_us))
    if args.path and has_path:
        print("path      " + "".join(" %d,%d" % c for c in path))


def cmd_query(args):
    s = Session(args)
    try:
        for what, (x, y) in (("--from", args.from_), ("--to", args.to)):
            if not (0 <= x < s.b.width and 0 <= y < s.b.height):
                print("%s: %s %d,%d is outside the %d x %d map (cells 0,0 to %d,%d)" % (
                    PROG, what, x, y, s.b.width, s.b.height, s.b.width - 1, s.b.height - 1),
                    file=sys.stderr)
                return EXIT_USAGE
        t0 = time.perf_counter()
        r = s.ws.find(args.from_, args.to)
        us = (time.perf_counter() - t0) * 1e6
        print_query(s, args, r, us)
        return exit_of_path(r.status)
    finally:
        s.close()


def cmd_scen(args):
    try:
        if args.scen == "-":
            text = sys.stdin.read()
        else:
            with open(args.scen, encoding="latin-1") as f:
                text = f.read()
        lines = read_scen(args.scen, text)
    except OSError as e:
        return fail("%s: %s" % (args.scen, e.strerror))
    except ScenError as e:
        return fail(str(e))
    s = Session(args)
    try:
        if s.costs:
            return fail("agent '%s' has terrain costs (%s), and the scenario's optimal lengths "
                        "are for an agent without: give one without costs, or --size and "
                        "--capability" % (s.name, s.costs_text))
        for l in lines:
            if l.width != s.b.width or l.height != s.b.height:
                return fail("%s:%d: the line is for a %d x %d map, the bundle's map is %d x %d"
                            % (args.scen, l.line, l.width, l.height, s.b.width, s.b.height))
        tolerance = args.tolerance if args.tolerance is not None else 1e-4
        us, differ, shown, rounded, expanded, worst = [], 0, 0, 0, 0, 0.0
        find, clock = s.ws.find, time.perf_counter
        for l in lines:
            t0 = clock()
            try:
                r = find(l.start, l.goal)
            except NavbakeError as e:
                return fail("%s:%d: %s" % (args.scen, l.line, e.message))
            us.append((clock() - t0) * 1e6)
            expanded += r.expanded
            found = r.status == PathStatus.FOUND
            diff = abs(r.length - l.optimal) if found else float("inf")
            if found and diff > worst:
                worst = diff
            tol = tolerance
            if args.tolerance is None and l.decimals < 4:
                tol = 10.0 ** -l.decimals
                rounded += 1
            if diff > tol:
                differ += 1
                if not args.json and (args.verbose or shown < 10):
                    shown += 1
                    what = ("length %.8f" % r.length if found else r.status.describe())
                    print("differs    %s:%d: %d,%d -> %d,%d: %s, the file says %.8f" % (
                        (args.scen, l.line) + l.start + l.goal + (what, l.optimal)))
        n = len(lines)
        total = sum(us)
        mean = total / n if n else 0.0
        median = statistics.median(us) if n else 0.0
        rate = expanded / (total / 1e6) if total > 0 else 0.0
        corner = "weak" if s.corner == "weak" else "strict"
        if args.json:
            print('{"scenario": %s, "method": "%s", "size": %d, "capability": %s, '
                  '"corner": "%s", "lines": %d, "differ": %d, "tolerance": %s, '
                  '"rounded_lines": %d, "max_difference": %s, "mean_us": %.2f, '
                  '"median_us": %.2f, "expanded": %d, "expansions_per_second": %.0f}' % (
                      jstr(args.scen), s.method, s.size, jstr(s.caps), corner, n, differ,
                      "%g" % tolerance, rounded, "%.3g" % worst, mean, median, expanded, rate))
        else:
            if differ > shown:
                print("differs    ... and %d more (--verbose lists them)" % (differ - shown))
            print("scenario   %s" % args.scen)
            if s.name:
                print("agent      %s%s (size %d, capability %s), %s, %s corners" % (
                    s.name, " with " + s.changed if s.changed else "", s.size, s.caps,
                    s.method, corner))
            else:
                print("agent      size %d, capability %s, %s, %s corners" % (
                    s.size, s.caps, s.method, corner))
            line = "lines      %d run, %d differ by more than %s" % (n, differ, "%g" % tolerance)
            if rounded:
                line += (" (%d written with fewer decimals: by more than a unit of their last)"
                         % rounded)
            print(line)
            print("largest    difference %s among the paths found" % ("%.3g" % worst))
            print("time       mean %.1f us, median %.1f us per query" % (mean, median))
            print("expanded   %d nodes, %.2f million per second" % (expanded, rate / 1e6))
        return EXIT_NO if differ else EXIT_OK
    finally:
        s.close()


def _point(text):
    try:
        x, y = text.split(",")
        return int(x), int(y)
    except ValueError:
        raise argparse.ArgumentTypeError("'%s' is not X,Y" % text)


def _agent_opts(p):
    p.add_argument("-a", "--agent", help="the agent type NAME of the bundle's agent set "
                   "(default: its first)")
    p.add_argument("-s", "--size", type=int, help="the agent's size in cells a side")
    p.add_argument("-c", "--capability", help="the terrains it may enter, by name, separated "
                   "by commas")
    p.add_argument("--corner", choices=("strict", "weak"), default="strict")
    p.add_argument("-m", "--method", choices=("aa", "optimal"), default="aa",
                   help="aa (Annotated A*, default) or optimal (the subgoal layer)")


def parser():
    p = argparse.ArgumentParser(prog="python3 -m navbake", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    i = sub.add_parser("info", help="describe a bundle")
    i.add_argument("-j", "--json", action="store_true")
    i.add_argument("bundle")
    q = sub.add_parser("query", help="one path query")
    _agent_opts(q)
    q.add_argument("bundle")
    q.add_argument("-f", "--from", dest="from_", type=_point, required=True)
    q.add_argument("-t", "--to", type=_point, required=True)
    q.add_argument("-n", "--max-expansions", type=int, default=0)
    q.add_argument("--partial", action="store_true")
    q.add_argument("-p", "--path", action="store_true")
    q.add_argument("-j", "--json", action="store_true")
    s = sub.add_parser("scen", help="run a MovingAI scenario file")
    _agent_opts(s)
    s.add_argument("-T", "--tolerance", type=float)
    s.add_argument("-v", "--verbose", action="store_true")
    s.add_argument("-j", "--json", action="store_true")
    s.add_argument("bundle")
    s.add_argument("scen")
    return p


def main(argv=None):
    global PROG
    args = parser().parse_args(argv)
    PROG = "navbake " + args.command   # as navbake names its subcommands in messages
    try:
        return {"info": cmd_info, "query": cmd_query, "scen": cmd_scen}[args.command](args)
    except NavbakeError as e:
        return fail(e.message)
