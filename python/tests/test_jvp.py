"""Forward mode from Python (issue #26): Kernel.tangent and kern.jvp.

A worked example, then every kernel of tests/autodiff (the Warp-golden
adjoint tests) in forward mode: the tangent kernel's outputs equal the
forward launch's, its J v equals central differences of the forward
launch along v, and <J v, w> = <v, J^T w> against the adjoint kernel,
except where Warp's adjoint is not the derivative (EXPECT_INEXACT, which
must then really differ, so the list cannot go stale).  The kernels are
float32, so the tolerances are float32's; tests/autodiff/test_autodiff.c
makes the same checks in float64 with tight ones."""
import glob
import os
import re
import shlex

import numpy as np
import pytest

import kern

from conftest import REPO

SRC = """import warp as wp

@wp.kernel
def scale(x: wp.array(dtype=wp.float64), s: wp.float64, y: wp.array(dtype=wp.float64)):
    i = wp.tid()
    y[i] = s * wp.sin(x[i])

@wp.kernel
def maxed(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    wp.atomic_max(y, 0, x[wp.tid()])
"""


@pytest.fixture(scope="module")
def mod(device):
    return kern.load(SRC, device=device, name="jvp_src.py")


def test_jvp_worked(mod, device):
    # y = s sin x: dy = s cos x dx + sin x ds
    h = np.linspace(-1.0, 2.0, 9)
    x = kern.array(h, device=device)
    y = kern.zeros(9, kern.float64, device=device)
    v = kern.array(np.linspace(1.0, 0.2, 9), device=device)
    t = kern.jvp(mod.scale, 9, [x, 1.5, y], {"x": v, "s": 0.25})
    assert set(t) == {"x", "y"} and t["x"] is v
    np.testing.assert_allclose(y.numpy(), 1.5 * np.sin(h), rtol=1e-14)
    want = 1.5 * np.cos(h) * v.numpy() + np.sin(h) * 0.25
    np.testing.assert_allclose(t["y"].numpy(), want, rtol=1e-13, atol=1e-15)
    # inputs by name; no tangent for x: only s moves y
    y2 = kern.zeros(9, kern.float64, device=device)
    t = kern.jvp(mod.scale, 9, {"x": x, "s": 1.5, "y": y2}, {"s": 1.0})
    np.testing.assert_allclose(t["y"].numpy(), np.sin(h), rtol=1e-14)
    assert not t["x"].numpy().any()
    assert mod.scale.tangent is mod.scale.tangent
    assert mod.scale.tangent.name == "tan_scale"
    assert [p.name for p in mod.scale.tangent.params] == [
        "x", "s", "y", "tan_x", "tan_s", "tan_y"]


def test_jvp_errors(mod, device):
    x = kern.zeros(4, kern.float64, device=device)
    with pytest.raises(kern.InvalidArgumentError, match="no parameter 'z'"):
        kern.jvp(mod.scale, 4, [x, 1.0, x], {"z": x})
    with pytest.raises(kern.CompileError,
                       match=r"jvp_src.py:10:.*forward-mode autodiff of wp.atomic_max"):
        mod.maxed.tangent


# --------------------------------------------------------------- tests/autodiff

AUTODIFF = os.path.join(REPO, "tests", "autodiff")
# Warp's adjoint of a loop-carried product is not its derivative (Note
# [adjoint]; these files check that kern computes Warp's value): forward
# mode is exact there, so <J v, w> != <v, J^T w>.
# Nor is it across a break, continue or return of a dynamic loop (Note
# [adjoint jumps]), nor where a @wp.func_grad or @wp.func_replay replaces
# the function's derivative (Note [custom adjoints]): forward mode
# differentiates the function's body.
EXPECT_INEXACT = {"loop_carried", "loop_carried_if", "while_loop",
                  "loop_break", "loop_continue", "loop_return",
                  "flow_return_nested",
                  # a loop-carried product in a @wp.func (Note [loops in
                  # functions])
                  "func_loop", "func_loop_while",
                  # sin of a variable a while loop carries
                  "func_while_struct",
                  "func_grad", "func_grad_vec", "func_replay",
                  "funcgrad_multi", "funcgrad_overload", "funcgrad_array",
                  "funcgrad_loop", "funcgrad_replay",
                  # Warp's adj_frac is zero; the tangent is frac's derivative
                  "builtin_misc",
                  # Warp's replay reads fixed-size local arrays as zeros
                  # (Note [adjoint fixed arrays])
                  "fixed_linear", "fixed_replay",
                  # curlnoise's lacunarity and gain: no gradient in Warp,
                  # their derivatives in the tangent
                  "bi_noise_curl_octaves"}
