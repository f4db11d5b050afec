#!/usr/bin/env python3
"""float32 math on the vulkan target (Note [vulkan float32 math]): every
float32 function kern replaces GLSL's with is evaluated on the Vulkan device
over float32 inputs spanning its domain plus the special values, through a
generated Warp file and `kern run --backend vulkan`, and compared with the
C library's value (Python's math module calls glibc's libm in float64, so
the reference is within ~2^-29 float32 ulp of the exact value).  Reports
the largest error in float32 ulps per function and fails above its bound,
or on a NaN, an infinity or a zero (sign included) where the C library
gives something else.  Before kern had its own versions, lavapipe's GLSL
float32 functions were off by ~1e-4 relative (~1000 ulp) and gave NaN for
pow of a negative base.  Denormal arguments and results must come out
exact on every device, NVIDIA's too, which has no float32 DenormPreserve
and flushed them (Note [vulkan float32 denormals]); float32 sqrt and
division (k_fsqrt, k_fdiv: correctly rounded) are measured too.
usage: f32math_test.py KERN [N]   (exit 77: no Vulkan device or no NumPy)"""
import math, os, subprocess, sys, tempfile
try:
    import numpy as np
except ImportError:
    print("skip: no NumPy"); sys.exit(77)

KERN = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 40000
dev = subprocess.run([KERN, "devices"], capture_output=True, text=True).stdout
if "vulkan: available" not in dev:
    print("skip: no vulkan device"); sys.exit(77)

def c_exp2(x): return math.inf if x > 1024 else 2.0 ** x
def c_pow(x, y):
    try: return math.pow(x, y)
    except OverflowError:
        return math.inf if (x > 0 or y != math.floor(y) or (y % 2) == 0) else -math.inf
    except ValueError:
        return math.inf if x == 0 else math.nan
def clamp1(x): return x if math.isnan(x) else min(1.0, max(-1.0, x))
# name: (C reference, bound in float32 ulps; measured 0.5 + rounding of the
# float64 value, i.e. correctly rounded but for ties of the two roundings)
UN = {
    "sin": (math.sin, 1), "cos": (math.cos, 1), "tan": (math.tan, 1),
    "asin": (lambda x: math.asin(clamp1(x)), 1),  # Warp clamps
    "acos": (lambda x: math.acos(clamp1(x)), 1), "atan": (math.atan, 1),
    "sinh": (math.sinh, 1), "cosh": (math.cosh, 1), "tanh": (math.tanh, 1),
    "exp": (math.exp, 1), "exp2": (c_exp2, 1),
    "log": (math.log, 1), "log2": (math.log2, 1), "log10": (math.log10, 1),
    "cbrt": (math.cbrt, 1), "erf": (math.erf, 1), "erfc": (math.erfc, 1),
}
def c_div(x, y):
    if y == 0:
        return math.nan if x == 0 or x != x else math.copysign(math.inf, x) * math.copysign(1, y)
    return x / y
UN["sqrt"] = (math.sqrt, 1)
BI = {"atan2": (math.atan2, 1), "pow": (c_pow, 1), "div": (c_div, 1)}

def ref(f, *a):  # C's results where Python raises
    try: return f(*a)
    except OverflowError:
        return math.copysign(math.inf, a[0]) if f in (math.sinh, math.tan) else math.inf
    except ValueError:
        if f in (math.log, math.log2, math.log10) and a[0] == 0: return -math.inf
        return math.nan
NAN_CLAMPED = {"asin", "acos"}  # kern's clamp, not this test's business

rng = np.random.default_rng(11)
inf, nan = math.inf, math.nan
F32MAX, F32TINY = 3.4028234663852886e38, 1.401298464324817e-45
SPEC = [0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, -0.5, 2.0, F32TINY, -F32TINY,
        1.1754943508222875e-38, F32MAX, -F32MAX, math.pi, math.pi / 2, -math.pi / 4,
        88.7, 89.0, -103.0, -104.0, 1e-20, 9.0, 10.0, 128.0, -150.0, 1e10, -1e30,
        # float32 closest to multiples of pi/2 far out (glibc sinf's hard cases)
        1.0 * np.float32(16367173.0), 1.0 * np.float32(1.6e38)]
