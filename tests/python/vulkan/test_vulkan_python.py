"""device="vulkan:0" through the Python package and kern.warp (issue #27).

Run by ctest as python_vulkan (tests/python/pytest.cmake's neighbour in
tests/CMakeLists.txt).  Without a Vulkan device the session exits 77,
which ctest reports as skipped, like the per-device suites.
"""
import os
import subprocess
import sys

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "python"))

import kern  # noqa: E402
import kern.warp as wp  # noqa: E402

DEV = "vulkan:0"


def setup_module(module):
    try:
        kern.get_device(DEV)
    except kern.Error as e:
        print("skipped: %s: %s" % (DEV, e))
        os._exit(77)


SRC = '''import warp as wp

@wp.kernel
def scale(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32), a: wp.float32):
    i = wp.tid()
    y[i] = a * x[i]
'''


def test_kern_load_on_vulkan():
    dev = kern.get_device(DEV)
    assert dev.backend == "vulkan"
    m = kern.load(SRC, device=DEV)
    x = kern.array(np.arange(50, dtype=np.float32), device=DEV)
    y = kern.zeros(50, dtype=kern.float32, device=DEV)
    m.scale(x, y, 3.0, dim=50)
    np.testing.assert_array_equal(y.numpy(), 3.0 * np.arange(50, dtype=np.float32))


@wp.kernel
def saxpy(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32), a: wp.float32):
    i = wp.tid()
    y[i] = a * x[i] + y[i]


@wp.kernel
def count(n: wp.array(dtype=wp.int32)):
    wp.atomic_add(n, 0, 1)


def test_warp_launch_on_vulkan():
    x = wp.array(np.arange(100, dtype=np.float32), device=DEV)
    y = wp.ones(100, dtype=wp.float32, device=DEV)
    assert str(y.device) == DEV
    wp.launch(saxpy, dim=100, inputs=[x, y, 2.0], device=DEV)
    np.testing.assert_array_equal(y.numpy(), 2.0 * np.arange(100, dtype=np.float32) + 1.0)
    n = wp.zeros(1, dtype=wp.int32, device=DEV)
    wp.launch(count, dim=1000, inputs=[n], device=DEV)
    assert n.numpy()[0] == 1000


def test_warp_copy_between_cpu_and_vulkan():
    a = wp.array(np.linspace(0, 1, 64, dtype=np.float32), device="cpu")
    b = wp.zeros(64, dtype=wp.float32, device=DEV)
    wp.copy(b, a)
    np.testing.assert_array_equal(b.numpy(), a.numpy())
    c = b.to("cpu")
    np.testing.assert_array_equal(c.numpy(), a.numpy())


def test_out_of_bounds_in_debug_mode_on_vulkan():
    # debug mode is per process (kern.init, $KERN_DEBUG): a child process
    code = ("import sys, kern\n"
            "m = kern.load(sys.argv[1], device=sys.argv[2])\n"
            "x = kern.zeros(4, dtype=kern.float32, device=sys.argv[2])\n"
            "y = kern.zeros(4, dtype=kern.float32, device=sys.argv[2])\n"
            "try:\n    m.scale(x, y, 1.0, dim=8)\n"
            "except kern.Error as e:\n    print('error:', e)\n")
    env = dict(os.environ, KERN_DEBUG="1",
               PYTHONPATH=os.path.join(HERE, "..", "..", "..", "python"))
    r = subprocess.run([sys.executable, "-c", code, SRC, DEV], capture_output=True,
                       text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    assert "error:" in r.stdout and "out of bounds" in r.stdout, r.stdout