# refused in forward mode: the tangent of an atomic min/max/exch/cas
# depends on the order of the threads' atomics
EXPECT_REFUSED = {"atomic_minmax": "wp.atomic_min",
                  "flow_atomic_exch": "wp.atomic_exch",
                  "flow_atomic_minmax_vec": "wp.atomic_min"}
# Refused where a block has more than one thread (cuda and opencl launch
# tile kernels in blocks of 256): the tangents of the block exchanges
# (ir_tangent in src/ir/adjoint.c); the CPU's are checked below.
EXPECT_REFUSED_BLOCKS = {"tile_exch": "a block exchange",
                         "tile_exch_scatter": "a block exchange"}

_SPEC = re.compile(r"(\w+)\((\w+),([-\d.,]+?)(?:,seed=\d+)?\)$")
# kern dtype and element shape; a name ending in d is float64's
_DT = {"float32": (kern.float32, ()), "float64": (kern.float64, ()),
       "int32": (kern.int32, ()), "vec3": (kern.vec3, (3,)), "mat33": (kern.mat33, (3, 3)),
       "vec2": (kern.vec2, (2,)), "mat22": (kern.mat22, (2, 2)),
       "vec4": (kern.vec4, (4,)),
       "vec3d": (kern.vec3d, (3,)), "mat33d": (kern.mat33d, (3, 3)),
       "vec2d": (kern.vec2d, (2,)), "mat22d": (kern.mat22d, (2, 2)),
       "mat44": (kern.mat44, (4, 4)), "mat44d": (kern.mat44d, (4, 4)),
       "vec4": (kern.vec4, (4,)), "vec4d": (kern.vec4d, (4,))}