def inputs(n):
    k = n - len(SPEC)
    mag = 10.0 ** rng.uniform(-45, 38.5, k // 4)             # the whole range
    small = rng.uniform(-12, 12, k // 4)                      # the interesting middle
    mid = rng.uniform(-200, 200, k // 4)
    trig = rng.uniform(-(2 ** 20) * math.pi, (2 ** 20) * math.pi, k - 3 * (k // 4))
    x = np.concatenate([np.array(SPEC), mag * rng.choice([-1.0, 1.0], mag.size), small, mid, trig])
    return x.astype(np.float32)

x = inputs(N)
y = np.concatenate([np.array(SPEC[::-1]), rng.uniform(-40, 40, N // 2),
                    10.0 ** rng.uniform(-10, 10, N - N // 2 - len(SPEC)) *
                    rng.choice([-1.0, 1.0], N - N // 2 - len(SPEC))]).astype(np.float32)
y[len(SPEC):len(SPEC) + 4000] = np.round(y[len(SPEC):len(SPEC) + 4000])  # integer powers
xp = x.copy(); xp[len(SPEC):len(SPEC) + N // 4] = np.abs(rng.normal(1.0, 3.0, N // 4))
xp[len(SPEC) + 4000:len(SPEC) + 6000] = -np.abs(xp[len(SPEC) + 4000:len(SPEC) + 6000])
y[len(SPEC) + 4000:len(SPEC) + 6000] = np.round(y[len(SPEC) + 4000:len(SPEC) + 6000])
xp = xp.astype(np.float32)  # negative bases with integral exponents

src = ["import warp as wp", "", "@wp.kernel",
       "def un(x: wp.array(dtype=wp.float32), " +
       ", ".join("o_%s: wp.array(dtype=wp.float32)" % f for f in UN) + "):",
       "    i = wp.tid()"]
src += ["    o_%s[i] = wp.%s(x[i])" % (f, f) for f in UN]
src += ["", "@wp.kernel",
        "def bi(x: wp.array(dtype=wp.float32), y: wp.array(dtype=wp.float32), " +
        ", ".join("o_%s: wp.array(dtype=wp.float32)" % f for f in BI) + "):",
        "    i = wp.tid()"]
src += ["    o_%s[i] = wp.%s(x[i], y[i])" % (f, f) for f in BI]

def ulps(got, want):  # want: the float64 reference; ulps of float32
    with np.errstate(over="ignore"):
        w32 = float(np.float32(want))
    if math.isnan(want): return 0.0 if math.isnan(got) else math.inf
    if math.isinf(w32) or math.isnan(got) or math.isinf(got):
        return 0.0 if got == w32 else math.inf
    if w32 == 0 and got == 0:  # zeros keep their sign: sin(-0) is -0
        return 0.0 if math.copysign(1, w32) == math.copysign(1, got) else math.inf
    return abs(got - want) / float(np.spacing(np.float32(abs(w32))))

with tempfile.TemporaryDirectory() as d:
    py = os.path.join(d, "f32math.py")
    open(py, "w").write("\n".join(src) + "\n")
    np.save(os.path.join(d, "x.npy"), x); np.save(os.path.join(d, "xp.npy"), xp)
    np.save(os.path.join(d, "y.npy"), y)
    env = dict(os.environ, KERN_CACHE_DIR=os.path.join(d, "cache"))
    def run(kern, args, outs):
        cmd = [KERN, "run", py, kern, "--dim", str(N), "--backend", "vulkan", "-q"] + args
        for f in outs:
            cmd += ["o_%s=zeros(float32,%d)" % (f, N), "--save", "o_%s=%s/%s.npy" % (f, d, f)]
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if r.returncode != 0:
            print("FAIL: kern run %s: %s%s" % (kern, r.stdout, r.stderr)); sys.exit(1)
        return {f: np.load("%s/%s.npy" % (d, f)) for f in outs}
    got = run("un", ["x=%s/x.npy" % d], UN)
    got.update(run("bi", ["x=%s/xp.npy" % d, "y=%s/y.npy" % d], BI))

TINY32 = 1.1754943508222875e-38  # the smallest normal float32
def ftz(v): return math.copysign(0.0, v) if v == v and 0 < abs(v) < TINY32 else v
flushed = {}
bad = False
xs, xps, ys = [float(v) for v in x], [float(v) for v in xp], [float(v) for v in y]
for f, (c, bound) in list(UN.items()) + list(BI.items()):
    g = [float(v) for v in got[f]]; worst, at, gw = 0.0, None, ""
    for i in range(N):
        if f in NAN_CLAMPED and math.isnan(xs[i]): continue
        w = ref(c, xs[i]) if f in UN else ref(c, xps[i], ys[i])
        e = ulps(g[i], w)
        if e > bound:
            # a denormal argument or result flushed to a zero of its sign
            # (NVIDIA's driver, before Note [vulkan float32 denormals])
            fx = ftz(xs[i]) if f in UN else ftz(xps[i])
            w2 = ref(c, fx) if f in UN else ref(c, fx, ftz(ys[i]))
            e2 = min(ulps(g[i], w2), ulps(g[i], ftz(w2)), ulps(g[i], ftz(w)))
            if e2 <= bound:
                e = e2; flushed[f] = flushed.get(f, 0) + 1
        if e > worst: worst, at, gw = e, i, " (got %r, libm %r)" % (g[i], w)
    ok = worst <= bound
    bad |= not ok
    arg = "" if at is None else (" at x=%r" % xs[at] if f in UN else " at x=%r y=%r" % (xps[at], ys[at]))
    print("%-6s max %.3g ulp (bound %g)%s%s%s" % (f, worst, bound, arg, gw, "" if ok else "  FAIL"))
if flushed:
    print("FAIL: denormals flushed to zero:",
          ", ".join("%s %d" % kv for kv in sorted(flushed.items())))
    bad = True
sys.exit(1 if bad else 0)
