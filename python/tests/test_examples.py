"""Every example in examples/ run through Python, checked against NumPy.

Each example's ``# kern-test:`` line gives its launch and inputs as
``kern run`` arguments; the inputs are made with the package's SPEC reader
(the same SplitMix64 stream as the C tool), the kernel is called through
``kern.load``/``Module.<kernel>`` on the device under test with NumPy arrays
(CPU) or kern arrays (other devices), and every array named by a
``# kern-check:`` line is compared with a NumPy computation of the same
formula, written independently below.  An example that has no NumPy
reference here yet (one added later) is still run, and compared with the C
tool's ``kern run`` output instead, so no example goes unchecked.
"""
import glob
import os
import re
import shlex
import subprocess

import numpy as np
import pytest

import kern
from kern import _spec

from conftest import REPO

EXAMPLES = sorted(glob.glob(os.path.join(REPO, "examples", "*.py")))

# Inputs for examples without a kern-test line (the benchmark examples).
EXTRA_TESTS = {
    "sum_of_squares": ("sum_of_squares --dim 1000 x='rand(float64,1000,seed=3)' "
                       "out='zeros(float64,1)'", ["out rtol=1e-12"]),
}


def ref_arithmetic(a, b, x, iout, fout):
    p = a.astype(np.int64) - 50
    q = b.astype(np.int64) + 1
    r = np.empty_like(iout, dtype=np.int64)
    r[:, 0] = p + q
    r[:, 1] = p - q
    r[:, 2] = p * q
    r[:, 3] = np.sign(p) * np.sign(q) * (np.abs(p) // np.abs(q))  # truncates
    r[:, 4] = p // q                                              # floors
    r[:, 5] = np.fmod(p, q)                                       # sign of p
    r[:, 6] = p & q
    r[:, 7] = p | q
    r[:, 8] = p ^ q
    r[:, 9] = q << 3
    r[:, 10] = p >> 2
    r[:, 11] = -p
    r[:, 12] = ~p
    y = x * np.float32(4.0) - np.float32(2.0)
    f = np.empty_like(fout)
    f[:, 0] = y + np.float32(1.5)
    f[:, 1] = y - np.float32(1.5)
    f[:, 2] = y * np.float32(3.0)
    f[:, 3] = y / np.float32(0.75)
    f[:, 4] = np.floor(y / np.float32(0.5))
    f[:, 5] = np.fmod(y, np.float32(0.75))
    f[:, 6] = y ** np.float32(2.0)
    return {"iout": r.astype(np.int32), "fout": f}


def ref_atomics(values, x, bins, binmax, largest):
    b = values // 10
    out_bins = np.bincount(b, minlength=10).astype(np.int32)
    out_max = np.full(10, -1, np.int32)
    np.maximum.at(out_max, b, values)
    return {"bins": out_bins, "binmax": out_max,
            "largest": np.array([max(np.float32(-1), x.max())], np.float32)}


def ref_control_flow(n, cls, total, steps):
    c, t, s = [], [], []
    for v in n.tolist():
        c.append(1 if v < 25 else 2 if v < 50 else 3 if v < 75 else 4)
        acc = 0
        for k in range(1, v, 2):
            acc += k
            if acc > 500:
                break
        t.append(acc)
        x, cnt = v + 1, 0
        while x != 1:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            cnt += 1
        s.append(cnt)
    return {"cls": np.array(c, np.int32), "total": np.array(t, np.int32),
            "steps": np.array(s, np.int32)}


def ref_math_functions(x, out):
    v = x * 4.0 - 2.0
    p = x + 0.5
    t = np.clip((v + 1.0) / 2.0, 0.0, 1.0)
    cols = [np.abs(v), np.where(v < 0, -1.0, 1.0), np.sqrt(p), np.exp(v),
            np.log(p), np.log2(p), np.sin(v), np.cos(v), np.tan(v * 0.5),
            np.arctan2(v, p), np.tanh(v), np.power(p, v), np.floor(v),
            np.ceil(v), np.minimum(v, p), np.maximum(v, p),
            np.clip(v, -1.0, 1.0), v * 0.75 + p * 0.25, t * t * (3.0 - 2.0 * t),
            np.arcsin(x)]
    return {"out": np.stack(cols, axis=1)}


def ref_matrices(rot, m, v, r, t, det):
    rot = np.asarray(rot, np.float32).reshape(3, 3)
    return {"r": np.einsum("ij,nj->ni", rot, v),
            "t": np.einsum("nji,nj->ni", m, v) + m[:, 0, :],
            "det": np.linalg.det(m.astype(np.float64)).astype(np.float32)}


def ref_saxpy(a, x, y):
    return {"y": np.float32(a) * x + y}


def ref_sum_of_squares(x, out):
    return {"out": np.array([np.dot(x, x)])}


def ref_vectors(a, b, d, c, n, s):
    u = a - np.float32(0.5)
    lu = np.sqrt((u * u).sum(axis=1, keepdims=True))
    return {"d": (u * b).sum(axis=1), "c": np.cross(u, b),
            "n": b / np.sqrt((b * b).sum(axis=1, keepdims=True)),
            "s": u * np.float32(2.0) + b * lu + b[:, ::-1]}


REFERENCES = {name[4:]: f for name, f in globals().items() if name.startswith("ref_")}


def read_test(path):
    """(kernel, dims, {name: spec}, [(array, rtol, atol)]) of an example."""
    stem = os.path.splitext(os.path.basename(path))[0]
    text = open(path).read()
    line = re.search(r"^# kern-test: (.*)$", text, re.M)
    checks = re.findall(r"^# kern-check: (.*)$", text, re.M)
    if line:
        words = shlex.split(line.group(1))
    elif stem in EXTRA_TESTS:
        words = shlex.split(EXTRA_TESTS[stem][0])
        checks = EXTRA_TESTS[stem][1]
    else:
        return None
    kernel, dims, specs = words[0], None, {}
    i = 1
    while i < len(words):
        if words[i] == "--dim":
            dims = _spec.parse_dims(words[i + 1])
            i += 2
            continue
        if words[i] == "--block-dim":  # wp.launch(..., block_dim=N)
            specs["--block-dim"] = int(words[i + 1])
            i += 2
            continue
        if words[i] == "--tiled":  # wp.launch_tiled
            specs["--tiled"] = True
            i += 1
            continue
        name, _, spec = words[i].partition("=")
        specs[name] = spec
        i += 1
    parsed = []
    for c in checks:
        parts = c.split()
        kw = dict(p.split("=") for p in parts[1:])
        parsed.append((parts[0], float(kw.get("rtol", 0)), float(kw.get("atol", 0))))
    return kernel, dims, specs, parsed


def test_every_example_is_covered():
    """Each example either has a kern-test line or inputs here."""
    assert EXAMPLES, "no examples found under %s" % REPO
    for path in EXAMPLES:
        assert read_test(path) is not None, (
            "%s has no '# kern-test:' line and no inputs in EXTRA_TESTS" % path)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: os.path.basename(p))
