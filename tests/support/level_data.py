#!/usr/bin/env python3
# level_data.py: writes the files of data/levels/ (run in that folder): the
# room in every encoding Tiled writes (.tmx, .tmj, infinite too), its tilesets,
# the map derived by hand from the rules of formats/tiled.md, the room as a
# PNG, and the hills heightmaps (PGM, 8- and 16-bit PNG).  Needs zstd(1).
# The files are committed; this says how they were made.
import base64, gzip, json, random, struct, subprocess, zlib
W, H = 12, 8
FLOOR, WALL, WATER, SWAMP, DECO, PILLAR = 1, 2, 3, 4, 5, 6
TREE, PROP = 7, 8
ground = [[FLOOR]*W for _ in range(H)]
for y in (2, 3):
    for x in (3, 4): ground[y][x] = WATER
for x in (8, 9): ground[5][x] = SWAMP
ground[7][11] = 0
ground[7][0] = 0
walls = [[0]*W for _ in range(H)]
for x in range(W): walls[0][x] = WALL
for y in (1, 2, 3): walls[y][0] = WALL
walls[4][6] = PILLAR
deco = [[0]*W for _ in range(H)]
deco[5][2] = DECO; deco[2][3] = DECO; deco[2][10] = TREE; deco[3][10] = TREE | 0x80000000; deco[7][0] = PROP
deco[1][0] = TREE  # a tree over a wall: the wall stays
layers = [("ground", ground), ("walls", walls), ("deco", deco)]

def raw(l): return b"".join(g.to_bytes(4, "little") for row in l for g in row)
def enc(l, e):
    if e == "csv": return "csv", None, "\n" + ",\n".join(",".join(str(g) for g in row) for row in l) + "\n"
    r = raw(l)
    if e == "base64": return "base64", None, base64.b64encode(r).decode()
    if e == "zlib": return "base64", "zlib", base64.b64encode(zlib.compress(r)).decode()
    if e == "gzip": return "base64", "gzip", base64.b64encode(gzip.compress(r, mtime=0)).decode()
    if e == "zstd": return "base64", "zstd", base64.b64encode(subprocess.run(["zstd", "-q", "-c", "-19"], input=r, capture_output=True, check=True).stdout).decode()

objects_xml = ''' <objectgroup id="4" name="blockers">
  <object id="1" name="crate" class="obstacle" x="128" y="96" width="32" height="16"/>
  <object id="2" name="rocks" class="obstacle" x="0" y="64">
   <polygon points="0,0 48,0 0,48"/>
  </object>
  <object id="3" name="spawn" class="Location" x="80" y="80" width="48" height="32"/>
  <object id="4" name="marker" x="100" y="20">
   <point/>
  </object>
 </objectgroup>
'''
props_xml = ''' <tileset firstgid="7" name="props" tilewidth="16" tileheight="16" tilecount="2" columns="2">
  <image source="props.png" width="32" height="16"/>
  <tile id="0" class="trees"/>
 </tileset>
'''
def tmx(e):
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="{W}" height="{H}" tilewidth="16" tileheight="16" infinite="0" nextlayerid="5" nextobjectid="5">',
           ' <tileset firstgid="1" source="room.tsx"/>', props_xml.rstrip("\n")]
    for i, (name, l) in enumerate(layers):
        out.append(f' <layer id="{i+1}" name="{name}" width="{W}" height="{H}">')
        if e == "xml":
            out.append('  <data>')
            out += [f'   <tile gid="{g}"/>' if g else '   <tile/>' for row in l for g in row]
            out.append('  </data>')
        else:
            en, co, text = enc(l, e)
            attrs = f' encoding="{en}"' + (f' compression="{co}"' if co else "")
            out.append(f'  <data{attrs}>')
            out.append(text.strip("\n") if e == "csv" else "   " + text)
            out.append('  </data>')
        out.append(' </layer>')
    out.append(objects_xml.rstrip("\n"))
    out.append('</map>')
    return "\n".join(out) + "\n"

