"""The world handle (StreamWorld, nb_world_open(3)) on a world baked here:
data/sample.map cut into 2 x 2 tiles, each baked by `navbake world tile`,
linked by `navbake world link`.  Its answers are checked against the C
library's on the same map baked whole (Bundle.reachable, nb_reachable)."""
import gc
import os
import random

import pytest

import navbake


def tile_file(linked, column, row):
    return os.path.join(os.path.dirname(linked[0]), "tiles", "%d_%d.nbb" % (column, row))


def test_opens_with_no_tile_loaded(world, linked):
    i = world.info
    assert (i.width, i.height, i.tile, i.columns, i.rows) == (64, 40, 32, 2, 2)
    assert (i.cluster, i.loaded, i.retired) == (8, 0, 0)
    assert not any(world.loaded(c, r) for c in range(2) for r in range(2))
    with navbake.Bundle(linked[1]) as whole:
        assert [a.name for a in world.bundle.agents] == [a.name for a in whole.agents]
        assert world.bundle.capability("ground,swamp") == whole.capability("ground,swamp")


def test_a_query_names_the_tiles_it_needs(world):
    with pytest.raises(navbake.UnloadedError) as e:
        world.reachable("ground,swamp", 1, (2, 2), (60, 36))
    assert e.value.status == navbake.Status.ERR_UNLOADED and e.value.message
    assert e.value.needed == [(0, 0), (1, 1)]
    assert [world.tile_of(2, 2), world.tile_of(60, 36)] == e.value.needed
    world.load(0, 0)
    with pytest.raises(navbake.UnloadedError) as e:
        world.reachable("ground,swamp", 1, (2, 2), (60, 36))
    assert e.value.needed == [(1, 1)]
    world.load(1, 1)
    assert world.reachable("ground,swamp", 1, (2, 2), (60, 36)) in (True, False)


def test_reachable_is_the_whole_bakes(world, linked):
    """Every agent of the set, 500 pairs of cells each, most across tiles:
    the world's answer is nb_reachable's on the map baked whole."""
    world.load_cells(0, 0, 64, 40)
    assert world.info.loaded == 4
    rng = random.Random(31)
    seen = set()
    with navbake.Bundle(linked[1]) as whole:
        for a in whole.agents:
            for _ in range(500):
                s = (rng.randrange(64), rng.randrange(40))
                g = (rng.randrange(64), rng.randrange(40))
                want = whole.reachable(a.capability, a.size, s, g)
                assert want in (0, 1)
                got = world.reachable(a.capability, a.size, s, g)
                assert got == bool(want), (a.name, s, g)
                seen.add(got)
    assert seen == {True, False}   # both answers were checked


def test_load_and_unload(world, linked):
    empty = world.bytes
    world.load(1, 0)
    assert world.loaded(1, 0) and world.info.loaded == 1
    one = world.bytes
    assert one - empty >= os.path.getsize(tile_file(linked, 1, 0))
    world.load(1, 0)   # already loaded: left as it is
    assert world.bytes == one
    world.unload(1, 0)
    assert not world.loaded(1, 0) and world.bytes == empty
    world.load_cells(30, 30, 4, 4)   # meets the four tiles
    assert world.info.loaded == 4
    world.unload_cells(0, 0, 33, 1)  # the top two
    assert [world.loaded(c, r) for r in range(2) for c in range(2)] == [False, False, True, True]


def test_errors_carry_the_librarys_status(world, work):
    with pytest.raises(navbake.OutsideError) as e:
        world.load(2, 0)
    assert e.value.status == navbake.Status.ERR_OUTSIDE and e.value.message
    with pytest.raises(navbake.ArgumentError):
        world.load_cells(0, 0, 0, 5)
    world.load(0, 0)
    with pytest.raises(navbake.OutsideError):
        world.reachable(1, 1, (2, 2), (64, 2))
    with pytest.raises(navbake.NotFoundError):
        world.reachable(1, 9, (2, 2), (3, 3))   # no components for size 9
    with pytest.raises(navbake.BundleIOError) as e:
        navbake.StreamWorld(work / "no-such.nbw")
    assert "no-such.nbw" in e.value.message
    with pytest.raises(navbake.BundleIOError) as e:
        navbake.StreamWorld(world.path, tiles=work / "no-tiles").load(0, 0)
    assert "no-tiles" in e.value.message


def test_a_loader_gives_bytes_or_paths(world, linked):
    asked = []

    def from_memory(column, row):
        asked.append((column, row))
        if column == 1:
            return tile_file(linked, column, row)
        with open(tile_file(linked, column, row), "rb") as f:
            return bytearray(f.read())

    world.set_loader(from_memory)
    world.load_cells(0, 0, 64, 40)
    assert sorted(asked) == [(0, 0), (0, 1), (1, 0), (1, 1)] and world.info.loaded == 4
    with navbake.StreamWorld(linked[0]) as alone:
        alone.load_cells(0, 0, 64, 40)
        for s, g in [((2, 2), (60, 36)), ((5, 30), (40, 5)), ((33, 2), (2, 38))]:
            assert world.reachable(1, 1, s, g) == alone.reachable(1, 1, s, g)


def test_a_loader_that_fails_or_gives_another_tile(world, linked):
    def failing(column, row):
        raise KeyError("no tile %d,%d in the archive" % (column, row))

    world.set_loader(failing)
    with pytest.raises(navbake.BundleIOError) as e:
        world.load(1, 1)
    assert "no tile 1,1 in the archive" in e.value.message
    assert isinstance(e.value.__cause__, KeyError)
    assert not world.loaded(1, 1)

    world.set_loader(lambda column, row: tile_file(linked, 0, 0))
    with pytest.raises(navbake.MismatchError) as e:
        world.load(1, 1)
    assert e.value.status == navbake.Status.ERR_MISMATCH and e.value.message
    assert not world.loaded(1, 1)
    world.set_loader(None)   # the tile folder again
    world.load(1, 1)
    assert world.loaded(1, 1)


def test_a_closed_world_raises(linked):
    w = navbake.StreamWorld(linked[0])
    b = w.bundle
    w.load(0, 0)
    w.close()
    assert w.closed and b.closed
    for call in (lambda: w.load(0, 0), lambda: w.info, lambda: w.bytes,
                 lambda: w.reachable(1, 1, (2, 2), (3, 3)), lambda: w.loaded(0, 0),
                 lambda: b.agents and b.capability("ground")):
        with pytest.raises(navbake.ClosedError):
            call()
    w.close()   # a second close does nothing


def test_collected_in_any_order(linked):
    """The world and its bundle in a cycle, collected together: the world is
    freed after its bundle's handle, whichever finalizer runs first."""
    for _ in range(5):
        w = navbake.StreamWorld(linked[0])
        b = w.bundle
        w.load(0, 0)
        b._cycle, w._cycle = w, b
        del w, b
        gc.collect()
