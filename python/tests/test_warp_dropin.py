"""kern.warp as a drop-in for Warp (issue #25).

Each script in warp_scripts/ is a complete Warp program whose only change
from Warp is ``import kern.warp as wp``.  It runs here unchanged on the
device under test and its outputs are compared with golden.json, recorded
from real Warp on the CPU (warp_scripts/make_golden.py; the file names the
Warp version).  Where real Warp is importable, the same text with the
import line changed also runs under Warp (in a subprocess) and must agree.
The other tests pin kern.warp's refusals and device rules.
"""
import json
import os
import runpy
import subprocess
import sys

import numpy as np
import pytest

import kern
import kern.warp as wp

from conftest import DEVICE

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "warp_scripts")
GOLDEN = json.load(open(os.path.join(SCRIPTS, "golden.json")))
NAMES = sorted(GOLDEN["scripts"])


def _close(got, want, name):
    # Float32 sums in another order (atomics, other compilers) may differ
    # in the last bits; everything else must match.
    g = np.asarray(got, dtype=np.float64)
    w = np.asarray(want, dtype=np.float64)
    assert g.shape == w.shape, name
    np.testing.assert_allclose(g, w, rtol=2e-5, atol=2e-5, err_msg=name)


def _run(name):
    wp.set_device(DEVICE)
    g = runpy.run_path(os.path.join(SCRIPTS, name), run_name="__main__")
    return g["RESULT"]


def test_golden_from_warp_1_19():
    assert GOLDEN["warp_version"].startswith("1.19")
    assert set(NAMES) == {f for f in os.listdir(SCRIPTS)
                          if f.endswith(".py") and f != "make_golden.py"}


@pytest.mark.parametrize("name", NAMES)
def test_script_matches_warp(name):
    got = _run(name)
    want = GOLDEN["scripts"][name]
    assert sorted(got) == sorted(want)
    for k in want:
        _close(got[k], want[k], "%s: %s" % (name, k))


# The interpreter that has real Warp: $KERN_TEST_WARP_PYTHON, else this one.
WARP_PYTHON = os.environ.get("KERN_TEST_WARP_PYTHON") or sys.executable


def _has_warp():
    try:
        r = subprocess.run([WARP_PYTHON, "-c", "import warp"],
                           capture_output=True, timeout=60)
    except Exception:
        return False
    return r.returncode == 0


@pytest.mark.skipif(not _has_warp(), reason="real Warp is not installed for this python3")
@pytest.mark.parametrize("name", NAMES)
def test_same_text_runs_under_warp(name, tmp_path):
    sys.path.insert(0, SCRIPTS)
    try:
        import make_golden
    finally:
        sys.path.remove(SCRIPTS)
    got_warp = make_golden.run_warp(name, str(tmp_path), WARP_PYTHON)
    got_kern = _run(name)
    for k in got_warp:
        _close(got_kern[k], got_warp[k], "%s: %s (against Warp now)" % (name, k))


# ---------------------------------------------------------------- API


def test_value_types():
    v = wp.vec3(1, 2, 3)
    assert list(v) == [1.0, 2.0, 3.0] and v.y == 2.0
    assert list(v + wp.vec3(1.0)) == [2.0, 3.0, 4.0]
    assert list(2.0 * v) == [2.0, 4.0, 6.0]
    m = wp.mat22(1, 2, 3, 4)
    assert m[1, 0] == 3.0 and list(m[1]) == [3.0, 4.0]
    t = wp.transform(wp.vec3(1, 2, 3), wp.quat_identity())
    assert list(t.p) == [1.0, 2.0, 3.0] and list(t.q) == [0, 0, 0, 1]
    assert wp.float32(0.1) == np.float32(0.1)
    assert wp.int8(300) == 44
    with pytest.raises(ValueError, match="vec3 needs 3 components, got 2"):
        wp.vec3(1, 2)
    # The plain package's types make the same values (issue #25).
    assert list(kern.vec3(1, 2, 3)) == [1.0, 2.0, 3.0]
    assert kern.float64(2.5) == 2.5