for e in ("csv", "base64", "zlib", "gzip", "zstd", "xml"):
    open(f"room-{e}.tmx", "w").write(tmx(e))

tsx = '''<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="room" tilewidth="16" tileheight="16" tilecount="6" columns="3">
 <image source="room.png" width="48" height="32"/>
 <tile id="0" class="floor"/>
 <tile id="1" class="wall"/>
 <tile id="2">
  <properties>
   <property name="terrain" value="water"/>
  </properties>
 </tile>
 <tile id="3" class="swamp"/>
 <tile id="5" class="obstacle"/>
</tileset>
'''
open("room.tsx", "w").write(tsx)
tsj = {"type": "tileset", "version": "1.10", "tiledversion": "1.10.2", "name": "room", "tilewidth": 16, "tileheight": 16,
       "tilecount": 6, "columns": 3, "image": "room.png", "imagewidth": 48, "imageheight": 32, "margin": 0, "spacing": 0,
       "tiles": [{"id": 0, "type": "floor"}, {"id": 1, "class": "wall"},
                 {"id": 2, "properties": [{"name": "terrain", "type": "string", "value": "water"}]},
                 {"id": 3, "class": "swamp"}, {"id": 5, "class": "obstacle"}]}
open("room.tsj", "w").write(json.dumps(tsj, indent=1) + "\n")

def tmj(e):
    ls = []
    for i, (name, l) in enumerate(layers):
        d = {"id": i+1, "name": name, "type": "tilelayer", "width": W, "height": H, "x": 0, "y": 0, "opacity": 1, "visible": True}
        if e == "array":
            d["data"] = [g for row in l for g in row]
        else:
            en, co, text = enc(l, e)
            d["encoding"] = en; d["compression"] = co or ""; d["data"] = text
        ls.append(d)
    ls.append({"id": 4, "name": "blockers", "type": "objectgroup", "draworder": "topdown", "objects": [
        {"id": 1, "name": "crate", "type": "obstacle", "x": 128, "y": 96, "width": 32, "height": 16, "rotation": 0, "visible": True},
        {"id": 2, "name": "rocks", "class": "obstacle", "x": 0, "y": 64, "width": 0, "height": 0, "rotation": 0, "visible": True,
         "polygon": [{"x": 0, "y": 0}, {"x": 48, "y": 0}, {"x": 0, "y": 48}]},
        {"id": 3, "name": "spawn", "type": "Location", "x": 80, "y": 80, "width": 48, "height": 32, "rotation": 0, "visible": True},
        {"id": 4, "name": "marker", "point": True, "x": 100, "y": 20, "width": 0, "height": 0, "rotation": 0, "visible": True}]})
    return {"type": "map", "version": "1.10", "tiledversion": "1.10.2", "orientation": "orthogonal", "renderorder": "right-down",
            "width": W, "height": H, "tilewidth": 16, "tileheight": 16, "infinite": False, "nextlayerid": 5, "nextobjectid": 5,
            "tilesets": [{"firstgid": 1, "source": "room.tsj"},
                         {"firstgid": 7, "name": "props", "tilewidth": 16, "tileheight": 16, "tilecount": 2, "columns": 2,
                          "image": "props.png", "imagewidth": 32, "imageheight": 16, "margin": 0, "spacing": 0,
                          "tiles": [{"id": 0, "type": "trees"}]}],
            "layers": ls}
open("room-array.tmj", "w").write(json.dumps(tmj("array"), indent=1) + "\n")
open("room-zstd.tmj", "w").write(json.dumps(tmj("zstd"), indent=1) + "\n")
open("room-gzip.tmj", "w").write(json.dumps(tmj("gzip"), indent=1) + "\n")

# The expected map, derived by hand from the rules (formats/tiled.md).
exp = [["."]*W for _ in range(H)]
for y in (2, 3):
    for x in (3, 4): exp[y][x] = "W"