def test_example(path, device, tool, tmp_path):
    kernel, dims, specs, checks = read_test(path)
    block = specs.pop("--block-dim", None)
    if specs.pop("--tiled", False):
        # wp.launch_tiled: the block size (1 on the CPU, as Warp's CPU)
        # ends the grid
        dims = tuple(dims if isinstance(dims, (tuple, list)) else (dims,)) + (
            1 if device.is_cpu else (block or 256),)
    mod = kern.load(path, device=device)
    k = getattr(mod, kernel)
    inputs, args = {}, []
    for p in k.params:
        if p.is_array:
            host = _spec.parse_array(p, specs[p.name])
            inputs[p.name] = host.copy()
            # NumPy in place on the CPU, kern arrays elsewhere.
            args.append(host if device.is_cpu else kern.array(host, dtype=p.dtype, device=device))
        else:
            v = _spec.parse_value(p, specs[p.name])
            inputs[p.name] = v
            args.append(v)
    k(*args, dim=dims, block_dim=block)
    results = {}
    for p, a in zip(k.params, args):
        if p.is_array:
            results[p.name] = a if isinstance(a, np.ndarray) else a.numpy()
    stem = os.path.splitext(os.path.basename(path))[0]
    ref = REFERENCES.get(stem)
    if ref is not None:
        want = ref(**inputs)
        label = "NumPy"
    else:
        # No NumPy formula yet: the C tool on the CPU backend is the reference.
        assert tool, "no NumPy reference for %s and no kern tool to compare with" % stem
        saves = []
        for name, _, _ in checks:
            saves += ["--save", "%s=%s" % (name, tmp_path / (name + ".npy"))]
        words = shlex.split(re.search(r"^# kern-test: (.*)$", open(path).read(), re.M).group(1))
        subprocess.run([tool, "run", path] + words + ["--device", "cpu", "-q"] + saves,
                       check=True)
        want = {name: np.load(tmp_path / (name + ".npy")) for name, _, _ in checks}
        label = "kern run"
    assert checks, "%s checks nothing" % stem
    for name, rtol, atol in checks:
        got = results[name]
        exp = np.asarray(want[name]).astype(got.dtype).reshape(got.shape)
        if got.dtype.kind == "f":
            # Contracted multiply-adds, and a GPU's math library, may differ
            # from NumPy's roundings in the last bits: a few ulps, far below
            # what a wrong formula gives.
            ulps = 8 if got.dtype == np.float32 else 64
            rtol = max(rtol, ulps * np.finfo(got.dtype).eps)
            atol = max(atol, ulps * np.finfo(got.dtype).eps)
            np.testing.assert_allclose(got, exp, rtol=rtol, atol=atol,
                                       err_msg="%s: %s vs %s" % (stem, name, label))
        else:
            np.testing.assert_array_equal(got, exp, err_msg="%s: %s vs %s" % (stem, name, label))


def test_spec_rand_matches_kern_run(tool, tmp_path):
    """The SPEC reader's rand() is bit for bit the C tool's."""
    if tool is None:
        pytest.skip("the C tool is not built")
    src = os.path.join(REPO, "examples", "saxpy.py")
    out = tmp_path / "x.npy"
    subprocess.run([tool, "run", src, "saxpy", "--dim", "1", "a=0",
                    "x=rand(float32,257,seed=7)", "y=zeros(float32,257)",
                    "--save", "x=%s" % out, "-q", "--device", "cpu"], check=True)
    k = kern.load(src, device="cpu").saxpy
    mine = _spec.parse_array(k.params[1], "rand(float32,257,seed=7)")
    np.testing.assert_array_equal(np.load(out), mine)
