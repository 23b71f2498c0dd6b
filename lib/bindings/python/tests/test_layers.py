"""Layers and the map read in place: views of the bundle's memory, no copy."""
import ctypes

import pytest

import navbake


def test_map_view_is_the_map_file(sample, sample_path):
    from conftest import DATA
    import os
    rows = open(os.path.join(DATA, "sample.map"), "rb").read().split(b"\n")
    grid = rows[rows.index(b"map") + 1:][:sample.height]
    view = sample.map_view()
    assert view.readonly and bytes(view) == b"".join(grid)
    assert sample.char(2, 2) == chr(grid[2][2])


def test_clearance_layer_values(sample):
    cap = sample.agents[0].capability
    layer = sample.clearance_layer(cap)
    assert (layer.width, layer.height) == (sample.width, sample.height)
    for y in range(sample.height):
        for x in range(sample.width):
            assert layer.value(x, y) == sample.clearance(cap, x, y)
    comp = sample.component_layer(cap, 1)
    assert comp.value(2, 2) == sample.component(cap, 1, 2, 2) > 0


def test_payload_is_not_a_copy(sample):
    i = sample.section_lookup(navbake.SectionType.MAP)
    a, b = sample.payload(i), sample.payload(i)
    assert a.obj is not b.obj
    pa = ctypes.addressof(a.obj)
    pb = ctypes.addressof(b.obj)
    assert pa == pb   # both view the same bytes of the bundle


def test_numpy_arrays(sample):
    numpy = pytest.importorskip("numpy")
    cap = sample.agents[0].capability
    arr = sample.map_array()
    assert arr.shape == (sample.height, sample.width) and not arr.flags.writeable
    assert chr(arr[2, 2]) == sample.char(2, 2)
    layer = sample.clearance_layer(cap)
    packed = layer.array()
    assert numpy.shares_memory(packed, numpy.frombuffer(layer.packed, dtype=numpy.uint8))
    full = layer.unpack()
    assert full[2, 2] == sample.clearance(cap, 2, 2)
    assert int(full.max()) <= layer.largest
    r = sample.aa().find((2, 2), (60, 36))
    cells = r.path.array()
    assert cells.shape == (r.path_len, 2) and tuple(cells[-1]) == (60, 36)


def test_path_buffer_reused(sample):
    """No allocation per query in a steady loop: the result object and the
    path buffer are the workspace's, grown only for a longer path."""
    ws = sample.aa()
    r1 = ws.find((2, 2), (60, 36))
    p1 = r1.path
    buf = p1._arr
    r2 = ws.find((2, 2), (21, 3))
    assert r2 is r1 and r2.path._arr is buf
    assert r2.path[-1] == (21, 3)


def test_path_buffer_grows_for_a_longer_path(work):
    """A path longer than the buffer's first size (256) grows it, once."""
    m = work / "corridor.map"
    m.write_text("type octile\nheight 3\nwidth 400\nmap\n" + ("." * 400 + "\n") * 3)
    with navbake.Bundle(navbake.bake(m, work / "corridor.nbk")) as b:
        ws = b.aa()
        assert len(ws.find((0, 1), (10, 1)).path) == 11
        r = ws.find((0, 1), (399, 1))
        path = r.path
        assert len(path) == 400 and path[-1] == (399, 1) and path[200] == (200, 1)
        assert path.tolist() == [(x, 1) for x in range(400)]