def test_arrays(device):
    wp.set_device(DEVICE)
    a = wp.array([1.0, 2.0, 3.0], dtype=float)
    assert a.dtype == wp.float32 and a.shape == (3,) and a.device == device
    b = wp.clone(a)
    b.fill_(7.0)
    wp.copy(a, b, dest_offset=1, src_offset=0, count=2)
    assert a.numpy().tolist() == [1.0, 7.0, 7.0]
    z = wp.zeros((2, 3), dtype=wp.vec2)
    assert z.numpy().shape == (2, 3, 2) and z.dtype == wp.vec2
    assert wp.ones(4, dtype=wp.int32).numpy().tolist() == [1, 1, 1, 1]
    assert wp.full(3, wp.vec3(1, 2, 3)).numpy().tolist() == [[1, 2, 3]] * 3
    # A number fills every component of a vector or matrix array (Warp's
    # fill_ and full broadcast it).
    z.fill_(1.5)
    assert z.numpy().tolist() == [[[1.5, 1.5]] * 3] * 2
    assert wp.full(2, 2.0, dtype=wp.mat22).numpy().tolist() == [[[2, 2], [2, 2]]] * 2
    e = wp.empty(5, dtype=wp.mat22)
    e.zero_()
    assert e.numpy().shape == (5, 2, 2) and not e.numpy().any()
    v = wp.array([wp.vec3(1, 2, 3), wp.vec3(4, 5, 6)], dtype=wp.vec3)
    assert v.shape == (2,) and v.numpy()[1].tolist() == [4, 5, 6]
    a.assign(np.array([3, 2, 1], dtype=np.float32))
    assert a.numpy().tolist() == [3, 2, 1]
    assert isinstance(a, wp.array)
    assert wp.from_numpy(np.zeros((4, 3), np.float32), dtype=wp.vec3).shape == (4,)


def test_launch_forms_and_streams(device):
    wp.set_device(DEVICE)
    g = runpy.run_path(os.path.join(SCRIPTS, "saxpy.py"))
    k = g["saxpy"]
    x = wp.ones(8, dtype=float)
    y = wp.zeros(8, dtype=float)
    s = wp.Stream(device)
    with wp.ScopedStream(s):
        wp.launch(k, dim=8, inputs=[2.0, x], outputs=[y])
    wp.synchronize_device(device)
    assert y.numpy().tolist() == [2.0] * 8
    wp.launch(k, dim=8, inputs=[2.0, x, y], stream=s)
    e = wp.record_event()
    wp.synchronize()
    assert y.numpy().tolist() == [4.0] * 8
    cmd = wp.launch(k, dim=8, inputs=[1.0, x, y], record_cmd=True)
    cmd.launch()
    cmd.launch()
    wp.synchronize()
    assert y.numpy().tolist() == [6.0] * 8
    # kern.launch takes a kern.warp kernel too.
    kern.launch(k, dim=8, inputs=[1.0, x, y], device=device)
    wp.synchronize()
    assert y.numpy().tolist() == [7.0] * 8
    with wp.ScopedDevice(device):
        assert wp.get_device() == device
    times = {}
    with wp.ScopedTimer("t", dict=times, print=False, synchronize=True):
        wp.launch(k, dim=8, inputs=[1.0, x, y])
    assert len(times["t"]) == 1 and times["t"][0] >= 0.0
    assert e is not None


def _plain_func(x: float):
    return x


def nothing_here(a: float):
    pass


def test_refusals():
    g = runpy.run_path(os.path.join(SCRIPTS, "saxpy.py"))
    x = wp.ones(4, dtype=float, device=DEVICE)
    # block_dim is taken now (tiles, issue #24); a nonsense one is refused
    wp.launch(g["saxpy"], dim=4, inputs=[1.0, x, x], block_dim=64)
    with pytest.raises(kern.Error):
        wp.launch(g["saxpy"], dim=4, inputs=[1.0, x, x], block_dim=5000)
    with pytest.raises(kern.UnsupportedError, match="inside a @wp.kernel"):
        wp.tile_load(x, shape=4)
    with pytest.raises(kern.UnsupportedError, match="wp.config.verify_fp"):
        wp.config.verify_fp = True
    with pytest.raises(kern.UnsupportedError, match="wp.Mesh"):
        wp.Mesh
    with pytest.raises(TypeError, match="a @wp.func is overloaded by defining it again"):
        wp.overload(wp.func(_plain_func), [float])
    with pytest.raises(kern.InvalidArgumentError, match="no @wp.kernel named 'nothing_here'"):
        wp.overload(nothing_here)
    with pytest.raises(AttributeError, match="kern.warp has no 'no_such_api'"):
        wp.no_such_api


