"""Bad input raises with the library's message; closed handles raise, never crash."""
import os

import pytest

import navbake
from conftest import run


def c_message(*args):
    """What the navbake command says on standard error, its program name taken off."""
    rc, out, err = run("navbake", *args)
    assert rc == 1, (rc, out, err)
    return err.strip().split(": ", 1)[1]


def test_missing_file_raises_io_error_with_the_library_message(work):
    path = work / "no-such.nbk"
    with pytest.raises(navbake.BundleIOError) as e:
        navbake.Bundle(path)
    assert e.value.status == navbake.Status.ERR_IO
    assert e.value.message == c_message("info", path)


def test_not_a_bundle_raises_format_error(work):
    path = work / "junk.nbk"
    path.write_bytes(b"this is not a bundle at all" * 10)
    with pytest.raises(navbake.FormatError) as e:
        navbake.Bundle(path)
    assert e.value.message == c_message("info", path)
    with pytest.raises(navbake.FormatError) as e2:
        navbake.Bundle.from_bytes(path.read_bytes())
    assert e2.value.status == navbake.Status.ERR_FORMAT and e2.value.message


def test_damaged_bundle_raises_crc_error(work, sample_path):
    data = bytearray(open(sample_path, "rb").read())
    with navbake.Bundle(sample_path) as b:
        off = b.section(b.section_lookup("map")).offset
    data[off + 1000] ^= 0x5A   # among the packed map's cells (its header opens checked)
    path = work / "damaged.nbk"
    path.write_bytes(bytes(data))
    with pytest.raises(navbake.CRCError) as e:
        navbake.Bundle(path, verify=True)
    rc, out, err = run("navbake", "verify", path)
    assert rc != 0 and e.value.message in err
    with navbake.Bundle(path) as b, pytest.raises(navbake.CRCError):
        b.verify()


def test_query_errors_carry_status_and_message(sample):
    ws = sample.aa()
    with pytest.raises(navbake.OutsideError) as e:
        ws.find((2, 2), (600, 36))
    assert e.value.status == navbake.Status.ERR_OUTSIDE and "600" in e.value.message
    with pytest.raises(navbake.ArgumentError):
        ws.find((2, 2), (3, 3), size=0)
    ws.configure(size=1)
    with pytest.raises(navbake.NotFoundError) as e:
        ws.find((2, 2), (3, 3), capability="water")
    assert "water" in e.value.message or "capabilit" in e.value.message
    with pytest.raises(navbake.NotFoundError) as e:
        sample.agent("nobody")
    assert "movingai" in e.value.message   # names the agents there are
    with pytest.raises(navbake.NotFoundError):
        sample.capability("lava")


def test_unsupported_overlay_on_motion(sample):
    model = sample.model("tank")
    with model.search() as ws, sample.overlay() as ov:
        with pytest.raises(navbake.UnsupportedError):
            ws.find((2, 2, 0, model.stop), (5, 2, navbake.HEADING_ANY, model.stop), overlay=ov)


def test_an_overlay_of_another_bundle_is_refused(sample_path, sample):
    with navbake.Bundle(sample_path) as other, other.overlay() as ov:
        with pytest.raises(navbake.ArgumentError):
            sample.aa().find((2, 2), (60, 36), overlay=ov)


def test_step_without_begin(sample):
    with pytest.raises(navbake.ArgumentError):
        sample.aa().step(10)


def test_closed_handles_raise(sample_path):
    b = navbake.Bundle(sample_path)
    ws, sg, haa, place, ov = b.aa(), b.sg(), b.haa(), b.place(), b.overlay()
    model = b.model("tank")
    motion = model.search(perimeter=True)
    planner = b.planner("jeep")
    r = ws.find((2, 2), (60, 36))
    view = b.payload(0)
    b.close()
    b.close()   # a second close does nothing
    for h in (b, ws, sg, haa, place, ov, model, motion, planner, motion.perimeter):
        assert h.closed
    with pytest.raises(navbake.ClosedError):
        ws.find((2, 2), (60, 36))
    with pytest.raises(navbake.ClosedError):
        r.path
    with pytest.raises(navbake.ClosedError):
        b.section_count
    with pytest.raises(navbake.ClosedError):
        place.nearest((0, 0))
    with pytest.raises(navbake.ClosedError):
        ov.block(1, 1)
    with pytest.raises(navbake.ClosedError):
        motion.find((2, 2, 0, 1), (5, 2, 0, 1))
    with pytest.raises(navbake.ClosedError):
        b.aa()
    assert bytes(view[:4])    # a view exported before close keeps the mapping


