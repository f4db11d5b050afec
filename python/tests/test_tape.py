"""Reverse-mode gradients from Python (issue #26): kern.Tape in the plain
package and wp.Tape in kern.warp, over libkern's adjoint kernels.

Every expected gradient here is worked out by hand from the kernel's
formula (and, where real Warp is installed, the kern.warp script also runs
under Warp and must agree): sum of squares, a two-kernel chain, saxpy with
a value parameter, a loss read through a vec3, gradients seeded with
``grads=``, ``adjoint=True`` launches, ``zero``/``reset`` and the errors."""
import os
import runpy
import subprocess
import sys

import numpy as np
import pytest

import kern
import kern.warp as wp

from conftest import DEVICE

SRC = """import warp as wp

@wp.kernel
def sumsq(x: wp.array(dtype=wp.float64), out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    wp.atomic_add(out, 0, x[i] * x[i])

@wp.kernel
def scale(x: wp.array(dtype=wp.float64), s: wp.float64, y: wp.array(dtype=wp.float64)):
    i = wp.tid()
    y[i] = s * wp.sin(x[i])
"""


@pytest.fixture(scope="module")
def mod(device):
    return kern.load(SRC, device=device, name="tape_src.py")


def test_plain_tape_chain(mod, device):
    # loss = sum_i (s sin x_i)^2, dloss/dx_i = 2 s^2 sin x_i cos x_i
    h = np.linspace(-1.0, 2.0, 17)
    x = kern.array(h, device=device, requires_grad=True)
    y = kern.zeros(17, kern.float64, device=device, requires_grad=True)
    loss = kern.zeros(1, kern.float64, device=device, requires_grad=True)
    with kern.Tape() as tape:
        mod.scale(x, 1.5, y, dim=17)
        mod.sumsq(y, loss, dim=17)
    assert len(tape.launches) == 2
    tape.backward(loss=loss)
    want = 2 * 1.5 ** 2 * np.sin(h) * np.cos(h)
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-12, atol=1e-14)
    # y was stored by scale: its adjoint took y.grad and cleared it, as Warp's
    assert not y.grad.numpy().any()
    np.testing.assert_allclose(loss.numpy(), [np.sum((1.5 * np.sin(h)) ** 2)], rtol=1e-12)
    # a second backward accumulates into x.grad, as Warp's does
    tape.backward(loss=loss)
    np.testing.assert_allclose(x.grad.numpy(), 2 * want, rtol=1e-12, atol=1e-13)
    tape.zero()
    assert not x.grad.numpy().any() and not y.grad.numpy().any()
    tape.reset()
    assert tape.launches == []


def test_plain_tape_grads_seed(mod, device):
    # backward(grads={y: g}) starts from g instead of a loss
    h = np.arange(5, dtype=np.float64)
    x = kern.array(h, device=device, requires_grad=True)
    y = kern.zeros(5, kern.float64, device=device)
    with kern.Tape() as tape:
        mod.scale(x, 2.0, y, dim=5)
    g = kern.array(np.array([1.0, 0.0, 2.0, 0.0, -1.0]), device=device)
    seed = g.numpy().copy()
    tape.backward(grads={y: g})
    assert y.grad is g and not g.numpy().any()  # taken, then cleared
    np.testing.assert_allclose(x.grad.numpy(), 2.0 * np.cos(h) * seed, rtol=1e-12)


def test_tape_errors(mod, device):
    x = kern.zeros(4, kern.float64, device=device, requires_grad=True)
    out = kern.zeros(2, kern.float64, device=device, requires_grad=True)
    tape = kern.Tape()
    with pytest.raises(kern.InvalidArgumentError, match="one scalar element"):
        tape.backward(loss=out)
    with pytest.raises(kern.InvalidArgumentError, match="requires_grad=True"):
        tape.backward(loss=kern.zeros(1, kern.float64, device=device))
    with tape:
        with pytest.raises(kern.InvalidArgumentError, match="already recording"):
            kern.Tape().__enter__()
    assert kern.zeros(3, device=device).grad is None