def test_overload_stub_rules(tmp_path):
    # Warp's rules for the @wp.overload decorator form: a stub's body is
    # only pass / ... / a docstring, every parameter is typed
    base = ("from typing import Any\nimport kern.warp as wp\n\n"
            "@wp.kernel\ndef k(a: wp.array(dtype=Any), s: Any):\n    a[0] = s\n\n")
    cases = [("@wp.overload\ndef k(a: wp.array(dtype=float), s: float):\n    s = 2.0\n",
              kern.InvalidArgumentError, r"@wp.overload k, line 10: a stub's body is only pass"),
             ("@wp.overload\ndef k(a: wp.array(dtype=float), s):\n    pass\n",
              kern.TypeMismatchError, r"parameter s needs a type"),
             ("@wp.overload\ndef k(a: wp.array(dtype=float), s: float) -> float:\n    pass\n",
              kern.TypeMismatchError, r"no return annotation")]
    for i, (stub, err, msg) in enumerate(cases):
        f = tmp_path / ("stub%d.py" % i)
        f.write_text(base + stub)
        with pytest.raises(err, match=msg):
            runpy.run_path(str(f))
    f = tmp_path / "ok.py"
    f.write_text(base + '@wp.overload\ndef k(a: wp.array(dtype=float), s: float):\n    """doc"""\n    ...\n')
    g = runpy.run_path(str(f))
    x = wp.zeros(2, dtype=float, device=DEVICE)
    wp.launch(g["k"], dim=1, inputs=[x, 4.5], device=DEVICE)
    assert x.numpy().tolist() == [4.5, 0.0]


def test_cuda_device_string():
    if any(d.is_cuda for d in kern.devices()):
        assert wp.get_device("cuda").is_cuda
        assert wp.get_device("cuda:0").is_cuda
    else:
        with pytest.raises(kern.Error, match="device 'cuda'.*unavailable"):
            wp.get_device("cuda")
    assert wp.get_device("cpu").is_cpu


_BAD = """import kern.warp as wp

FACTOR = [1, 2]


def make(n):
    @wp.kernel
    def closure(a: wp.array(dtype=float)):
        a[wp.tid()] = float(n)
    return closure


@wp.kernel
def unknown(a: wp.array(dtype=float)):
    a[wp.tid()] = helper_nowhere(1.0)
"""

_LIST = """import kern.warp as wp

FACTOR = [1, 2]


@wp.kernel
def listval(a: wp.array(dtype=float)):
    a[wp.tid()] = float(FACTOR[0])
"""


def test_names_refused(tmp_path):
    p = tmp_path / "bad_script.py"
    p.write_text(_BAD)
    g = runpy.run_path(str(p))
    with pytest.raises(kern.UnsupportedError,
                       match=r"closure \(line 7\) uses 'n' of an enclosing function"):
        g["make"](3)
    a = wp.zeros(2, device=DEVICE)
    with pytest.raises(kern.NotFoundError,
                       match=r"@wp.kernel unknown \(.*bad_script.py:13\) uses "
                             r"'helper_nowhere', which is not defined"):
        wp.launch(g["unknown"], dim=2, inputs=[a], device=DEVICE)


def test_list_value_refused(tmp_path):
    p = tmp_path / "list_script.py"
    p.write_text(_LIST)
    g = runpy.run_path(str(p))
    a = wp.zeros(2, device=DEVICE)
    with pytest.raises(kern.UnsupportedError,
                       match=r"@wp.kernel listval .* uses module-level 'FACTOR' \(a list\)"):
        wp.launch(g["listval"], dim=2, inputs=[a], device=DEVICE)


def test_compile_error_names_script_line(tmp_path):
    p = tmp_path / "err_script.py"
    p.write_text("import kern.warp as wp\n\n\n@wp.kernel\n"
                 "def k(a: wp.array(dtype=float)):\n"
                 "    a[wp.tid()] = wp.no_such_builtin(1.0)\n")
    g = runpy.run_path(str(p))
    a = wp.zeros(2, device=DEVICE)
    with pytest.raises(kern.CompileError) as ei:
        wp.launch(g["k"], dim=2, inputs=[a], device=DEVICE)
    assert ei.value.file.endswith("err_script.py")
    assert ei.value.line == 6


