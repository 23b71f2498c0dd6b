#!/usr/bin/env python3
# octile_check.py MAP: two cells of MAP (a MovingAI map) that the default
# agent (ground '.', 'G' and swamp 'S') may stand on, far apart in one
# component, and the optimal octile length between them (diagonals need
# both cardinal neighbours free), by a plain Dijkstra: "X1,Y1 X2,Y2 LENGTH",
# or nothing when no cell stands (tests/cli/levels.sh).
import heapq, math, sys

rows = open(sys.argv[1]).read().split("\n")[4:]
rows = [r for r in rows if r]
h, w = len(rows), len(rows[0])
free = lambda x, y: 0 <= x < w and 0 <= y < h and rows[y][x] in ".GS"
start = next(((x, y) for y in range(h) for x in range(w) if free(x, y)), None)
if start is None:
    sys.exit(0)
dist = {start: 0.0}
heap = [(0.0, start)]
while heap:
    d, (x, y) = heapq.heappop(heap)
    if d > dist[(x, y)]:
        continue
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            if (dx or dy) and free(x + dx, y + dy) and (not (dx and dy) or (free(x + dx, y) and free(x, y + dy))):
                nd = d + (math.sqrt(2) if dx and dy else 1.0)
                if nd < dist.get((x + dx, y + dy), math.inf):
                    dist[(x + dx, y + dy)] = nd
                    heapq.heappush(heap, (nd, (x + dx, y + dy)))
goal = max(dist, key=lambda c: (dist[c], c))
print("%d,%d %d,%d %.6f" % (start + goal + (dist[goal],)))