def test_a_closed_overlay_in_a_query_raises(sample):
    ws = sample.aa()
    ov = sample.overlay()
    ws.configure(overlay=ov)
    ov.close()
    with pytest.raises(navbake.ClosedError):
        ws.find((2, 2), (60, 36))
    ws.configure(overlay=None)
    assert ws.find((2, 2), (60, 36)).found


def test_context_managers_close(sample_path):
    with navbake.Bundle(sample_path) as b:
        with b.aa() as ws:
            pass
        assert ws.closed and not b.closed
    assert b.closed


def test_abi_guard_names_the_struct(monkeypatch):
    import ctypes
    from navbake import _types as T
    from navbake._lib import lib
    sizes = (ctypes.c_uint32 * len(T.ABI_STRUCTS))(
        *[ctypes.sizeof(c) for _, c in T.ABI_STRUCTS])
    sizes[7] += 8   # nb_aa_query grown by a field
    abi = T.Abi(1, 0, len(T.ABI_STRUCTS), ctypes.cast(sizes, ctypes.POINTER(ctypes.c_uint32)))
    err = T.Err()
    assert lib.nb_abi_check(ctypes.byref(abi), ctypes.byref(err)) == navbake.Status.ERR_VERSION
    assert b"nb_aa_query" in err.msg
    assert navbake.abi_structs() == [(n, ctypes.sizeof(c)) for n, c in T.ABI_STRUCTS]


def test_garbage_collected_in_any_order(sample_path):
    """A bundle, its workspaces and a result (which holds its workspace: a
    cycle) dropped together: the collector may finalize them in any order,
    and each workspace is still freed before the bundle."""
    import gc
    for _ in range(30):
        b = navbake.Bundle(sample_path)
        ws, place, ov = b.aa(), b.place(), b.overlay()
        r = ws.find((2, 2), (60, 36), overlay=ov)
        place.nearest((0, 0))
        del b, ws, place, ov, r
        gc.collect()


def _record_frees(order, *handles):
    """Makes each handle's native free also append its kind to order."""
    for h in handles:
        own = h._owned
        free = own.free
        own.free = lambda p, free=free, kind=h._kind: (order.append(kind), free(p))


def test_collector_frees_children_before_parents(sample_path):
    """The cyclic collector calls the finalizers of what it collects together
    in an order of its own (here the bundle's first, as it was made first):
    the native frees still come children first, the bundle last."""
    import gc
    gc.collect()
    order = []
    b = navbake.Bundle(sample_path)
    ws, ov = b.aa(), b.overlay()
    model = b.model("tank")
    motion = model.search(perimeter=True)
    _record_frees(order, b, ws, ov, model, motion, motion.perimeter)
    r = ws.find((2, 2), (60, 36), overlay=ov)   # r holds ws, ws holds r: a cycle
    b._cycle = b                                  # and the bundle in one of its own
    del b, ws, ov, model, motion, r
    gc.collect()
    assert sorted(order) == sorted(["bundle", "AA* workspace", "overlay", "model",
                                    "motion workspace", "perimeter table"]), order
    assert order[-1] == "bundle", order
    assert order.index("model") > max(order.index("motion workspace"),
                                      order.index("perimeter table")), order


def test_finalizers_in_any_order_free_children_first():
    """Owned's rule alone, every order of finalizers of a chain and a sibling:
    a parent's native free waits for its children's."""
    import itertools
    from navbake._handle import Owned
    for perm in itertools.permutations(range(4)):
        freed = []
        bundle = Owned(1, freed.append)
        model = Owned(2, freed.append, (bundle,))
        motion = Owned(3, freed.append, (model,))
        ws = Owned(4, freed.append, (bundle,))
        objs = [bundle, model, motion, ws]
        for i in perm:
            objs[i].release()
        assert sorted(freed) == [1, 2, 3, 4], (perm, freed)
        assert freed.index(1) > max(freed.index(2), freed.index(4)), (perm, freed)
        assert freed.index(2) > freed.index(3), (perm, freed)
        for o in objs:   # a second release (the finalizer after close) frees nothing
            o.release()
        assert len(freed) == 4
