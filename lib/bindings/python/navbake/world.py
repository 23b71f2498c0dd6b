"""Worlds of tiles (formats/world.md): a world too large for one bundle is a
grid of square tiles, each baked into an ordinary bundle.

    navbake.world_cut("big.map", "w", tile=256)     # navbake world cut
    world = navbake.World("w/world.yaml")
    world.bake_tiles("w/bundles")                    # one bundle a tile
    with world.open_tile(*world.tile_of(700, 300)) as b: ...

Cutting and checking are bake-side work: like bake(), they run the
installed `navbake world` command until the bake library is public.  The
manifest is read here (its flat subset of YAML: no other key is allowed).
"""
import os
import re

from .baking import BakeError, _run, bake
from .bundle import Bundle

_KEYS = {"world", "width", "height", "tile", "cluster", "maps", "legend", "agents"}


def world_cut(map_path, folder, tile, cluster=None, legend=None, agents=None):
    """Cuts a MovingAI map into a world of tile x tile tiles in folder
    (navbake world cut); returns the manifest's path.  BakeError with the
    command's message."""
    args = ["world", "cut", os.fspath(map_path), "--tile", str(tile), "-o", os.fspath(folder),
            "-q"]
    if cluster:
        args += ["--cluster-size", str(cluster)]
    if legend:
        args += ["--legend", os.fspath(legend)]
    if agents:
        args += ["--agents", os.fspath(agents)]
    _run("navbake", args)
    return os.path.join(os.fspath(folder), "world.yaml")


def world_check(manifest):
    """Checks a world's files against its manifest (navbake world check):
    BakeError naming the tile and file at the first error."""
    _run("navbake", ["world", "check", "-q", os.fspath(manifest)])


def world_tile(manifest, column, row, out):
    """Bakes tile (column, row) of a world into out/tiles/X_Y.nbb with its
    border file (navbake world tile): what world_link() reads."""
    _run("navbake", ["world", "tile", "-q", os.fspath(manifest), str(column), str(row),
                     "-o", os.fspath(out)])


def world_link(manifest, out):
    """Links a world's baked tiles into out/world.nbw (navbake world link),
    which StreamWorld opens; returns its path."""
    _run("navbake", ["world", "link", "-q", os.fspath(manifest), "-o", os.fspath(out)])
    return os.path.join(os.fspath(out), "world.nbw")


def _scalar(text):
    text = text.split(" #", 1)[0].strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return int(text) if re.fullmatch(r"[0-9]+", text) else text


class World:
    """A world's manifest: its size, tiles and where each tile's map is."""

    def __init__(self, manifest):
        self.manifest = os.fspath(manifest)
        self.folder = os.path.dirname(os.path.abspath(self.manifest))
        keys = {"cluster": 16, "legend": None, "agents": None}
        with open(self.manifest, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                key, sep, value = line.partition(":")
                key = key.strip()
                if not sep or key not in _KEYS:
                    raise BakeError(None, None, "%s:%d: '%s' is not a key of a world manifest "
                                    "(formats/world.md)" % (self.manifest, n, key))
                keys[key] = _scalar(value)
        for need in ("world", "width", "height", "tile", "maps"):
            if need not in keys:
                raise BakeError(None, None, "%s: no '%s'" % (self.manifest, need))
        self.width, self.height = keys["width"], keys["height"]
        self.tile, self.cluster, self.maps = keys["tile"], keys["cluster"], keys["maps"]
        self.legend = keys["legend"] and os.path.join(self.folder, keys["legend"])
        self.agents = keys["agents"] and os.path.join(self.folder, keys["agents"])
        self.columns = -(-self.width // self.tile)
        self.rows = -(-self.height // self.tile)
        self.bundles = {}

    def tiles(self):
        """Every tile (X, Y), row by row."""
        return [(x, y) for y in range(self.rows) for x in range(self.columns)]

    def tile_of(self, x, y):
        """The tile (X, Y) holding world cell (x, y)."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError("cell (%d, %d) is outside the %d x %d world"
                             % (x, y, self.width, self.height))
        return x // self.tile, y // self.tile

    def local(self, x, y):
        """World cell (x, y) as (tile, cell of the tile's map)."""
        tx, ty = self.tile_of(x, y)
        return (tx, ty), (x - tx * self.tile, y - ty * self.tile)

    def tile_map(self, tx, ty):
        """The path of tile (X, Y)'s map."""
        return os.path.join(self.folder, self.maps.replace("{x}", str(tx)).replace("{y}", str(ty)))

    def bake_tiles(self, folder, **options):
        """Bakes every tile's map into folder/X_Y.nbk with bake() (its options:
        optimal=, abstract=...); returns {(X, Y): path}."""
        os.makedirs(folder, exist_ok=True)
        for tx, ty in self.tiles():
            out = os.path.join(os.fspath(folder), "%d_%d.nbk" % (tx, ty))
            bake(self.tile_map(tx, ty), out, legend=self.legend, agents=self.agents, **options)
            self.bundles[tx, ty] = out
        return dict(self.bundles)

    def link(self, out):
        """Bakes every tile for the streaming runtime (world_tile) and links
        them (world_link) into out; returns the world bundle's path, for
        StreamWorld."""
        for tx, ty in self.tiles():
            world_tile(self.manifest, tx, ty, out)
        return world_link(self.manifest, out)

    def open_tile(self, tx, ty, **open_options):
        """The Bundle of a tile bake_tiles() baked."""
        return Bundle(self.bundles[tx, ty], **open_options)