def _struct_mask(p):
    """An array of structs' element as float32 words (Note [arrays of
    structs] in src/ir/adjoint.c): a mask of the words of its float32
    fields, the others (int32) held at zero; every field is 4-byte
    scalars in the tests/autodiff files that have one."""
    mask = np.zeros(p.dtype.size // 4, bool)
    for f in p.fields:
        if f.is_struct:
            continue
        assert f.type.scalar_name in ("float32", "int32") and f.offset % 4 == 0, f.path
        if f.type.scalar_name == "float32":
            mask[f.offset // 4:(f.offset + f.size) // 4] = True
    return mask


def _words(x, like):
    """The array of structs x (its bytes, or records where kern.warp has
    registered the struct) as float32 words of like's shape."""
    b = np.ascontiguousarray(x.numpy()).view(np.uint8).reshape(-1)
    return b.view(np.float32).reshape(like.shape)


def _header(path):
    with open(path) as f:
        for line in f:
            if line.startswith("# kern-test:"):
                words = shlex.split(line[len("# kern-test:"):])
                return words[0], words
    return None, None


def _cases():
    out = []
    for p in sorted(glob.glob(os.path.join(AUTODIFF, "*.py"))):
        name, words = _header(p)
        # the Python package has no float16/bfloat16 arrays: those files
        # (half_*, bf16_*) run through `kern run` only (autodiff_cpu); the
        # struct files (a {...} SPEC) have their tangent checked by kern
        # gradcheck (tests/autodiff/gradcheck.sh) and test_jvp_struct below;
        # arrays of structs (aos_*) run here, as float32 words (_struct_mask)
        # (a file computing in 16-bit types from float32 arrays, bf16_vec,
        # is not smooth enough for finite differences either; bf16_mat4's
        # forward launch, the C helper of a 16-bit 4x4 inverse computing in
        # float32, differs in the last bit from its expansion, Warp's)
        if name and not re.search(r"\((b?float16),", " ".join(words)) and \
                not re.search(r"=\{", " ".join(words)) and \
                not re.match(r"(half|bf16)_", os.path.basename(p)):
            out.append(pytest.param(p, id=os.path.basename(p)[:-3]))
    return out


class Case:
    """One tests/autodiff file: its kernel, grid and forward arguments as
    numpy arrays (random floats in [0.3, 1.3], seeded) and values."""

    def __init__(self, path, device):
        self.name, words = _header(path)
        self.device = device
        self.mod = kern.load(path, device=device)
        self.kernel = getattr(self.mod, self.name)
        dim = words[words.index("--dim") + 1]
        self.dim = tuple(int(d) for d in dim.split(","))
        # `--block-dim B` and `--tiled` as kern run reads them: the block
        # size of every launch (the tangent's and the adjoint's follow the
        # kernel's), and wp.launch_tiled's grid, the block appended (the
        # kernel's on this device: 1 on the CPU).  Without them a tile
        # kernel ran 3 threads in a GPU block of 256 (bench/NOTES.md run 15).
        if "--block-dim" in words:
            self.kernel._set_block_dim(int(words[words.index("--block-dim") + 1]))
        if "--tiled" in words:
            self.dim = self.dim + (self.kernel.block_dim,)
        rng = np.random.default_rng(26)
        given = dict(w.split("=", 1) for w in words if "=" in w)
        self.specs = []   # (name, np array | value, kern dtype | None, is_input)
        self.masks = {}   # array of structs -> its float words (_struct_mask)
        for p in self.kernel.params:
            spec = given[p.name]
            m = _SPEC.match(spec)
            if not m:
                self.specs.append((p.name, float(spec) if "." in spec else int(spec),
                                   None, False))
                continue
            kind, dt, rest = m.group(1), m.group(2), m.group(3).split(",")
            if dt not in _DT:   # an array of structs: its elements' words
                mask = self.masks[p.name] = _struct_mask(p)
                shape = tuple(int(s) for s in rest) + mask.shape
                a = np.zeros(shape, np.float32)
                if kind != "zeros":
                    a[..., mask] = rng.uniform(0.3, 1.3, a[..., mask].shape)
                self.specs.append((p.name, a, p.dtype, kind != "zeros"))
                continue
            t, elem = _DT[dt]
            shape = tuple(int(s) for s in (rest[:-1] if kind == "full" else rest))
            full = shape + elem
            f64 = dt == "float64" or dt.endswith("d")
            if dt == "int32":
                a = np.zeros(full, np.int32)
            elif kind == "zeros":
                a = np.zeros(full, np.float64 if f64 else np.float32)
            else:
                a = rng.uniform(0.3, 1.3, full).astype(
                    np.float64 if f64 else np.float32)
            self.specs.append((p.name, a, t, kind != "zeros" and dt != "int32"))

    def floats(self):
        return [(n, a, t) for n, a, t, _ in self.specs
                if t is not None and t is not kern.int32]

    def array(self, n, a, t):
        if n in self.masks:
            a = np.ascontiguousarray(a).view(np.uint8)
        return kern.array(a, dtype=t, device=self.device)

    def host(self, n, x):
        """The kern array x of parameter n as float64."""
        if n in self.masks:
            return _words(x, dict((s[0], s[1]) for s in self.specs)[n]).astype(np.float64)
        return x.numpy().astype(np.float64)

    def args(self, arrays=None):
        arrays = arrays or {}
        out = []
        for n, a, t, _ in self.specs:
            if t is None:
                out.append(a)
            else:
                out.append(self.array(n, arrays.get(n, a), t))
        return out

    def forward(self, arrays=None):
        args = self.args(arrays)
        self.kernel(*args, dim=self.dim)
        return {n: self.host(n, x) for (n, _, t, _), x
                in zip(self.specs, args) if t is not None}

    def mask(self, n, x):
        """x with an array of structs' integer words zero."""
        if n in self.masks:
            x = x * self.masks[n]
        return x


@pytest.mark.parametrize("path", _cases())
def test_tangent_of_autodiff_kernels(path, device):
    c = Case(path, device)
    refused = EXPECT_REFUSED.get(c.name)
    if refused is None and device.backend in ("cuda", "opencl"):
        refused = EXPECT_REFUSED_BLOCKS.get(c.name)
    if refused is not None:
        with pytest.raises(kern.CompileError, match="forward-mode autodiff of " +
                           re.escape(refused)):
            c.kernel.tangent
        return
    rng = np.random.default_rng(7)
    v = {n: c.mask(n, rng.uniform(-1, 1, a.shape).astype(a.dtype))
         for n, a, t, inp in c.specs if inp}
    w = {n: c.mask(n, rng.uniform(-1, 1, a.shape).astype(a.dtype))
         for n, a, t in c.floats()}
    # the tangent launch: the forward's values, and J v
    args = c.args()
    tans = {n: c.array(n, v[n], t) for n, a, t in c.floats() if n in v}
    jv = kern.jvp(c.kernel, c.dim, args, tans)
    ref = c.forward()
    for (n, _, t, _), x in zip(c.specs, args):
        if t is not None:
            np.testing.assert_allclose(c.host(n, x), ref[n], rtol=1e-5, atol=1e-6,
                                       err_msg="%s: %s" % (c.name, n))
    jv = {n: c.mask(n, c.host(n, x)) for n, x in jv.items()}
    # central differences along v (float32: a step of 1e-2, loose bounds)
    h = 1e-2
    base = {s[0]: s[1] for s in c.specs}
    plus = c.forward({n: base[n] + h * v[n] for n in v})
    minus = c.forward({n: base[n] - h * v[n] for n in v})
    # and at half the step: an element whose two differences disagree is
    # not smooth within the step (wp.mod's jump, erfinv near 1) and is not
    # compared; at most one element in ten may be left out that way
    plus2 = c.forward({n: base[n] + h / 2 * v[n] for n in v})
    minus2 = c.forward({n: base[n] - h / 2 * v[n] for n in v})
    for n in jv:
        fd = (plus[n] - minus[n]) / (2 * h)
        fd2 = (plus2[n] - minus2[n]) / h
        scale = 1 + np.abs(fd).max()
        smooth = np.abs(fd - fd2) <= 2e-2 * (1 + np.abs(fd2))
        assert smooth.mean() >= 0.9, "%s: tan_%s: %d of %d differences not smooth" % (
            c.name, n, np.count_nonzero(~smooth), smooth.size)
        np.testing.assert_allclose(jv[n][smooth], fd[smooth], rtol=2e-2, atol=2e-2 * scale,
                                   err_msg="%s: tan_%s against central differences"
                                   % (c.name, n))
    # the adjoint from w, after a forward launch (wp.Tape's order)
    args = c.args()
    c.kernel(*args, dim=c.dim)
    adj = []
    for (n, a, t, _), x in zip(c.specs, args):
        if t is None:
            adj.append(0.0 if isinstance(a, float) else 0)
        elif t is kern.int32:
            adj.append(None)
        else:
            adj.append(c.array(n, w[n], t))
    c.kernel.adjoint(*(args + adj), dim=c.dim)
    lhs = sum(float(np.sum(jv[n] * w[n])) for n in jv)
    rhs = 0.0
    for (n, a, t, _), g in zip(c.specs, adj):
        if n in v:
            rhs += float(np.sum(v[n].astype(np.float64) * c.mask(n, c.host(n, g))))
    mag = sum(float(np.sum(np.abs(jv[n] * w[n]))) for n in jv) + 1
    if c.name in EXPECT_INEXACT:
        assert abs(lhs - rhs) > 1e-2 * mag, (
            "%s: <J v, w> = <v, J^T w> now (%r, %r): Warp's adjoint is exact "
            "here, take it off EXPECT_INEXACT" % (c.name, lhs, rhs))
    else:
        assert abs(lhs - rhs) <= 1e-4 * mag, (
            "%s: <J v, w> = %r but <v, J^T w> = %r" % (c.name, lhs, rhs))


def test_jvp_struct(device):
    # Note [struct leaves]: a struct's array fields take their tangents from
    # the tangent struct's; its float field's tangent is the tangent
    # struct's field.  y = k sin(x) + w x: dy = (k cos x + w) dx + x dw + sin x dk
    src = """import warp as wp

@wp.struct
class Sub:
    ws: wp.array(dtype=wp.float64)

@wp.struct
class S:
    xs: wp.array(dtype=wp.float64)
    ys: wp.array(dtype=wp.float64)
    k: wp.float64
    sub: Sub

@wp.kernel
def step(s: S):
    i = wp.tid()
    s.ys[i] = s.k * wp.sin(s.xs[i]) + s.sub.ws[i] * s.xs[i]
"""
    if device.backend == "opencl":
        # an OpenCL 1.2 buffer has no device address to put in a struct
        with pytest.raises(kern.UnsupportedError, match="OpenCL cannot pass arrays inside structs"):
            kern.load(src, device=device, name="jvp_struct.py")
        return
    m = kern.load(src, device=device, name="jvp_struct.py")
    x, w = np.linspace(0.0, 1.0, 5), np.linspace(1.0, 2.0, 5)
    dx, dw = np.linspace(1.0, -1.0, 5), np.linspace(0.5, 0.1, 5)
    arr = lambda h: kern.array(h, device=device)
    ys, ty = kern.zeros(5, kern.float64, device=device), kern.zeros(5, kern.float64, device=device)
    s = {"xs": arr(x), "ys": ys, "k": 1.5, "sub": {"ws": arr(w)}}
    t = {"xs": arr(dx), "ys": ty, "k": 0.25, "sub": {"ws": arr(dw)}}
    kern.jvp(m.step, 5, [s], {"s": t})
    np.testing.assert_allclose(ys.numpy(), 1.5 * np.sin(x) + w * x, rtol=1e-14)
    want = (1.5 * np.cos(x) + w) * dx + x * dw + np.sin(x) * 0.25
    np.testing.assert_allclose(ty.numpy(), want, rtol=1e-13, atol=1e-15)


def test_kern_run_tangent(tool, tmp_path):
    # kern run --tangent: the outputs as a plain run, tan_out = J v
    if tool is None:
        pytest.skip("the kern tool is not built")
    import subprocess
    f = os.path.join(AUTODIFF, "arith.py")
    save = tmp_path / "t.npy"
    r = subprocess.run([tool, "run", f, "arith", "--tangent", "--quiet",
                        "--device", "cpu", "--dim", "4",
                        "a=arange(float32,4)", "b=full(float32,4,1.5)",
                        "out=zeros(float32,4)", "s=2.5", "tan_a=ones(float32,4)",
                        "tan_b=zeros(float32,4)", "tan_out=zeros(float32,4)",
                        "tan_s=0", "--save", "tan_out=%s" % save],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    a, y, s = np.arange(4.0), 1.5, 2.5
    x = a + 1
    # out = (x^2 s - y/x - 3y) y / (1 + y); d/da = (2 x s + y / x^2) y / (1 + y)
    np.testing.assert_allclose(np.load(save), (2 * x * s + y / x ** 2) * y / (1 + y),
                               rtol=1e-5)
    r = subprocess.run([tool, "run", f, "arith", "--tangent", "--adjoint"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and "one of --adjoint and --tangent" in r.stderr


EB_SRC = """import warp as wp

wp.set_module_options({"enable_backward": False})

@wp.kernel
def sq(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = x[i] * x[i]

@wp.kernel(enable_backward=True)
def twice(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    y[i] = 2.0 * x[i]
"""


def test_enable_backward_tape(device):
    # Warp 1.19 on the CPU, for the same launches: tape.backward() warns
    # "Running the tape backwards may produce incorrect gradients because
    # recorded kernel sq is defined in a module with the option
    # 'enable_backward=False' set." and x.grad is [2, 2], from twice (the
    # kernel option given as @wp.kernel(enable_backward=False) reads "is
    # configured with the option 'enable_backward=False'."); an
    # explicit adjoint launch raises RuntimeError "Failed to find backward
    # kernel" (kern: CompileError naming the option).  The kernel's own
    # enable_backward=True wins over the module's False.
    m = kern.load(EB_SRC, device=device, name="eb_src.py")
    x = kern.array(np.array([1.0, 2.0], np.float32), device=device, requires_grad=True)
    y = kern.zeros(2, kern.float32, device=device, requires_grad=True)
    z = kern.zeros(2, kern.float32, device=device, requires_grad=True)
    with kern.Tape() as tape:
        m.sq(x, y, dim=2)
        m.twice(x, z, dim=2)
    with pytest.warns(UserWarning, match="recorded kernel sq is defined in a "
                      "module with the option 'enable_backward=False' set"):
        tape.backward(grads={z: kern.array(np.ones(2, np.float32), device=device),
                             y: kern.array(np.ones(2, np.float32), device=device)})
    np.testing.assert_array_equal(x.grad.numpy(), [2.0, 2.0])  # from twice only
    with pytest.raises(kern.CompileError, match=r"eb_src.py:6:.*enable_backward=False "
                       r"\(wp.set_module_options\)"):
        m.sq.adjoint
