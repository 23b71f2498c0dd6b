#!/usr/bin/env python3
"""motion-tails.py STEPS.tsv [MAPS_ROOT]: where the 99th percentiles of
bench_motion_maps come from.  Reads the --steps file of a run (one line a
planning step) and, per model, segment length and truncation, for the
paper's heuristic (the perimeter column) and ours, prints:
  - percentiles by map set (dao, wc3, bg: the directory a map is in) and by
    the kind of step (first, intermediate, last);
  - for the steps at or above the perimeter column's 99th percentile (its
    tail) against a sample of the others: the share whose goal lies within
    the perimeter tables' radius (15 cells, Chebyshev), the share whose straight line is
    blocked (the 8-connected grid distance between start and goal is more
    than 1.2 times the octile distance, the map's obstacles forcing a
    detour: what an empty-map heuristic cannot see), the share that start
    stopped, and the mean angle between the start heading and the goal.
Grid distances use the map file (passable: '.', 'G', 'S'; diagonals need
both cells beside them free), within 16 cells around the step's box; at most 500 steps of the
tail and 500 of the others, drawn at random."""
import gzip, heapq, math, os, random, sys
from collections import defaultdict

def pct(v, p):
    if not v:
        return 0
    v = sorted(v)
    k = max(1, math.ceil(p / 100 * len(v)))
    return v[k - 1]

def mapset(path):
    return 'dao' if '/dao/' in path else 'wc3' if '/wc3/' in path else 'bg'

maps = {}
def grid(path):
    if path not in maps:
        with open(path) as f:
            lines = f.read().split('\n')
        h = int(lines[1].split()[1]); w = int(lines[2].split()[1])
        rows = lines[4:4 + h]
        maps[path] = (w, h, [[c in '.GS' for c in r[:w]] for r in rows])
    return maps[path]

def griddist(path, sx, sy, gx, gy, r=16):
    w, h, free = grid(path)
    x0, y0 = min(sx, gx) - r, min(sy, gy) - r
    x1, y1 = max(sx, gx) + r, max(sy, gy) + r
    dist = {(sx, sy): 0.0}
    q = [(0.0, sx, sy)]
    while q:
        d, x, y = heapq.heappop(q)
        if (x, y) == (gx, gy):
            return d
        if d > dist[(x, y)]:
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if not dx and not dy:
                    continue
                nx, ny = x + dx, y + dy
                if not (0 <= nx < w and 0 <= ny < h and x0 <= nx <= x1 and y0 <= ny <= y1):
                    continue
                if not free[ny][nx] or (dx and dy and not (free[y][nx] and free[ny][x])):
                    continue
                nd = d + (math.sqrt(2) if dx and dy else 1)
                if nd < dist.get((nx, ny), 1e18):
                    dist[(nx, ny)] = nd
                    heapq.heappush(q, (nd, nx, ny))
    return math.inf

headings = {'humanoid': 16, 'tank': 24, 'vehicle': 16}
stopped = {}
root = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), '..', '..')
for m in headings:
    with open(os.path.join(root, 'data', 'models', m + '.yaml')) as f:
        vals = [l for l in f if 'value:' in l]
    stopped[m] = [i for i, l in enumerate(vals) if 'value: 0' in l][0]

steps = defaultdict(list)  # (model, seg, trunc, col) -> [(expanded, map, k, n, start, goal)]
def lines(path):
    """The file's lines; of a gzipped file cut short (a run stopped), those
    before the cut."""
    with (gzip.open(path, 'rt') if path.endswith('.gz') else open(path)) as f:
        try:
            for line in f:
                if line.endswith('\n'):
                    yield line
        except EOFError:
            print('# the file ends early: the steps before the cut', file=sys.stderr)

if True:
    for line in lines(sys.argv[1]):
        t = line.rstrip('\n').split('\t')
        if t[4] not in ('perimeter', 'ours', 'octile'):
            continue
        st = tuple(int(v) for v in t[10].split(','))
        gl = tuple(int(v) for v in t[11].split(','))
        steps[(t[1], t[2], t[3], t[4])].append((int(t[9]), t[0], int(t[7]), int(t[8]), st, gl))

def kind(k, n):
    return 'last' if k == n - 1 else 'first' if k == 0 else 'intermediate'

random.seed(1)
for model in ('humanoid', 'tank', 'vehicle'):
    for seg in ('3', '4'):
        for tr in ('1', '0'):
            print(f"\n## {model}, segments of {seg}, {'truncation' if tr == '1' else 'no truncation'}")
            for col in ('octile', 'perimeter', 'ours'):
                s = steps.get((model, seg, tr, col))
                if not s:
                    continue
                e = [x[0] for x in s]
                by = defaultdict(list)
                for x in s:
                    by[mapset(x[1])].append(x[0])
                    by[kind(x[2], x[3])].append(x[0])
                parts = ' | '.join(f"{k} {len(by[k])}: {pct(by[k], 50)} / {pct(by[k], 90)} / {pct(by[k], 99)}"
                                   for k in ('dao', 'wc3', 'bg', 'first', 'intermediate', 'last') if by[k])
                print(f"{col}: {len(e)} steps, median / 90th / 99th {pct(e, 50)} / {pct(e, 90)} / {pct(e, 99)}; {parts}")
            s = steps.get((model, seg, tr, 'perimeter'))
            if not s:
                continue
            cut = pct([x[0] for x in s], 99)
            tail = [x for x in s if x[0] >= cut]
            rest = [x for x in s if x[0] < cut]
            ntail = len(tail)
            tail = random.sample(tail, min(len(tail), 500))
            sample = random.sample(rest, min(len(rest), 500))
            H = headings[model]
            for name, group in ((f'tail (>= 99th, {ntail} steps; sample)', tail), ('others (sample)', sample)):
                blocked = stop = inside = 0
                ang = 0.0
                for x in group:
                    (sx, sy, sh, sv), (gx, gy) = x[4], x[5]
                    dx, dy = abs(gx - sx), abs(gy - sy)
                    octile = max(dx, dy) + (math.sqrt(2) - 1) * min(dx, dy)
                    gd = griddist(x[1], sx, sy, gx, gy)
                    blocked += gd > 1.2 * octile + 1e-9
                    inside += max(dx, dy) <= 15
                    stop += sv == stopped[model]
                    a = math.degrees(math.atan2(gy - sy, gx - sx)) - sh * 360.0 / H
                    ang += abs((a + 180) % 360 - 180)
                n = len(group)
                print(f"  perimeter {name}: {n} steps; goal within the tables' radius (15) {100.0 * inside / n:.0f}%; "
                      f"detour > 1.2x octile {100.0 * blocked / n:.0f}%; "
                      f"start stopped {100.0 * stop / n:.0f}%; mean angle start heading to goal {ang / n:.0f} deg")
