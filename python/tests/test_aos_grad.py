"""Gradients through arrays of @wp.struct (issue #26, Note [arrays of
structs] in src/ir/adjoint.c): kern.warp's wp.Tape fills a struct array's
.grad field by field, against a formula and against real Warp 1.19 (where
it is installed); kern.jvp takes struct tangent arrays."""
import runpy

import numpy as np

import kern
import kern.warp as wp

from conftest import DEVICE
from test_tape import _real_warp_result, _warp_result

# out[i] = b[i] with pos scaled by mass; loss = sum mass |pos|^2 over out,
# so loss = sum m^3 |p|^2: dloss/dp = 2 m^3 p, dloss/dm = 3 m^2 |p|^2.
# step's whole-element store takes out.grad and clears it (Warp's rule).
AOS_SCRIPT = """import numpy as np
import kern.warp as wp

@wp.struct
class Body:
    pos: wp.vec3
    mass: float
    tag: int

@wp.kernel
def step(b: wp.array(dtype=Body), out: wp.array(dtype=Body)):
    i = wp.tid()
    s = b[i]
    s.pos = s.pos * s.mass
    s.tag = i
    out[i] = s

@wp.kernel
def energy(b: wp.array(dtype=Body), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, b[i].mass * wp.dot(b[i].pos, b[i].pos))

n = 4
host = []
for k in range(n):
    x = Body()
    x.pos = wp.vec3(0.5 + 0.25 * k, 1.0 - 0.125 * k, 0.75)
    x.mass = 1.0 + 0.5 * k
    host.append(x)
b = wp.array(host, dtype=Body, requires_grad=True)
out = wp.zeros(n, dtype=Body, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(step, dim=n, inputs=[b, out])
    wp.launch(energy, dim=n, inputs=[out, loss])
tape.backward(loss=loss)
g = b.grad.numpy()
og = out.grad.numpy()
RESULT = {"loss": loss.numpy().tolist(), "pos_grad": g["pos"].tolist(),
          "mass_grad": g["mass"].tolist(), "out_pos_grad": og["pos"].tolist(),
          "out_mass_grad": og["mass"].tolist()}
tape.zero()
RESULT["zeroed"] = [float(np.abs(b.grad.numpy()["pos"]).sum() + np.abs(b.grad.numpy()["mass"]).sum())]
"""


def _inputs():
    k = np.arange(4.0)
    p = np.stack([0.5 + 0.25 * k, 1.0 - 0.125 * k, 0.75 + 0 * k], axis=1)
    return p, 1.0 + 0.5 * k


def test_warp_tape_struct_array(tmp_path):
    wp.set_device(DEVICE)
    r = _warp_result(AOS_SCRIPT, tmp_path)
    p, m = _inputs()
    sq = np.sum(p * p, axis=1)
    np.testing.assert_allclose(r["loss"], [np.sum(m ** 3 * sq)], rtol=1e-5)
    np.testing.assert_allclose(r["pos_grad"], 2 * (m ** 3)[:, None] * p, rtol=1e-5)
    np.testing.assert_allclose(r["mass_grad"], 3 * m ** 2 * sq, rtol=1e-5)
    assert not np.any(r["out_pos_grad"]) and not np.any(r["out_mass_grad"])
    assert r["zeroed"] == [0.0]


def test_warp_tape_struct_array_matches_real_warp(tmp_path):
    want = _real_warp_result(AOS_SCRIPT, tmp_path)
    wp.set_device(DEVICE)
    got = _warp_result(AOS_SCRIPT, tmp_path)
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-5, atol=1e-6, err_msg=k)


def test_jvp_struct_array(tmp_path):
    # forward mode: out.pos = m p, so d out.pos = m dp + p dm, d out.mass = dm
    wp.set_device(DEVICE)
    f = tmp_path / "aos_script.py"
    f.write_text(AOS_SCRIPT)
    mod = runpy.run_path(str(f))
    p, m = _inputs()
    dev = wp.get_device(DEVICE)
    step = mod["step"].kernel_for(dev)
    rng = np.random.default_rng(3)
    dp, dm = rng.uniform(-1, 1, (4, 3)), rng.uniform(-1, 1, 4)
    tb = wp.zeros(4, dtype=mod["Body"])
    rec = tb.numpy()
    rec["pos"], rec["mass"] = dp, dm
    tb = wp.array(rec, dtype=mod["Body"])
    b = mod["b"]
    out = wp.zeros(4, dtype=mod["Body"])
    t = kern.jvp(step, 4, [b, out], {"b": tb})   # out's tangent: made zero
    got = t["out"].numpy()
    np.testing.assert_allclose(out.numpy()["pos"], m[:, None] * p, rtol=1e-6)
    np.testing.assert_allclose(got["pos"], m[:, None] * dp + dm[:, None] * p,
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got["mass"], dm, rtol=1e-6)
    assert not np.any(got["tag"])


def test_plain_tape_struct_array(device):
    # kern.Tape with an array of structs made from its bytes: its .grad is
    # an array of the same structs; loss = sum x v[1] over the elements
    src = """import warp as wp

@wp.struct
class B:
    x: wp.float64
    v: wp.vec2d

@wp.kernel
def sq(bs: wp.array(dtype=B), loss: wp.array(dtype=wp.float64)):
    i = wp.tid()
    wp.atomic_add(loss, 0, bs[i].x * bs[i].v[1])
"""
    m = kern.load(src, device=device, name="aos_tape.py")
    st = m.sq.params[0].dtype
    assert st.size == 24
    rec = np.zeros((3, 3), np.float64)   # x, v[0], v[1] per element
    rec[:, 0] = [1, 2, 3]
    rec[:, 2] = [0.5, 0.25, 4]
    bs = kern.array(rec.view(np.uint8), dtype=st, device=device, requires_grad=True)
    loss = kern.zeros(1, kern.float64, device=device, requires_grad=True)
    with kern.Tape() as t:
        m.sq(bs, loss, dim=3)
    t.backward(loss=loss)
    g = np.ascontiguousarray(bs.grad.numpy()).view(np.uint8).reshape(-1)
    g = g.view(np.float64).reshape(3, 3)
    np.testing.assert_allclose(loss.numpy(), [np.sum(rec[:, 0] * rec[:, 2])])
    np.testing.assert_allclose(g[:, 0], rec[:, 2])   # d/dx = v[1]
    assert not g[:, 1].any()                         # v[0] not read
    np.testing.assert_allclose(g[:, 2], rec[:, 0])   # d/dv[1] = x
