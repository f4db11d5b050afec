"""The package itself: stubs cover the API, importable with the standard
library alone, NumPy optional, installable with pip."""
import ast
import os
import shutil
import subprocess
import sys

import pytest

import kern

from conftest import REPO

PKG = os.path.join(REPO, "python")


def run_py(code, env=None):
    e = dict(os.environ, PYTHONPATH=PKG)
    e.update(env or {})
    return subprocess.run([sys.executable, "-c", code], capture_output=True,
                          text=True, env=e, timeout=300)


def test_stubs_cover_the_public_api():
    tree = ast.parse(open(os.path.join(PKG, "kern", "__init__.pyi")).read())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    missing = [n for n in kern.__all__ if n not in names]
    assert not missing, "kern/__init__.pyi lacks %s" % missing
    assert os.path.exists(os.path.join(PKG, "kern", "py.typed"))


def test_public_callables_have_docstrings():
    for n in kern.__all__:
        obj = getattr(kern, n)
        if callable(obj) and not isinstance(obj, kern.Type):
            assert (obj.__doc__ or "").strip(), "kern.%s has no docstring" % n


def test_import_needs_neither_libkern_nor_numpy():
    code = ("import sys; sys.modules['numpy'] = None\n"
            "import kern\n"
            "assert kern.vec3.name == 'vec3' and kern.dtype('wp.mat33d').size == 72\n"
            "try:\n    kern.devices()\nexcept kern.Error as e:\n    print('lib:', e.status_name)\n")
    r = run_py(code, {"KERN_LIBRARY": "/nonexistent/libkern.so"})
    assert r.returncode == 0, r.stderr
    assert "lib:" in r.stdout


def test_kernels_run_without_numpy(device):
    code = ("import sys; sys.modules['numpy'] = None\n"
            "import kern\n"
            "m = kern.load('''import warp as wp\n\n@wp.kernel\n"
            "def f(x: wp.array(dtype=wp.int32), k: wp.int32):\n    i = wp.tid()\n    x[i] = i * k\n''',"
            " device=sys.argv[1])\n"
            "x = kern.zeros(5, dtype=kern.int32, device=sys.argv[1])\n"
            "m.f(x, 3, dim=5)\n"
            "try:\n    x.numpy()\nexcept ImportError as e:\n    print('numpy needed:', e)\n"
            "import ctypes\n"
            "buf = (ctypes.c_int32 * 5)()\n"
            "kern._ffi.lib.kern_array_download(x.handle, buf, 20)\n"
            "print(list(buf))\n")
    r = subprocess.run([sys.executable, "-c", code, device.name], capture_output=True,
                       text=True, env=dict(os.environ, PYTHONPATH=PKG), timeout=300)
    assert r.returncode == 0, r.stderr
    assert "numpy needed" in r.stdout and "[0, 3, 6, 9, 12]" in r.stdout


def test_pip_install(tmp_path):
    """`pip install ./python` installs an importable package (offline: the
    build backend must already be installed)."""
    import importlib.util
    for m in ("pip", "setuptools"):
        # Looked up, not imported: importing setuptools here would patch
        # distutils inside the test process.
        if importlib.util.find_spec(m) is None:
            pytest.skip("%s is not installed for %s" % (m, sys.executable))
    src = tmp_path / "src"
    shutil.copytree(PKG, src, ignore=shutil.ignore_patterns("tests", "__pycache__", "*.egg-info", "build"))
    target = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation",
                        "--no-deps", "--no-index", "--target", str(target), str(src)],
                       capture_output=True, text=True, timeout=300)
    out = r.stderr + r.stdout
    if r.returncode != 0 and ("bdist_wheel" in out or "No module named 'setuptools" in out
                              or "build backend" in out):
        pytest.skip("no usable offline build backend (setuptools and wheel): %s"
                    % out.strip().splitlines()[-1])
    assert r.returncode == 0, r.stdout + r.stderr
    assert (target / "kern" / "__init__.pyi").exists() and (target / "kern" / "py.typed").exists()
    e = dict(os.environ, PYTHONPATH=str(target), KERN_LIBRARY=os.path.abspath(kern.library_path()))
    r = subprocess.run([sys.executable, "-c", "import kern, os; print(kern.__file__); "
                        "print(kern.get_device('cpu'))"],
                       capture_output=True, text=True, env=e, timeout=300, cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr
    assert str(target) in r.stdout and "cpu:0" in r.stdout


def test_block_dim_and_launch_tiled():
    # wp.launch(..., block_dim=N) and wp.launch_tiled (docs/language.md,
    # "Launches"): the block size is what wp.block_dim() returns (1 on the
    # CPU, as Warp's CPU), and launch_tiled appends it to dim, which
    # `i, j = wp.tid()` folds away.
    src = (
        "import warp as wp\n"
        "@wp.kernel\n"
        "def k(out: wp.array2d(dtype=int), blk: wp.array(dtype=int)):\n"
        "    i, j = wp.tid()\n"
        "    wp.atomic_add(out, i, j, 1)\n"
        "    blk[0] = wp.block_dim()\n")
    m = kern.load(src)
    out = kern.zeros((2, 3), dtype=kern.int32, device=m.device)
    blk = kern.zeros(1, dtype=kern.int32, device=m.device)
    kern.launch_tiled(m.k, dim=(2, 3), inputs=[out, blk], block_dim=16)
    cpu = m.device.name.startswith("cpu")
    bd = 1 if cpu else 16
    assert m.k.block_dim == bd
    assert out.numpy().tolist() == [[bd] * 3, [bd] * 3]
    assert blk.numpy().tolist() == [bd]
    with pytest.raises(kern.InvalidArgumentError):
        m.k(out, blk, dim=(2, 3), block_dim=2000)
    with pytest.raises(TypeError):
        m.k(out, blk, dim=(2, 3), block_dim=1.5)
