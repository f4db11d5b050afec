"""python -m kern mirrors the C tool: same arguments, output, exit codes."""
import os
import subprocess
import sys

import numpy as np

from conftest import REPO

SAXPY = os.path.join(REPO, "examples", "saxpy.py")


def pykern(*args, **kw):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    return subprocess.run([sys.executable, "-m", "kern"] + list(args),
                          capture_output=True, text=True, env=env, timeout=300, **kw)


def test_devices_lists_the_device_under_test(device):
    r = pykern("devices")
    assert r.returncode == 0, r.stderr
    assert "cpu: available" in r.stdout
    assert device.name in r.stdout


def test_run_prints_what_kern_run_prints(device, tool):
    args = ["run", SAXPY, "saxpy", "--dim", "16", "a=2.5",
            "x=rand(float32,16,seed=1)", "y=rand(float32,16,seed=2)",
            "--device", device.name]
    r = pykern(*args)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("x = [") and "\ny = [" in r.stdout
    if tool:
        c = subprocess.run([tool] + args, capture_output=True, text=True, timeout=300)
        assert c.returncode == 0, c.stderr
        # Same numbers, same layout; line-end spaces differ between NumPy's
        # printer and the C tool's.
        def norm(t):
            return [ln.rstrip() for ln in t.splitlines()]
        assert norm(r.stdout) == norm(c.stdout)


def test_run_save_matches_numpy(device, tmp_path):
    out = tmp_path / "y.npy"
    r = pykern("run", SAXPY, "saxpy", "--dim", "100", "a=2",
               "x=arange(float32,100)", "y=ones(float32,100)",
               "--save", "y=%s" % out, "--device", device.name, "-q")
    assert r.returncode == 0, r.stderr
    assert r.stdout == ""
    np.testing.assert_array_equal(np.load(out), np.arange(100, dtype=np.float32) * 2 + 1)


def test_run_errors_and_exit_codes(device, tmp_path):
    r = pykern("run", SAXPY, "saxpy", "a=2")
    assert r.returncode == 2 and "--dim" in r.stderr
    r = pykern("run", SAXPY, "saxpy", "--dim", "4", "a=2.5", "x=zeros(float32,4)")
    assert r.returncode == 1 and "missing argument for parameter 'y'" in r.stderr
    r = pykern("run", SAXPY, "saxpy", "--dim", "4", "a=2", "x=zeros(float64,4)",
               "y=zeros(float32,4)")
    assert r.returncode == 1 and "parameter 'x'" in r.stderr
    r = pykern("run", SAXPY, "saxpz", "--dim", "4")
    assert r.returncode == 1 and "did you mean 'saxpy'" in r.stderr
    bad = tmp_path / "bad.py"
    bad.write_text("import warp as wp\n\n@wp.kernel\ndef k(x: wp.array(dtype=wp.float32)):\n"
                   "    x[0] = nope\n")
    r = pykern("run", str(bad), "k", "--dim", "1", "x=zeros(float32,1)")
    assert r.returncode == 1 and "bad.py:5:" in r.stderr and "^" in r.stderr
    r = pykern("frobnicate")
    assert r.returncode == 2


def test_compile_matches_kern_compile(tool):
    for target in ("c", "cuda", "opencl"):
        r = pykern("compile", SAXPY, "--target", target)
        assert r.returncode == 0, r.stderr
        assert "saxpy" in r.stdout
        if tool:
            c = subprocess.run([tool, "compile", SAXPY, "--target", target],
                               capture_output=True, text=True, timeout=120)
            assert r.stdout == c.stdout
