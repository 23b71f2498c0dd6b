#!/usr/bin/env python3
"""world-gen.py MAP SIDE TILE FOLDER [CLUSTER]: a world of SIDE x SIDE cells in
tiles of TILE, made by tiling the MovingAI map MAP with mirroring (each copy
mirrored so that copies meet edge to same edge), written as a game's chunks
would be: FOLDER/tiles/X_Y.map and FOLDER/world.yaml (formats/world.md), the
same files navbake world cut writes from the whole map, without ever holding
the whole world (a 32768^2 map is a 1 GiB file).  A file whose bytes would
not change is left as it is.

world-gen.py --edit FOLDER X0 Y0 W H: turns the cells of the rectangle into
walls where they are free and free where they are walls (the tile maps it
covers rewritten), and prints the tile maps it changed.

--crop X0,Y0,W,H before MAP tiles that rectangle of MAP instead of the whole
map: a DAO map's edges are walls, so its mirrored copies never meet; a
rectangle whose edges cut through the map's open ground makes a world whose
copies join (bench_world_haa's DAO world: brc202d at 50,20,430,291).

--paths first: the manifest says `paths: 1` (each tile's HAA* graph stores
its intra-edges' cell paths, which world HAA*'s refinement copies).
--levels N after it: the manifest says `levels: N` (each tile's HAA* graph
gets N levels of clusters, its own included, which the refinement searches)."""
import os
import sys


def read_map(path):
    with open(path) as f:
        lines = f.read().split('\n')
    h = int(lines[1].split()[1])
    w = int(lines[2].split()[1])
    return w, h, lines[4:4 + h]


def put(path, text):
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        f.write(text)
    os.replace(tmp, path)


def generate(src, side, tile, folder, cluster, crop=None, paths=False, levels=1):
    w, h, rows = read_map(src)
    if crop:
        x0, y0, w, h = crop
        rows = [r[x0:x0 + w] for r in rows[y0:y0 + h]]
    # A row of the world: the source row mirrored across the copies, built
    # once per source row and orientation.
    cache = {}

    def world_row(y):
        ty, sy = divmod(y, h)
        sy = h - 1 - sy if ty % 2 else sy
        if sy not in cache:
            r, rev, line = rows[sy], rows[sy][::-1], []
            n = 0
            while n < side:
                line.append(r if (n // w) % 2 == 0 else rev)
                n += w
            cache[sy] = ''.join(line)[:side]
        return cache[sy]

    os.makedirs(os.path.join(folder, 'tiles'), exist_ok=True)
    n = (side + tile - 1) // tile
    for ty in range(n):
        y0 = ty * tile
        th = min(tile, side - y0)
        band = [world_row(y) for y in range(y0, y0 + th)]
        for tx in range(n):
            x0 = tx * tile
            tw = min(tile, side - x0)
            text = 'type octile\nheight %d\nwidth %d\nmap\n' % (th, tw)
            text += '\n'.join(r[x0:x0 + tw] for r in band) + '\n'
            put(os.path.join(folder, 'tiles', '%d_%d.map' % (tx, ty)), text)
    put(os.path.join(folder, 'world.yaml'),
        '# A navbake world (formats/world.md).\nworld: 1\nwidth: %d\nheight: %d\n'
        'tile: %d\ncluster: %d\n%s%smaps: "tiles/{x}_{y}.map"\n'
        % (side, side, tile, cluster, 'paths: 1\n' if paths else '',
           'levels: %d\n' % levels if levels > 1 else ''))


def edit(folder, x0, y0, ew, eh):
    man = dict(l.split(': ', 1) for l in open(os.path.join(folder, 'world.yaml'))
               if ': ' in l and not l.startswith('#'))
    tile = int(man['tile'])
    for ty in range(y0 // tile, (y0 + eh - 1) // tile + 1):
        for tx in range(x0 // tile, (x0 + ew - 1) // tile + 1):
            path = os.path.join(folder, 'tiles', '%d_%d.map' % (tx, ty))
            w, h, rows = read_map(path)
            rows = [list(r) for r in rows]
            for y in range(max(y0, ty * tile), min(y0 + eh, ty * tile + h)):
                for x in range(max(x0, tx * tile), min(x0 + ew, tx * tile + w)):
                    c = rows[y - ty * tile][x - tx * tile]
                    rows[y - ty * tile][x - tx * tile] = '.' if c in '@OT' else '@'
            put(path, 'type octile\nheight %d\nwidth %d\nmap\n' % (h, w) +
                '\n'.join(''.join(r) for r in rows) + '\n')
            print(path)


if __name__ == '__main__':
    a = sys.argv[1:]
    crop = None
    paths = bool(a) and a[0] == '--paths'
    if paths:
        a = a[1:]
    levels = 1
    if len(a) > 1 and a[0] == '--levels':
        levels = int(a[1])
        a = a[2:]
    if len(a) > 1 and a[0] == '--crop':
        crop = tuple(map(int, a[1].split(',')))
        a = a[2:]
    if a and a[0] == '--edit' and len(a) == 6:
        edit(a[1], *map(int, a[2:]))
    elif len(a) in (4, 5):
        generate(a[0], int(a[1]), int(a[2]), a[3], int(a[4]) if len(a) == 5 else 16, crop,
                 paths, levels)
    else:
        sys.exit(__doc__)
