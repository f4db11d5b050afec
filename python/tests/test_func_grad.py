"""@wp.func_grad in kern.warp: a custom adjoint under wp.Tape gives real
Warp 1.19's gradients (compared with Warp where it is installed, and with
the custom rule's own formula everywhere)."""
import json
import os
import runpy
import subprocess
import sys

import numpy as np
import pytest

import kern.warp as wp

from conftest import DEVICE

SCRIPT = """import numpy as np
import kern.warp as wp

@wp.func
def clipped_sq(x: float):
    return x * x

@wp.func_grad(clipped_sq)
def adj_clipped_sq(x: float, adj_ret: float):
    wp.adjoint[x] += wp.clamp(2.0 * x, -1.0, 1.0) * adj_ret

@wp.kernel
def loss_k(a: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, clipped_sq(a[i]) * 3.0)

a = wp.array(np.linspace(-1.0, 1.0, 8, dtype=np.float32), dtype=float, requires_grad=True)
loss = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(loss_k, dim=8, inputs=[a, loss])
tape.backward(loss=loss)
RESULT = {"loss": loss.numpy().tolist(), "a_grad": a.grad.numpy().tolist()}
"""


def _run(text, tmp_path):
    f = tmp_path / "fg_script.py"
    f.write_text(text)
    return runpy.run_path(str(f))["RESULT"]


def test_func_grad_tape(tmp_path):
    wp.set_device(DEVICE)
    r = _run(SCRIPT, tmp_path)
    h = np.linspace(-1.0, 1.0, 8, dtype=np.float32).astype(np.float64)
    np.testing.assert_allclose(r["loss"], [3.0 * np.sum(h * h)], rtol=1e-5)
    # the custom rule, not the derivative 6x
    np.testing.assert_allclose(r["a_grad"], 3.0 * np.clip(2.0 * h, -1.0, 1.0),
                               rtol=1e-5, atol=1e-6)


def test_func_grad_matches_real_warp(tmp_path):
    py = os.environ.get("KERN_TEST_WARP_PYTHON")
    if not py:
        try:
            import warp  # noqa: F401
            py = sys.executable
        except ImportError:
            pytest.skip("real Warp is not installed for this python3")
    f = tmp_path / "warp_fg.py"
    f.write_text(SCRIPT.replace("import kern.warp as wp", "import warp as wp")
                 + "\nimport json\nprint('RESULT=' + json.dumps(RESULT))\n")
    out = subprocess.run([py, str(f)], capture_output=True, text=True, check=True,
                         env=dict(os.environ, CUDA_VISIBLE_DEVICES=""),
                         timeout=600).stdout
    want = [line for line in out.splitlines() if line.startswith("RESULT=")][-1]
    want = json.loads(want[len("RESULT="):])
    wp.set_device(DEVICE)
    got = _run(SCRIPT, tmp_path)
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-5, atol=1e-6, err_msg=k)


def test_adjoint_in_python_is_refused():
    with pytest.raises(Exception, match="func_grad"):
        wp.adjoint[1.0]
