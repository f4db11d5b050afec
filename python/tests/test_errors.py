"""Errors are exceptions with kern's status and message, never a crash."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import kern

from conftest import REPO

GOOD = """import warp as wp

@wp.kernel
def axpb(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32), a: wp.float32, n: wp.int32):
    i = wp.tid()
    y[i] = a * x[i] + wp.float32(n)

@wp.kernel
def vecarg(v: wp.vec3, out: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    out[i] = v
"""

BAD = """import warp as wp

@wp.kernel
def broken(x: wp.array(dtype=wp.float32)):
    i = wp.tid()
    x[i] = undefined_name + 1.0
"""


@pytest.fixture(scope="module")
def mod(device):
    return kern.load(GOOD, device=device, name="errors.py")


def test_compile_error_has_position_and_caret(device):
    with pytest.raises(kern.CompileError) as ei:
        kern.load(BAD, device=device, name="broken.py")
    e = ei.value
    assert e.status_name == "ERROR_COMPILE"
    assert e.file == "broken.py" and e.line == 6 and e.column > 1
    assert "undefined_name" in e.text
    assert "undefined_name" in e.caret and "^" in e.caret
    assert isinstance(e, kern.Error)


def test_compile_error_from_file(device, tmp_path):
    p = tmp_path / "bad.py"
    p.write_text(BAD)
    with pytest.raises(kern.CompileError) as ei:
        kern.load(str(p), device=device)
    assert ei.value.file == str(p) and ei.value.line == 6


def test_missing_file_and_kernel(mod, device):
    with pytest.raises(kern.NotFoundError):
        kern.load("/nonexistent/kernels.py", device=device)
    with pytest.raises(AttributeError, match="did you mean 'axpb'"):
        mod.axpc
    with pytest.raises(LookupError):
        mod["nope"]


def test_unknown_device():
    with pytest.raises(kern.Error):
        kern.get_device("cuda:99")
    with pytest.raises(kern.Error):
        kern.get_device("tpu")
    with pytest.raises(TypeError):
        kern.get_device(3.5)


def test_argument_errors_name_the_parameter(mod, device):
    x = kern.zeros(8, device=device)
    y = kern.zeros(8, device=device)
    with pytest.raises(TypeError, match="takes 4 arguments"):
        mod.axpb(x, y, 1.0, dim=8)
    with pytest.raises(kern.TypeMismatchError, match="parameter 'a'"):
        mod.axpb(x, y, "two", 1, dim=8)
    with pytest.raises(kern.TypeMismatchError, match="parameter 'n'"):
        mod.axpb(x, y, 1.0, 2.5, dim=8)
    with pytest.raises(kern.TypeMismatchError, match="'x'"):
        mod.axpb(kern.zeros(8, dtype=kern.float64, device=device), y, 1.0, 1, dim=8)
    with pytest.raises(kern.TypeMismatchError, match="'y'"):
        mod.axpb(x, kern.zeros((2, 4), device=device), 1.0, 1, dim=8)
    with pytest.raises(kern.TypeMismatchError, match="parameter 'x'"):
        mod.axpb([1.0, 2.0], y, 1.0, 1, dim=2)
    with pytest.raises(kern.InvalidArgumentError, match="'n'.*out of range"):
        mod.axpb(x, y, 1.0, 2 ** 40, dim=8)
    with pytest.raises(kern.InvalidArgumentError):
        mod.axpb(x, y, 1.0, 1, dim=-1)
    with pytest.raises(TypeError, match="dim"):
        mod.axpb(x, y, 1.0, 1)
    with pytest.raises(TypeError, match="dim"):
        mod.axpb(x, y, 1.0, 1, dim="eight")
    with pytest.raises(kern.InvalidArgumentError):
        mod.axpb(x, y, 1.0, 1, dim=(1, 2, 3, 4, 5))
    with pytest.raises(TypeError, match="no parameter 'q'"):
        mod.axpb(x, y, 1.0, q=1, dim=8)
    with pytest.raises(TypeError):
        mod.axpb(x, y, 1.0, 1, dim=8, stream="default")


def test_numpy_argument_errors(mod, device):
    if not device.is_cpu:
        pytest.skip("NumPy arrays are used in place on the CPU only")
    y = np.zeros(8, np.float32)
    with pytest.raises(kern.TypeMismatchError, match=r"parameter 'x'.*float64"):
        mod.axpb(np.zeros(8), y, 1.0, 1, dim=8)
    with pytest.raises(kern.TypeMismatchError, match=r"parameter 'x'.*shape"):
        mod.axpb(np.zeros((2, 4), np.float32), y, 1.0, 1, dim=8)
    with pytest.raises(kern.InvalidArgumentError, match=r"parameter 'x'.*contiguous"):
        mod.axpb(np.zeros(16, np.float32)[::2], y, 1.0, 1, dim=8)
    with pytest.raises(kern.TypeMismatchError, match=r"parameter 'out'.*ending in \(3,\)"):
        mod.vecarg((1, 2, 3), np.zeros((4, 2), np.float32), dim=4)
    with pytest.raises(kern.InvalidArgumentError, match="parameter 'v'"):
        mod.vecarg((1, 2), np.zeros((4, 3), np.float32), dim=4)
    out = np.zeros((4, 3), np.float32)
    mod.vecarg(np.float32([1, 2, 3]), out, dim=4)
    np.testing.assert_array_equal(out, np.tile(np.float32([1, 2, 3]), (4, 1)))


def test_use_after_free_and_close(mod, device):
    x = kern.zeros(8, device=device)
    y = kern.zeros(8, device=device)
    x.free()
    x.free()  # twice is harmless
    with pytest.raises(kern.InvalidHandleError, match="'x'"):
        mod.axpb(x, y, 1.0, 1, dim=8)
    with pytest.raises(kern.InvalidHandleError):
        x.numpy()
    with pytest.raises(kern.InvalidHandleError):
        x.fill_(1.0)
    m2 = kern.load(GOOD, device=device, name="errors2.py")
    k = m2.axpb
    m2.close()
    m2.close()
    with pytest.raises(kern.InvalidHandleError):
        k(y, y, 1.0, 1, dim=8)
    with pytest.raises(kern.InvalidHandleError):
        m2.vecarg
    s = kern.Stream(device)
    s.close()
    with pytest.raises(kern.InvalidHandleError):
        s.synchronize()
    with pytest.raises(kern.InvalidHandleError):
        mod.axpb(y, y, 1.0, 1, dim=8, stream=s)
    e = kern.Event()
    e.close()
    with pytest.raises(kern.InvalidHandleError):
        e.record()


def test_handles_freed_behind_the_packages_back(mod, device):
    """A handle freed through the C API directly is refused by libkern's
    generation check: an exception, not a crash."""
    from kern import _ffi
    x = kern.zeros(8, device=device)
    y = kern.zeros(8, device=device)
    _ffi.lib.kern_array_free(x.handle)
    with pytest.raises(kern.InvalidHandleError):
        mod.axpb(x, y, 1.0, 1, dim=8)
    with pytest.raises(kern.InvalidHandleError):
        x.zero_()


def test_out_of_bounds_in_debug_mode(device):
    """Debug mode (a process-wide context option) reports the bad index as
    OutOfBoundsError; run in a child so this process keeps its options."""
    code = textwrap.dedent("""\
        import kern, sys
        kern.init(debug=True)
        m = kern.load(KSRC, device=sys.argv[1], name="oob.py")
        x = kern.zeros(4, device=sys.argv[1])
        try:
            m.oob(x, dim=4)
            kern.synchronize()
        except kern.OutOfBoundsError as e:
            assert isinstance(e, kern.LaunchError) and isinstance(e, IndexError)
            assert "oob.py:6:" in str(e), str(e)
            print("caught", e.status_name)
    """).replace("KSRC", repr('''import warp as wp

@wp.kernel
def oob(x: wp.array(dtype=wp.float32)):
    i = wp.tid()
    x[i + 1] = 1.0
'''))
    r = subprocess.run([sys.executable, "-c", code, device.name],
                       capture_output=True, text=True, timeout=300, env=child_env())
    assert r.returncode == 0, r.stderr
    assert "caught ERROR_OUT_OF_BOUNDS" in r.stdout, (r.stdout, r.stderr)


INC = """import warp as wp

@wp.kernel
def inc(x: wp.array(dtype=wp.float32)):
    i = wp.tid()
    x[i] = x[i] + 1.0
"""


def child_env():
    return dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))


def test_interpreter_shutdown_with_live_objects(device):
    """Exiting with arrays, views, capsules, streams, queued work and a
    module still alive must not crash (finalizers at shutdown)."""
    code = textwrap.dedent("""\
        import kern, numpy as np, sys
        dev = kern.get_device(sys.argv[1])
        m = kern.load(KSRC, device=dev, name="inc.py")
        s = kern.Stream(dev)
        a = kern.zeros(1 << 16, device=dev)
        for _ in range(50):
            m.inc(a, dim=a.shape[0], stream=s)
        ev = kern.Event().record(s)
        if dev.is_cpu:
            view = a.numpy()
            cap = a.__dlpack__()
            h = np.zeros(16, np.float32)
            m.inc(h, dim=16)
            keep = kern.array(h, device=dev, copy=False)
        g_cycle = [a, s, m]
        g_cycle.append(g_cycle)
        print("exiting")
    """).replace("KSRC", repr(INC))
    r = subprocess.run([sys.executable, "-c", code, device.name],
                       capture_output=True, text=True, timeout=300, env=child_env())
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert "exiting" in r.stdout


def test_library_not_found_is_an_error():
    code = "import kern\ntry:\n    kern.devices()\nexcept kern.Error as e:\n    print('ERR', e)\n"
    env = dict(os.environ, KERN_LIBRARY="/nonexistent/libkern.so")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True,
                       text=True, env=env, timeout=60,
                       cwd=os.path.join(REPO, "python"))
    assert r.returncode == 0, r.stderr
    assert "ERR cannot load libkern" in r.stdout and "KERN_LIBRARY" in r.stdout


def test_read_only_and_empty_host_arrays(mod, device):
    if not device.is_cpu:
        pytest.skip("host arrays are used in place on the CPU only")
    frozen = np.frombuffer(b"\0" * 32, np.float32)
    with pytest.raises(kern.InvalidArgumentError, match=r"parameter 'y'.*read-only"):
        mod.axpb(np.zeros(8, np.float32), frozen, 1.0, 1, dim=8)
    assert not frozen.any()
    # An empty array is a valid argument of an empty launch.
    e = np.zeros(0, np.float32)
    mod.axpb(e, e, 1.0, 1, dim=0)
    with pytest.raises(kern.TypeMismatchError, match="parameter 'x'"):
        mod.axpb(np.zeros(8, ">f4"), np.zeros(8, np.float32), 1.0, 1, dim=8)


def test_array_of_another_device(mod, device):
    other = "cpu" if not device.is_cpu else None
    if other is None:
        others = [d for d in kern.devices() if d != device]
        if not others:
            pytest.skip("only one device here")
        other = others[0]
    x = kern.zeros(8, device=other)
    y = kern.zeros(8, device=device)
    with pytest.raises(kern.InvalidArgumentError, match=r"'x' is on device"):
        mod.axpb(x, y, 1.0, 1, dim=8)


def test_no_native_refuses_snippets(device):
    """kern.init(no_native=True) refuses @wp.func_native at the decorator;
    the default compiles and runs the snippet."""
    src = ("import warp as wp\n\n\n@wp.func_native('return x + 1.0f;')\n"
           "def inc(x: float) -> float: ...\n\n\n@wp.kernel\n"
           "def k(a: wp.array(dtype=float)):\n    a[0] = inc(a[0])\n")
    code = textwrap.dedent("""\
        import kern, numpy as np, sys
        kern.init(no_native=sys.argv[2] == "1")
        try:
            m = kern.load(sys.argv[3], device=sys.argv[1])
        except kern.CompileError as e:
            print("REFUSED", e)
            sys.exit(0)
        a = np.full(1, 2.5, np.float32)
        if kern.get_device(sys.argv[1]).is_cpu:
            m.k(a, dim=1)
            print("RAN", a[0])
        else:
            print("LOADED")
    """)
    r = subprocess.run([sys.executable, "-c", code, device.name, "1", src],
                       capture_output=True, text=True, timeout=300, env=child_env())
    assert r.returncode == 0, r.stderr
    assert "REFUSED" in r.stdout and "4:1: error: @wp.func_native" in r.stdout, r.stdout
    r = subprocess.run([sys.executable, "-c", code, device.name, "0", src],
                       capture_output=True, text=True, timeout=300, env=child_env())
    assert r.returncode == 0, r.stderr
    assert "RAN 3.5" in r.stdout or "LOADED" in r.stdout, r.stdout


def test_cuda_tier_option(device):
    """kern.init(cuda_tier=...) takes auto, nvrtc or ptx and refuses other
    values before making a context; every tier runs a kernel to the same
    result (on CUDA: Note [PTX tier]; elsewhere the option is unused)."""
    code = textwrap.dedent("""\
        import kern, numpy as np, sys
        try:
            kern.init(cuda_tier="fast")
        except ValueError as e:
            print("REFUSED", e)
        kern.init(cuda_tier=sys.argv[2], no_cache=True)
        m = kern.load(sys.argv[3], device=sys.argv[1])
        a = kern.array(np.arange(64, dtype=np.float32), device=sys.argv[1])
        for _ in range(3):
            m.k(a, dim=64)
        assert m.wait_final() is m
        m.k(a, dim=64)
        print("SUM", float(a.numpy().sum()))
        m.close()
        try:
            m.wait_final()
        except kern.InvalidHandleError:
            print("CLOSED")
    """)
    src = ("import warp as wp\n\n\n@wp.kernel\n"
           "def k(a: wp.array(dtype=float)):\n    i = wp.tid()\n"
           "    a[i] = a[i] * 0.5 + 1.0\n")
    sums = set()
    for tier in ("auto", "nvrtc", "ptx"):
        r = subprocess.run([sys.executable, "-c", code, device.name, tier, src],
                           capture_output=True, text=True, timeout=300,
                           env=child_env())
        assert r.returncode == 0, r.stderr
        assert "REFUSED kern.init: cuda_tier must be one of auto, nvrtc, ptx" in r.stdout, r.stdout
        assert "CLOSED" in r.stdout, r.stdout
        sums.add(r.stdout.split("SUM")[1].strip())
    assert len(sums) == 1, sums