WARP_SCRIPT = """import numpy as np
import kern.warp as wp

@wp.func
def energy(p: wp.vec3, k: float):
    return k * wp.dot(p, p)

@wp.kernel
def springs(pos: wp.array(dtype=wp.vec3), k: float, loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, energy(pos[i], k))

@wp.kernel
def move(x: wp.array(dtype=float), pos: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    pos[i] = wp.vec3(x[i], 2.0 * x[i], x[i] * x[i])

x = wp.array(np.linspace(0.0, 1.0, 8, dtype=np.float32), dtype=float, requires_grad=True)
pos = wp.zeros(8, dtype=wp.vec3, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(move, dim=8, inputs=[x], outputs=[pos])
    wp.launch(springs, dim=8, inputs=[pos, 0.5, loss])
tape.backward(loss=loss)
RESULT = {"loss": loss.numpy().tolist(), "x_grad": x.grad.numpy().tolist(),
          "pos_grad": pos.grad.numpy().tolist()}
tape.zero()
RESULT["zeroed"] = [float(np.abs(x.grad.numpy()).sum())]
# adjoint=True by hand: d(sum k |p|^2)/dp = 2 k p
g = wp.zeros(8, dtype=wp.vec3)
seed = wp.ones(1, dtype=float)
wp.launch(springs, dim=8, inputs=[pos, 0.5, loss], adj_inputs=[g, 0.0, seed], adjoint=True)
RESULT["adjoint_launch"] = g.numpy().tolist()
"""


def _warp_result(text, tmp_path):
    # kern.warp, like Warp, reads kernels from their source file
    f = tmp_path / "tape_script.py"
    f.write_text(text)
    return runpy.run_path(str(f))["RESULT"]


def test_warp_tape_script(tmp_path):
    wp.set_device(DEVICE)
    r = _warp_result(WARP_SCRIPT, tmp_path)
    h = np.linspace(0.0, 1.0, 8, dtype=np.float32).astype(np.float64)
    # loss = 0.5 * sum(x^2 + 4x^2 + x^4); dloss/dx = 0.5 * (10x + 4x^3)
    np.testing.assert_allclose(r["loss"], [0.5 * np.sum(5 * h ** 2 + h ** 4)], rtol=1e-5)
    np.testing.assert_allclose(r["x_grad"], 0.5 * (10 * h + 4 * h ** 3), rtol=1e-5, atol=1e-6)
    p = np.stack([h, 2 * h, h * h], axis=1)
    # move stored pos: its adjoint took pos.grad and cleared it (Warp's rule)
    assert not np.any(r["pos_grad"])
    assert r["zeroed"] == [0.0]
    np.testing.assert_allclose(r["adjoint_launch"], p, rtol=1e-5, atol=1e-6)


def _real_warp_result(text, tmp_path):
    # the script under real Warp 1.19 on the CPU, in its own process;
    # skips when no python3 here has Warp
    py = os.environ.get("KERN_TEST_WARP_PYTHON")
    if not py:
        try:
            import warp  # noqa: F401
            py = sys.executable
        except ImportError:
            pytest.skip("real Warp is not installed for this python3")
    f = tmp_path / "warp_script.py"
    f.write_text(text.replace("import kern.warp as wp", "import warp as wp")
                 + "\nimport json\nprint('RESULT=' + json.dumps(RESULT))\n")
    out = subprocess.run([py, str(f)], capture_output=True, text=True, check=True,
                         env=dict(os.environ, CUDA_VISIBLE_DEVICES=""),
                         timeout=600).stdout
    want = [line for line in out.splitlines() if line.startswith("RESULT=")][-1]
    import json
    return json.loads(want[len("RESULT="):])


def test_warp_tape_script_matches_real_warp(tmp_path):
    want = _real_warp_result(WARP_SCRIPT, tmp_path)
    wp.set_device(DEVICE)
    got = _warp_result(WARP_SCRIPT, tmp_path)
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-5, atol=1e-6, err_msg=k)


