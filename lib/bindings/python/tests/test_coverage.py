"""Every public function of navbake.h is reachable from the binding: declared
for ctypes in _lib.PROTOTYPES and called by one of the package's modules, or
listed in the README's "Left out" section with the reason."""
import os
import re

import navbake
from conftest import TOP
from navbake._lib import PROTOTYPES

PKG = os.path.dirname(navbake.__file__)


def header_functions():
    text = open(os.path.join(TOP, "lib", "include", "navbake.h")).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"^\s*#.*?(?<!\\)$", "", text, flags=re.M | re.S)
    # A name before "(*" is a callback type's return type, not a function.
    return set(re.findall(r"\b(nb_\w+)\s*\((?!\*)", text)) - {"nb_motion_segment_fn"}


def left_out():
    readme = open(os.path.join(os.path.dirname(PKG), "README.md")).read()
    part = readme.split("## Left out", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"`(nb_\w+)", part))


def package_calls():
    calls = set()
    for name in os.listdir(PKG):
        if name.endswith(".py") and name != "_lib.py":
            src = open(os.path.join(PKG, name)).read()
            calls |= set(re.findall(r"lib\.(nb_\w+)", src))
            calls |= set(re.findall(r'fast\("(nb_\w+)"\)', src))   # the hot calls' pointers
            # the families' calls made by name: "nb_%s_find" % fam
            for fam in re.findall(r'Family\(self, "(\w+)"', src):
                calls |= {"nb_%s_%s" % (fam, op)
                          for op in ("find", "begin", "step", "finish", "query_init_abi")}
            for fam in re.findall(r'_fam(?:, \w+)* = "(\w+)"', src):
                calls |= {"nb_%s_%s" % (fam, op) for op in ("set_max_nodes", "bytes", "open",
                                                            "query_agent")}
                if "Family(self, self._fam" in src:
                    calls |= {"nb_%s_%s" % (fam, op) for op in ("find", "begin", "step",
                                                                "finish", "query_init_abi")}
    return calls


def test_header_is_parsed():
    fns = header_functions()
    assert "nb_aa_find" in fns and "nb_bundle_open_abi" in fns and len(fns) > 190


def test_every_function_is_declared():
    missing = sorted(header_functions() - set(PROTOTYPES))
    assert not missing, "navbake.h functions not in _lib.PROTOTYPES: %s" % missing


def test_every_function_is_called_or_left_out_with_a_reason():
    fns = header_functions()
    uncovered = sorted(fns - package_calls() - left_out())
    assert not uncovered, "not reachable from the package: %s" % uncovered
    stale = sorted(left_out() - fns)
    assert not stale, "README lists functions navbake.h lacks: %s" % stale