for x in (8, 9): exp[5][x] = "S"
exp[7][11] = "@"          # no tile on any layer
for x in range(W): exp[0][x] = "@"
for y in (1, 2, 3): exp[y][0] = "@"
exp[4][6] = "@"           # the pillar (class obstacle)
exp[2][10] = exp[3][10] = "T"
for (x, y) in ((8, 6), (9, 6), (0, 4), (1, 4), (0, 5)): exp[y][x] = "@"   # the crate and the rocks
open("room.expected.map", "w").write(f"type octile\nheight {H}\nwidth {W}\nmap\n" + "".join("".join(r) + "\n" for r in exp))

# Infinite maps: the room in two chunks, (0, 0) 8 x 8 and (8, 0) 4 x 8.
def chunks(l):
    return [(0, 0, [r[0:8] for r in l]), (8, 0, [r[8:12] for r in l])]
def tmx_inf():
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<map version="1.10" tiledversion="1.10.2" orientation="orthogonal" renderorder="right-down" width="30" height="20" tilewidth="16" tileheight="16" infinite="1" nextlayerid="5" nextobjectid="5">',
           ' <tileset firstgid="1" source="room.tsx"/>', props_xml.rstrip("\n")]
    for i, (name, l) in enumerate(layers):
        out.append(f' <layer id="{i+1}" name="{name}" width="30" height="20">')
        out.append('  <data encoding="base64" compression="zlib">')
        for (cx, cy, c) in chunks(l):
            out.append(f'   <chunk x="{cx}" y="{cy}" width="{len(c[0])}" height="{len(c)}">')
            out.append("    " + enc(c, "zlib")[2])
            out.append('   </chunk>')
        out.append('  </data>')
        out.append(' </layer>')
    out.append(objects_xml.rstrip("\n"))
    out.append('</map>')
    return "\n".join(out) + "\n"
open("room-infinite.tmx", "w").write(tmx_inf())
t = tmj("array")
t["infinite"] = True
for L, (name, l) in zip(t["layers"], layers):
    del L["data"]
    L["chunks"] = [{"x": cx, "y": cy, "width": len(c[0]), "height": len(c), "data": [g for r in c for g in r]} for (cx, cy, c) in chunks(l)]
    L["startx"] = 0; L["starty"] = 0
open("room-infinite.tmj", "w").write(json.dumps(t, indent=1) + "\n")
def png(path, w, h, rows, ctype, depth):
    def chunk(t, d): return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
    raw = b"".join(b"\0" + r for r in rows)
    open(path, "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, 0))
                           + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))
m = open("room.expected.map").read().split("\n")[4:12]
col = {".": (0xc0, 0xc0, 0xc0, 255), "W": (0, 0, 0xff, 255), "S": (0, 0xff, 0, 255), "T": (0, 0x80, 0, 255), "@": (0, 0, 0, 255)}
rows = []
for y, r in enumerate(m):
    b = b""
    for x, c in enumerate(r):
        b += bytes((0, 0, 0, 0) if (x, y) == (11, 7) else col[c])
    rows.append(b)
png("room.png", 12, 8, rows, 6, 8)
# Hills: 20 x 14 heights from a fixed generator, smooth with a cliff.
random.seed(7)
W, H = 20, 14
hts = [[0] * W for _ in range(H)]
for y in range(H):
    for x in range(W):
        v = 4 * x + 3 * y + random.randint(0, 6)
        if x >= 12 and y < 6: v += 60          # a plateau behind a cliff
        if x < 3 and y > 9: v = random.randint(0, 8)   # a pond
        hts[y][x] = min(v, 255)
open("hills.pgm", "wb").write(b"P5\n# hills: a plateau behind a cliff, a pond\n%d %d\n255\n" % (W, H) + bytes(v for r in hts for v in r))
png("hills.png", W, H, [b"".join(struct.pack(">H", v * 257) for v in r) for r in hts], 0, 16)
png("hills8.png", W, H, [bytes(r) for r in hts], 0, 8)
