"""python3 -m navbake prints what navbake prints for the same input (times apart)."""
import re
import subprocess
import sys

import pytest

from conftest import run

TIMES = re.compile(r'(time  .*|workspace  .*made in.*|"microseconds": [0-9.]+|'
                   r'"setup_microseconds": [0-9.]+|"mean_us": [0-9.]+|"median_us": [0-9.]+|'
                   r'"expansions_per_second": [0-9]+|expanded   .*million per second)')


def py(*args):
    p = subprocess.run([sys.executable, "-m", "navbake"] + [str(a) for a in args],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return p.returncode, p.stdout, p.stderr


def same(args):
    c, p = run("navbake", *args), py(*args)
    assert p[0] == c[0], (p, c)
    assert TIMES.sub("T", p[1]) == TIMES.sub("T", c[1])
    assert p[2] == c[2]


@pytest.mark.parametrize("args", [
    ["info"], ["info", "--json"],
    ["query", "--from", "2,2", "--to", "60,36", "-p"],
    ["query", "--from", "2,2", "--to", "60,36", "-p", "-j", "-m", "optimal"],
    ["query", "--from", "0,0", "--to", "60,36"],
    ["query", "--from", "2,2", "--to", "60,36", "-n", "20", "-p"],
    ["query", "--from", "2,2", "--to", "60,36", "-c", "ground"],
])
def test_same_output(sample_path, args):
    same(args[:1] + [sample_path] + args[1:])


def test_scen(work, sample_path):
    f = work / "two.scen"
    f.write_text("version 1\n0\ts.map\t64\t40\t2\t2\t60\t36\t74.42640687\n"
                 "0\ts.map\t64\t40\t2\t2\t61\t36\t74.42652000\n")
    for extra in ([], ["-j"], ["-m", "optimal", "-T", "0.5"]):
        same(["scen"] + extra + [sample_path, f])


def test_a_missing_bundle(work):
    same(["info", work / "nothing.nbk"])
