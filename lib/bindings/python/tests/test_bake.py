"""The bake library through the binding (navbake.Baker, bake_grid, bake()):
the bytes are mkclear's then mkabstract's for the same level; a cancelled
bake raises CancelledError and writes nothing; bad input raises the
library's message."""
import os
import re

import pytest

import navbake
from navbake import bakelib
from conftest import DATA, TOP, run

SAMPLE = os.path.join(DATA, "sample.map")


def tools_bake(level, out, abstract=True):
    """The bundle's bytes from the command-line bakers."""
    rc, _, err = run("mkclear", level, "-o", out, "-q")
    assert rc == 0, err
    if abstract:
        rc, _, err = run("mkabstract", out, "-q")
        assert rc == 0, err
    with open(out, "rb") as f:
        return f.read()


def test_every_bake_function_is_declared_and_called():
    text = open(os.path.join(TOP, "lib", "include", "navbake_bake.h")).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"^\s*#.*?(?<!\\)$", "", text, flags=re.M | re.S)
    fns = set(re.findall(r"\b(nb_bake_\w+)\s*\((?!\*)", text))
    assert "nb_bake_memory" in fns and len(fns) >= 16
    assert sorted(fns - set(bakelib.PROTOTYPES)) == []
    src = open(bakelib.__file__).read()
    assert sorted(f for f in fns if not re.search(r"dll\.%s\b" % f, src)) == []


def test_abi_check():
    assert bakelib.abi_check() == [("nb_bake_options", 48)]


def test_level_file_same_bytes_as_the_bakers(work):
    want = tools_bake(SAMPLE, work / "tools.nbk")
    with navbake.Baker() as b:
        b.read_level(SAMPLE)
        assert b.bake() == want
        with open(SAMPLE) as f:
            b.set_map(f.read(), "sample.map")
        assert b.bake() == want
    p = navbake.bake(SAMPLE, work / "lib.nbk", abstract=True)
    with open(p, "rb") as f:
        assert f.read() == want
    p = navbake.bake(SAMPLE, work / "lib-clear.nbk")
    with open(p, "rb") as f:
        assert f.read() == tools_bake(SAMPLE, work / "tools-clear.nbk", abstract=False)


GRID = [[0, 0, 0, 0, 0, 0],
        [0, 255, 255, 0, 0, 0],
        [0, 0, 255, 0, 0, 0],
        [0, 0, 0, 0, 255, 0],
        [0, 0, 0, 0, 0, 0]]


def test_grid_same_bytes_as_its_map(work):
    data = navbake.bake_grid(GRID)
    with navbake.Bundle(navbake.bake_grid(GRID, work / "grid.nbk")) as b:
        free = b.terrains[0].chars[0]
    rows = ["".join("@" if c == 255 else free for c in r) for r in GRID]
    m = work / "grid.map"
    m.write_text("type octile\nheight %d\nwidth %d\nmap\n%s\n"
                 % (len(GRID), len(GRID[0]), "\n".join(rows)))
    assert data == tools_bake(str(m), work / "grid-tools.nbk")
    flat = bytes(c for r in GRID for c in r)
    assert navbake.bake_grid(flat, width=6, height=5) == data
    with open(navbake.bake_grid(GRID, work / "grid2.nbk"), "rb") as f:
        assert f.read() == data


def test_grid_from_numpy():
    np = pytest.importorskip("numpy")
    assert navbake.bake_grid(np.array(GRID, dtype=np.uint8)) == navbake.bake_grid(GRID)


def test_cancel_raises_and_writes_nothing(work):
    seen = []
    out = work / "cancelled.nbk"
    with navbake.Baker() as b:
        b.read_level(SAMPLE)
        with pytest.raises(navbake.CancelledError) as e:
            b.write(out, progress=lambda f: seen.append(f) or True)
        assert e.value.status == navbake.Status.ERR_CANCELLED and e.value.message
        assert seen and 0 <= seen[0] <= 1
        assert not os.path.exists(out)
        out.write_bytes(b"before")
        with pytest.raises(navbake.CancelledError):
            b.write(out, progress=lambda f: True)
        assert out.read_bytes() == b"before"
        with pytest.raises(navbake.CancelledError):
            b.bake(progress=lambda f: True)

        def boom(f):
            raise KeyError("from the callback")
        with pytest.raises(KeyError):
            b.bake(progress=boom)
        fractions = []
        assert b.bake(progress=fractions.append) == tools_bake(SAMPLE, work / "t2.nbk")
        assert fractions and fractions == sorted(fractions) and fractions[-1] <= 1


def test_bad_input_raises_the_library_message(work):
    with navbake.Baker() as b:
        with pytest.raises(navbake.ArgumentError):
            b.bake()                      # no grid yet
        with pytest.raises(navbake.NavbakeError) as e:
            b.set_map("type octile\nheight 2\nwidth 3\nmap\n...\n", "short.map")
        assert "short.map" in e.value.message
        with pytest.raises(navbake.NavbakeError) as e:
            b.set_grid([[0, 0], [0, 77]])
        assert e.value.message and e.value.status
        with pytest.raises(navbake.NavbakeError) as e:
            b.read_level(work / "no-such.map")
        assert "no-such.map" in e.value.message
        with pytest.raises(navbake.NotFoundError) as e:
            b.terrain("no-such-terrain")
        assert "no-such-terrain" in e.value.message
        with pytest.raises(ValueError):
            b.set_grid([[0, 0], [0]])
        assert b.terrain_count >= 1
    with pytest.raises(navbake.ClosedError):
        b.bake()