def test_record_tape_false(mod, device):
    x = kern.zeros(4, kern.float64, device=device, requires_grad=True)
    out = kern.zeros(1, kern.float64, device=device, requires_grad=True)
    with kern.Tape() as tape:
        mod.sumsq(x, out, dim=4)
        wp.launch(mod.sumsq, dim=4, inputs=[x, out], record_tape=False)
    assert len(tape.launches) == 1


def test_adjoint_none_skips(mod, device):
    # None for an adj_ array skips that gradient (Warp passes an empty
    # array there); None for a forward array is an error that names it.
    h = np.linspace(-1.0, 1.0, 5)
    x = kern.array(h, device=device)
    y = kern.zeros(5, kern.float64, device=device)
    gy = kern.array(np.ones(5), device=device)
    gx = kern.zeros(5, kern.float64, device=device)
    mod.scale.adjoint(x, 2.0, y, gx, 0.0, gy, dim=5)
    np.testing.assert_allclose(gx.numpy(), 2.0 * np.cos(h), rtol=1e-12)
    mod.scale.adjoint(x, 2.0, y, None, 0.0, gy, dim=5)  # no x gradient asked
    with pytest.raises(kern.Error, match="'x'"):
        mod.scale(None, 2.0, y, dim=5)


# A struct with array fields (Note [struct leaves] in src/ir/adjoint.c):
# the tape's adjoint struct holds the fields' .grad, as Warp's Tape builds it.
STRUCT_SCRIPT = """import numpy as np
import kern.warp as wp

@wp.struct
class Sub:
    ws: wp.array(dtype=float)

@wp.struct
class State:
    xs: wp.array(dtype=float)
    ys: wp.array(dtype=float)
    k: float
    sub: Sub

@wp.kernel
def step(s: State):
    i = wp.tid()
    s.ys[i] = s.k * wp.sin(s.xs[i]) + s.sub.ws[i] * s.xs[i]

@wp.kernel
def total(s: State, loss: wp.array(dtype=float)):
    i = wp.tid()
    y = s.ys[i]
    wp.atomic_add(loss, 0, y * y)

n = 6
s = State()
s.xs = wp.array(np.linspace(0.0, 1.0, n, dtype=np.float32), dtype=float, requires_grad=True)
s.ys = wp.zeros(n, dtype=float, requires_grad=True)
s.k = 1.5
sub = Sub()
sub.ws = wp.array(np.linspace(1.0, 2.0, n, dtype=np.float32), dtype=float, requires_grad=True)
s.sub = sub
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(step, dim=n, inputs=[s])
    wp.launch(total, dim=n, inputs=[s, loss])
tape.backward(loss=loss)
RESULT = {"loss": loss.numpy().tolist(), "xs_grad": s.xs.grad.numpy().tolist(),
          "ws_grad": sub.ws.grad.numpy().tolist(), "ys_grad": s.ys.grad.numpy().tolist()}
tape.zero()
RESULT["zeroed"] = [float(np.abs(s.xs.grad.numpy()).sum() + np.abs(sub.ws.grad.numpy()).sum())]
"""


def _struct_arrays_refused(run):
    # OpenCL 1.2 cannot pass arrays inside structs (a buffer has no device
    # address): kern says so when the kernel is loaded
    with pytest.raises(kern.UnsupportedError, match="OpenCL cannot pass arrays inside structs"):
        run()