def test_struct_instance_errors():
    g = runpy.run_path(os.path.join(SCRIPTS, "struct_param.py"))
    p = g["Params"]()
    with pytest.raises(AttributeError, match="struct Params has no field 'scal'"):
        p.scal = 1.0
    out = wp.zeros(8, dtype=wp.vec3, device=DEVICE)
    w = wp.zeros(8, dtype=float, device=DEVICE)
    p.count = 2
    p.scale = 1.0
    # A dict works for a struct parameter too; a missing field is zero.
    wp.launch(g["apply"], dim=8, inputs=[{"count": 2, "scale": 1.0,
                                          "rot": np.eye(3),
                                          "mat": {"density": 1.0, "tint": (1, 1, 1)}},
                                         out, w], device=DEVICE)
    assert w.numpy().tolist()[:3] == [0.0, 1.0, 0.0]
    assert out.numpy()[1].tolist() == [1.0, 0.0, 0.0]


def test_scoped_capture(device):
    wp.set_device(DEVICE)
    g = runpy.run_path(os.path.join(SCRIPTS, "saxpy.py"))
    x = wp.ones(8, dtype=float)
    y = wp.zeros(8, dtype=float)
    with wp.ScopedCapture() as cap:
        wp.launch(g["saxpy"], dim=8, inputs=[1.0, x, y])
        wp.launch(g["saxpy"], dim=8, inputs=[2.0, x, y])
    wp.synchronize()
    before = y.numpy().tolist()
    wp.capture_launch(cap.graph)
    wp.capture_launch(cap.graph)
    wp.synchronize()
    assert y.numpy().tolist() == [before[0] + 6.0] * 8
    wp.capture_begin()
    wp.launch(g["saxpy"], dim=8, inputs=[1.0, x, y])
    graph = wp.capture_end()
    wp.capture_launch(graph)
    wp.synchronize()
    assert y.numpy()[0] >= before[0] + 7.0
    with pytest.raises(kern.InvalidArgumentError, match="not capturing"):
        wp.capture_end()


def test_host_quaternion_helpers():
    # Values of Warp 1.19's wp.quat_rpy(-0.5, -0.5, 0.0).
    q = wp.quat_rpy(-0.5, -0.5, 0.0)
    np.testing.assert_allclose(list(q), [-0.23971277475357056, -0.23971277475357056,
                                         -0.06120872125029564, 0.9387912750244141],
                               rtol=1e-6)
    a = wp.quat_from_axis_angle(wp.vec3(0.0, 0.0, 1.0), 0.5)
    np.testing.assert_allclose(list(a), [0.0, 0.0, np.sin(0.25), np.cos(0.25)], rtol=1e-6)


def test_interop_dlpack_numpy():
    # wp.from_dlpack / wp.to_dlpack with NumPy: no copy either way
    h = np.arange(6, dtype=np.float32)
    a = wp.from_dlpack(h)
    assert a.shape == (6,) and a.dtype == wp.float32
    h[2] = 40.0
    assert a.numpy()[2] == 40.0
    b = wp.array(np.arange(4, dtype=np.float64), dtype=wp.float64, device="cpu")
    v = np.from_dlpack(b)
    b.fill_(3.0)
    assert v.tolist() == [3.0] * 4


def test_interop_torch():
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    d = wp.get_device(DEVICE)
    if d.is_opencl:
        pytest.skip("PyTorch has no OpenCL tensors")
    tdev = "cpu" if d.is_cpu else "cuda:%d" % d.ordinal
    g = runpy.run_path(os.path.join(SCRIPTS, "saxpy.py"))
    x = torch.arange(8, dtype=torch.float32, device=tdev)
    y = torch.ones(8, dtype=torch.float32, device=tdev)
    wx, wy = wp.from_torch(x), wp.from_torch(y)
    assert wx.shape == (8,) and wx.dtype == wp.float32 and wx.device == d
    wp.launch(g["saxpy"], dim=8, inputs=[2.0, wx, wy], device=d)
    wp.synchronize()
    assert torch.equal(y, 2 * x + 1)          # written in place: no copy
    t = wp.to_torch(wy)
    wy.fill_(5.0)
    wp.synchronize()
    assert t.data_ptr() == y.data_ptr() and torch.equal(t.cpu(), torch.full((8,), 5.0))
    # a vec3 array views a (n, 3) tensor
    v = wp.from_torch(torch.zeros(4, 3, device=tdev), dtype=wp.vec3)
    assert v.shape == (4,) and v.dtype == wp.vec3
    if d.is_cuda:
        cai = wx.__cuda_array_interface__
        assert cai["shape"] == (8,) and cai["typestr"] == "<f4"
        assert torch.as_tensor(wx, device=tdev).data_ptr() == x.data_ptr()
