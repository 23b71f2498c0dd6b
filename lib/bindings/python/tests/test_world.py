"""Worlds of tiles: cut a map (navbake world cut), read the manifest, bake the
tiles and find each cell of the map in its tile's bundle."""
import os

import pytest

import navbake
from conftest import DATA, cjson


@pytest.fixture(scope="module")
def world(work):
    manifest = navbake.world_cut(os.path.join(DATA, "sample.map"), work / "w", tile=32,
                                 cluster=16)
    navbake.world_check(manifest)
    w = navbake.World(manifest)
    w.bake_tiles(work / "w" / "bundles")
    return w


def test_the_manifest(world, sample):
    assert (world.width, world.height) == (sample.width, sample.height)
    assert (world.tile, world.cluster, world.columns, world.rows) == (32, 16, 2, 2)
    assert world.tiles() == [(0, 0), (1, 0), (0, 1), (1, 1)]


def test_every_cell_is_in_its_tile(world, sample):
    opened = {t: world.open_tile(*t) for t in world.tiles()}
    try:
        for y in range(sample.height):
            for x in range(sample.width):
                t, (lx, ly) = world.local(x, y)
                assert opened[t].char(lx, ly) == sample.char(x, y), (x, y)
        assert opened[1, 1].height == 8 and opened[1, 1].width == 32
    finally:
        for b in opened.values():
            b.close()


def test_a_query_in_a_tile(world):
    path = world.bundles[0, 0]
    c = cjson("query", "--json", path, "--from", "2,2", "--to", "21,3")
    with world.open_tile(0, 0) as b:
        r = b.aa().find((2, 2), (21, 3))
        assert r.found and c["found"] and "%.8f" % r.length == "%.8f" % c["length"]


def test_a_world_with_a_tile_missing(world, work):
    os.rename(world.tile_map(1, 1), str(work / "w" / "aside.map"))
    try:
        with pytest.raises(navbake.BakeError) as e:
            navbake.world_check(world.manifest)
        assert "tile (1, 1)" in e.value.message and "1_1.map" in e.value.message
    finally:
        os.rename(str(work / "w" / "aside.map"), world.tile_map(1, 1))
    with pytest.raises(IndexError):
        world.tile_of(64, 0)