def test_warp_tape_struct_arrays(tmp_path):
    wp.set_device(DEVICE)
    if DEVICE == "opencl":
        return _struct_arrays_refused(lambda: _warp_result(STRUCT_SCRIPT, tmp_path))
    r = _warp_result(STRUCT_SCRIPT, tmp_path)
    x = np.linspace(0.0, 1.0, 6, dtype=np.float32).astype(np.float64)
    w = np.linspace(1.0, 2.0, 6, dtype=np.float32).astype(np.float64)
    y = 1.5 * np.sin(x) + w * x
    # loss = sum y^2: dloss/dx = 2 y (1.5 cos x + w), dloss/dw = 2 y x
    np.testing.assert_allclose(r["loss"], [np.sum(y * y)], rtol=1e-5)
    np.testing.assert_allclose(r["xs_grad"], 2 * y * (1.5 * np.cos(x) + w), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(r["ws_grad"], 2 * y * x, rtol=1e-5, atol=1e-6)
    assert not np.any(r["ys_grad"])  # step's store took it and cleared it
    assert r["zeroed"] == [0.0]      # zero() reaches the struct's arrays


def test_warp_tape_struct_arrays_match_real_warp(tmp_path):
    want = _real_warp_result(STRUCT_SCRIPT, tmp_path)
    wp.set_device(DEVICE)
    if DEVICE == "opencl":
        return _struct_arrays_refused(lambda: _warp_result(STRUCT_SCRIPT, tmp_path))
    got = _warp_result(STRUCT_SCRIPT, tmp_path)
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-5, atol=1e-6, err_msg=k)


def test_plain_tape_struct_dict(device):
    # kern.Tape with a struct given as a dict: its array fields' .grad
    src = """import warp as wp

@wp.struct
class P:
    xs: wp.array(dtype=wp.float64)
    c: wp.float64

@wp.kernel
def sq(p: P, out: wp.array(dtype=wp.float64)):
    i = wp.tid()
    wp.atomic_add(out, 0, p.c * p.xs[i] * p.xs[i])
"""
    if device.backend == "opencl":
        return _struct_arrays_refused(lambda: kern.load(src, device=device, name="tape_struct.py"))
    m = kern.load(src, device=device, name="tape_struct.py")
    h = np.linspace(-1.0, 1.0, 5)
    xs = kern.array(h, device=device, requires_grad=True)
    out = kern.zeros(1, kern.float64, device=device, requires_grad=True)
    with kern.Tape() as tape:
        m.sq({"xs": xs, "c": 3.0}, out, dim=5)
    tape.backward(loss=out)
    np.testing.assert_allclose(xs.grad.numpy(), 6.0 * h, rtol=1e-12)
    tape.zero()
    assert not xs.grad.numpy().any()


GENERIC_SCRIPT = """from typing import Any
import numpy as np
import kern.warp as wp


@wp.kernel
def cube3(a: wp.array(dtype=Any), out: wp.array(dtype=Any)):
    i = wp.tid()
    out[i] = a[i] * a[i] * a[i] * a.dtype(3.0)


RESULT = {}
for dt in (wp.float32, wp.float64):
    a = wp.array(np.arange(4, dtype=np.float64) + 0.5, dtype=dt, requires_grad=True)
    out = wp.zeros(4, dtype=dt, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(cube3, dim=4, inputs=[a], outputs=[out])
    tape.backward(grads={out: wp.array(np.arange(4, dtype=np.float64) + 1.0, dtype=dt)})
    RESULT[dt.__name__] = a.grad.numpy().tolist()
"""


def test_warp_tape_generic_kernel(tmp_path):
    # a generic kernel (typing.Any) is instantiated per dtype at the launch;
    # its adjoint is built from the instance's source (runtime/generic.c)
    wp.set_device(DEVICE)
    r = _warp_result(GENERIC_SCRIPT, tmp_path)
    a = np.arange(4) + 0.5
    for dt in ("float32", "float64"):
        # d(3 a^3)/da = 9 a^2, times the seed (1, 2, 3, 4)
        np.testing.assert_allclose(r[dt], 9 * a * a * (np.arange(4) + 1.0), rtol=1e-6, err_msg=dt)


def test_warp_tape_generic_kernel_matches_real_warp(tmp_path):
    want = _real_warp_result(GENERIC_SCRIPT, tmp_path)
    wp.set_device(DEVICE)
    got = _warp_result(GENERIC_SCRIPT, tmp_path)
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-6, err_msg=k)
