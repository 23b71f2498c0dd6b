#!/usr/bin/env python3
# level_truth.py FILE[#LEVEL] [TILESET:ID=CHAR...]: the MovingAI map navbake should read from a
# Tiled map (.tmx, .tmj) or an LDtk project (.ldtk), under the default
# legend, decoded here with python's own XML, JSON, base64 and zlib
# readers: an answer independent of the C readers (tests/cli/levels.sh).
# The rules are formats/tiled.md's and formats/ldtk.md's; TILESET:ID=CHAR
# gives a Tiled tile a character, as a legend's "tiles" entries do.
import base64, gzip, json, os, sys, zlib
import xml.etree.ElementTree as ET

CHAR = {"ground": ".", "swamp": "S", "water": "W", "trees": "T", "obstacle": "@"}
MASK = 0x0FFFFFFF


def gids_of(data, count):
    enc, comp = data.get("encoding"), data.get("compression")
    if enc == "csv":
        g = [int(v) for v in data.text.replace("\n", "").split(",") if v.strip()]
    elif enc == "base64":
        raw = base64.b64decode(data.text.strip())
        if comp == "zlib":
            raw = zlib.decompress(raw)
        elif comp == "gzip":
            raw = gzip.decompress(raw)
        elif comp:
            raise SystemExit("level_truth: compression %s not handled here" % comp)
        g = [int.from_bytes(raw[i:i + 4], "little") for i in range(0, len(raw), 4)]
    else:
        g = [int(t.get("gid", "0")) for t in data.findall("tile")]
    assert len(g) == count, (len(g), count)
    return g


def tile_names_xml(ts):
    names = {}
    for t in ts.findall("tile"):
        name = None
        for p in t.findall("properties/property"):
            if p.get("name") == "terrain":
                name = p.get("value")
        names[int(t.get("id"))] = name or t.get("class") or t.get("type")
    return ts.get("name"), names


def tiled_xml(path):
    root = ET.parse(path).getroot()
    assert root.get("orientation", "orthogonal") == "orthogonal"
    w, h = int(root.get("width")), int(root.get("height"))
    tilesets = []
    for ts in root.findall("tileset"):
        first = int(ts.get("firstgid"))
        if ts.get("source"):
            ts = ET.parse(os.path.join(os.path.dirname(path), ts.get("source"))).getroot()
        tsname, names = tile_names_xml(ts)
        tilesets.append((first, names, tsname))
    layers = [gids_of(l.find("data"), w * h) for l in root.iter("layer")]
    named_objects = [o for g in root.iter("objectgroup") for o in g.findall("object")
                     if CHAR.get(o.get("class") or o.get("type") or g.get("class"))]
    assert not named_objects, "named objects are not checked here"
    return w, h, tilesets, layers


def tiled_json(path):
    root = json.load(open(path))
    w, h = root["width"], root["height"]
    tilesets = []
    for ts in root["tilesets"]:
        first = ts["firstgid"]
        if "source" in ts:
            ts = json.load(open(os.path.join(os.path.dirname(path), ts["source"])))
        names = {}
        for t in ts.get("tiles", []):
            props = {p["name"]: p["value"] for p in t.get("properties", [])}
            names[t["id"]] = props.get("terrain") or t.get("class") or t.get("type")
        tilesets.append((first, names, ts.get("name")))
    layers = []
    def walk(ls):
        for l in ls:
            if l["type"] == "tilelayer":
                d = l["data"]
                if isinstance(d, str):
                    raw = base64.b64decode(d)
                    raw = {"zlib": zlib.decompress, "gzip": gzip.decompress}.get(l.get("compression") or "", lambda b: b)(raw)
                    d = [int.from_bytes(raw[i:i + 4], "little") for i in range(0, len(raw), 4)]
                layers.append(d)
            elif l["type"] == "group":
                walk(l["layers"])
    walk(root["layers"])
    return w, h, tilesets, layers


def tiled(path):
    w, h, tilesets, layers = (tiled_json if path.endswith((".tmj", ".json")) else tiled_xml)(path)
    def char(gid):
        first, names, tsname = max((t for t in tilesets if t[0] <= gid), key=lambda t: t[0])
        return EXTRA.get("%s:%d" % (tsname, gid - first)) or CHAR.get(names.get(gid - first))
    rows = []
    for y in range(h):
        row = ""
        for x in range(w):
            obstacle, terrain, anything = False, None, False
            for l in layers:
                gid = l[y * w + x] & MASK
                if not gid:
                    continue
                anything = True
                c = char(gid)
                if c == "@":
                    obstacle = True
                elif c:
                    terrain = c
            row += "@" if obstacle else terrain or ("." if anything else "@")
        rows.append(row)
    return rows


def ldtk(path, only):
    root = json.load(open(path))
    defs = {d["uid"]: d for d in root["defs"]["layers"]}
    levels = [l for l in root["levels"] if only is None or l["identifier"] == only]
    cell = min(li["__gridSize"] for lv in levels for li in layers_of(path, lv) if li["__type"] == "IntGrid")
    lx = ly = 0
    placed = []
    for lv in levels:
        x, y = lv["worldX"], lv["worldY"]
        if only is not None:
            x = y = 0
        elif root["worldLayout"] == "LinearHorizontal":
            x, y, lx = lx, 0, lx + lv["pxWid"]
        elif root["worldLayout"] == "LinearVertical":
            x, y, ly = 0, ly, ly + lv["pxHei"]
        placed.append((x // cell, y // cell, lv))
    x0 = min(p[0] for p in placed); y0 = min(p[1] for p in placed)
    x1 = max(p[0] - (-p[2]["pxWid"] // cell) for p in placed)
    y1 = max(p[1] - (-p[2]["pxHei"] // cell) for p in placed)
    grid = [["@"] * (x1 - x0) for _ in range(y1 - y0)]
    for px, py, lv in placed:
        lw, lh = -(-lv["pxWid"] // cell), -(-lv["pxHei"] // cell)
        for cy in range(lh):
            for cx in range(lw):
                obstacle, terrain = False, None
                for li in layers_of(path, lv):  # top first
                    if li["__type"] != "IntGrid":
                        continue
                    f = li["__gridSize"] // cell
                    v = li["intGridCsv"][(cy // f) * li["__cWid"] + cx // f]
                    if not v:
                        continue
                    ident = {e["value"]: e["identifier"] for e in defs[li["layerDefUid"]]["intGridValues"]}.get(v)
                    c = CHAR.get(ident, "@")
                    if c == "@":
                        obstacle = True
                    elif terrain is None:
                        terrain = c
                grid[py - y0 + cy][px - x0 + cx] = "@" if obstacle else terrain or "."
    return ["".join(r) for r in grid]


def layers_of(path, lv):
    if lv.get("layerInstances") is None:
        lv["layerInstances"] = json.load(open(os.path.join(os.path.dirname(path), lv["externalRelPath"])))["layerInstances"]
    return lv["layerInstances"]


arg = sys.argv[1]
EXTRA = dict(a.rsplit("=", 1) for a in sys.argv[2:])
if ".ldtk#" in arg:
    rows = ldtk(arg.split("#")[0], arg.split("#", 1)[1])
elif arg.endswith(".ldtk"):
    rows = ldtk(arg, None)
else:
    rows = tiled(arg)
print("type octile\nheight %d\nwidth %d\nmap" % (len(rows), len(rows[0])))
print("\n".join(rows))
