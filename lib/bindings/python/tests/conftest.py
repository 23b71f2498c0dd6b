"""What the tests share: the tree, the C commands they check answers against,
and bundles baked once per run (in a temporary directory).

The binding is tested against the library's own answers: the `navbake`
command's (query --json, scen, nearest, line, random, plan) on the same
bundles.  NAVBAKE_LIB names the library under test and NAVBAKE_TOOLS the
build's commands (tests/cli/python.sh sets both to the build tree's)."""
import json
import os
import subprocess

import pytest

import navbake
from navbake import tool_path

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.environ.get("top_srcdir") or os.path.normpath(os.path.join(HERE, "..", "..", "..", ".."))
DATA = os.path.join(TOP, "data")
SHARED = os.environ.get("NB_SHARED") or os.path.join(TOP, "..", "shared")


def run(tool, *args, stdin=None):
    """A command's (exit status, stdout, stderr)."""
    p = subprocess.run([tool_path(tool)] + [str(a) for a in args], input=stdin,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def cjson(*args):
    """navbake's JSON answer to args."""
    rc, out, err = run("navbake", *args)
    assert out, "navbake %s: exit %d: %s" % (" ".join(map(str, args)), rc, err)
    return json.loads(out)


def shared_map(name):
    p = os.path.join(SHARED, "maps", name)
    return p if os.path.isfile(p) and os.path.isfile(p + ".scen") else None


@pytest.fixture(scope="session")
def work(tmp_path_factory):
    return tmp_path_factory.mktemp("navbake-py")


@pytest.fixture(scope="session")
def sample_path(work):
    """data/sample.map baked with every grid family's sections, a motion model
    with its perimeter table and a unit: the binding's bake() then the
    bakers for what it does not cover."""
    p = navbake.bake(os.path.join(DATA, "sample.map"), work / "sample.nbk", optimal=True,
                     abstract=True)
    assert run("mkperim", "-q", "--model", os.path.join(DATA, "models", "tank.yaml"),
               "-o", p)[0] == 0
    assert run("mkhitcheck", "--unit", os.path.join(DATA, "units", "jeep.yaml"), "-o", p)[0] == 0
    return p


@pytest.fixture
def sample(sample_path):
    with navbake.Bundle(sample_path) as b:
        yield b


@pytest.fixture(scope="session")
def forest_path(work):
    p = work / "forest.nbk"
    rc, out, err = run("mkabstract", "-q", "--forest", os.path.join(DATA, "forest.yaml"),
                       "--agent-radius", "1,2", "-o", p)
    assert rc == 0, err
    return p


@pytest.fixture(scope="session")
def linked(work):
    """A world baked here: data/sample.map cut into 2 x 2 tiles of 32 (clusters
    of 8), each baked by `navbake world tile`, linked by `navbake world link`;
    and the same map baked whole with the same legend and agents, whose
    answers are the world's independent ones.  (The world bundle's path, the
    whole map's bundle's path.)"""
    legend, agents = os.path.join(DATA, "legend.yaml"), os.path.join(DATA, "sample-agents.yaml")
    manifest = navbake.world_cut(os.path.join(DATA, "sample.map"), work / "sw", tile=32,
                                 cluster=8, legend=legend, agents=agents)
    path = navbake.World(manifest).link(work / "sw-out")
    whole = navbake.bake(os.path.join(DATA, "sample.map"), work / "sw-whole.nbk",
                         legend=legend, agents=agents)
    return path, whole


@pytest.fixture
def world(linked):
    """The linked world opened (StreamWorld), no tile loaded."""
    with navbake.StreamWorld(linked[0]) as w:
        yield w
