"""MovingAI scenario files (.scen): 'version 1', then one query a line:
bucket, map, width, height, start x, start y, goal x, goal y, optimal length."""
import collections
import math

ScenLine = collections.namedtuple(
    "ScenLine", "line bucket map width height start goal optimal decimals")

_COLS = ("bucket", "map", "width", "height", "start x", "start y", "goal x", "goal y")
MAP_MAX_SIDE = 16384


class ScenError(ValueError):
    """A malformed scenario file: the message names the file and line."""


def read_scen(name, text):
    """The lines of a scenario file's text (ScenError for a malformed one)."""
    lines, have_version = [], False
    rows = text.split("\n")
    if rows and rows[-1] == "":
        rows.pop()
    for lineno, row in enumerate(rows, 1):
        f = row.split()
        if not have_version:
            ok = len(f) == 2 and f[0] == "version"
            try:
                float(f[1]) if ok else None
            except ValueError:
                ok = False
            if not ok:
                raise ScenError("%s:%d: expected 'version 1' (a MovingAI scenario file)"
                                % (name, lineno))
            have_version = True
            continue
        if not f:
            continue
        if len(f) != 9:
            raise ScenError("%s:%d: %s%d columns, expected 9 (bucket, map, width, height, start "
                            "x, start y, goal x, goal y, optimal length)"
                            % (name, lineno, "more than " if len(f) > 9 else "", min(len(f), 9)))
        v = [0] * 8
        for k in range(8):
            if k == 1:
                continue
            top = 2 ** 32 - 1 if k == 0 else MAP_MAX_SIDE if k <= 3 else MAP_MAX_SIDE - 1
            if not f[k].isdigit() or int(f[k]) > top:
                raise ScenError("%s:%d: %s '%s' is not a whole number from 0 to %d"
                                % (name, lineno, _COLS[k], f[k], top))
            v[k] = int(f[k])
        try:
            opt = float(f[8])
        except ValueError:
            opt = -1.0
        if not math.isfinite(opt) or opt < 0:
            raise ScenError("%s:%d: optimal length '%s' is not a number >= 0"
                            % (name, lineno, f[8]))
        dot = f[8].find(".")
        decimals = 0
        if dot >= 0:
            for ch in f[8][dot + 1:]:
                if not ch.isdigit():
                    break
                decimals += 1
        w, h = v[2], v[3]
        if w < 1 or h < 1 or v[4] >= w or v[6] >= w or v[5] >= h or v[7] >= h:
            raise ScenError("%s:%d: (%d,%d) -> (%d,%d) is outside its %d x %d map"
                            % (name, lineno, v[4], v[5], v[6], v[7], w, h))
        lines.append(ScenLine(lineno, v[0], f[1], w, h, (v[4], v[5]), (v[6], v[7]), opt,
                              decimals))
    if not have_version:
        raise ScenError("%s: empty, expected 'version 1' and scenario lines" % name)
    return lines
