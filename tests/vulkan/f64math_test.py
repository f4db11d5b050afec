#!/usr/bin/env python3
"""float64 math on the vulkan target (Note [vulkan float64 math]): every
function kern writes in GLSL for float64 is evaluated on the Vulkan device
over ~10^5 inputs spanning its domain plus the special values, through a
generated Warp file and `kern run --backend vulkan`, and compared with the
C library (Python's math module calls glibc's libm).  Reports the largest
error in ulps per function and fails above its bound, or on a NaN, an
infinity or a zero where the C library gives something else.
usage: f64math_test.py KERN [N]   (exit 77: no Vulkan device or no NumPy)"""
import math, os, subprocess, sys, tempfile
try:
    import numpy as np
except ImportError:
    print("skip: no NumPy"); sys.exit(77)

KERN = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
dev = subprocess.run([KERN, "devices"], capture_output=True, text=True).stdout
if "vulkan: available" not in dev:
    print("skip: no vulkan device"); sys.exit(77)

def c_exp2(x): return math.ldexp(1.0, 2000) if x > 1024 else 2.0 ** x
def c_pow(x, y):
    try: return math.pow(x, y)
    except (OverflowError): return math.inf if (x > 0 or y != math.floor(y) or (y % 2) == 0) else -math.inf
    except ValueError:
        return math.inf if x == 0 else math.nan
def trig(f):  # every finite argument, reduced by the bits of 2/pi above 2^20 pi/2
    return f
def clamp1(x): return x if math.isnan(x) else min(1.0, max(-1.0, x))
UN = {  # name: (C reference, ulp bound)
    "sin": (trig(math.sin), 2), "cos": (trig(math.cos), 2), "tan": (trig(math.tan), 3),
    "asin": (lambda x: math.asin(clamp1(x)), 2),  # Warp clamps
    "acos": (lambda x: math.acos(clamp1(x)), 3), "atan": (math.atan, 2),
    "sinh": (math.sinh, 2), "cosh": (math.cosh, 2), "tanh": (math.tanh, 2),
    "exp": (math.exp, 2), "exp2": (c_exp2, 2),
    "log": (math.log, 2), "log2": (math.log2, 2), "log10": (math.log10, 2),
    "cbrt": (math.cbrt, 3), "erf": (math.erf, 6),
    "erfc": (math.erfc, 32),  # 1 - erf below 1, a continued fraction from 1: not 1-2 ulp yet
}
BI = {"atan2": (math.atan2, 3), "pow": (c_pow, 2)}

def ref(f, *a):  # C's results where Python raises
    try: return f(*a)
    except OverflowError:
        return math.copysign(math.inf, a[0]) if f in (math.sinh, math.tan) else math.inf
    except ValueError:
        if f in (math.log, math.log2, math.log10) and a[0] == 0: return -math.inf
        return math.nan
try:
    import mpmath
    mpmath.mp.prec = 2200  # exact enough for sin, cos, tan of any double
except ImportError:  # glibc alone is wrong near multiples of pi/2 (below)
    print("skip: no mpmath (python3-mpmath)"); sys.exit(77)
MP = {"sin", "cos", "tan"}
NAN_CLAMPED = {"asin", "acos"}  # kern's clamp, not this test's business

rng = np.random.default_rng(7)
inf, nan = math.inf, math.nan
SPEC = [0.0, -0.0, inf, -inf, nan, 1.0, -1.0, 0.5, -0.5, 2.0, 5e-324, -5e-324,
        2.2250738585072014e-308, 1e-310, 1.7976931348623157e308, -1.7976931348623157e308,
        math.pi, math.pi / 2, -math.pi / 4, 709.78, 710.0, -745.0, -746.0, 1e-20, 27.0, 28.0,
        # Note [vulkan large arguments]: just above and below 2^20 pi/2, and
        # the double closest to a multiple of pi/2 (about 2^-61 from it)
        1647099.3291652855, 1647099.3291652857, -1647099.33, 1e22, -1e300,
        math.ldexp(6381956970095103, 797), -math.ldexp(6381956970095103, 797)]
def inputs(n):
    k = n - len(SPEC)
    mag = 10.0 ** rng.uniform(-310, 308.2, k // 4)          # the whole range
    small = rng.uniform(-8, 8, k // 4)                      # the interesting middle
    mid = rng.uniform(-1000, 1000, k // 4)
    trig = rng.uniform(-(2 ** 20) * math.pi, (2 ** 20) * math.pi, k - 3 * (k // 4))
    x = np.concatenate([np.array(SPEC), mag * rng.choice([-1.0, 1.0], mag.size), small, mid, trig])
    return x

x = inputs(N)
y = np.concatenate([np.array(SPEC[::-1]), rng.uniform(-40, 40, N // 2),
                    10.0 ** rng.uniform(-20, 20, N - N // 2 - len(SPEC)) *
                    rng.choice([-1.0, 1.0], N - N // 2 - len(SPEC))])
y[len(SPEC):len(SPEC) + 2000] = np.round(y[len(SPEC):len(SPEC) + 2000])  # integer powers
xp = x.copy(); xp[len(SPEC):len(SPEC) + N // 4] = np.abs(rng.normal(1.0, 3.0, N // 4))  # pow bases

src = ["import warp as wp", "", "@wp.kernel",
       "def un(x: wp.array(dtype=wp.float64), " +
       ", ".join("o_%s: wp.array(dtype=wp.float64)" % f for f in UN) + "):",
       "    i = wp.tid()"]
src += ["    o_%s[i] = wp.%s(x[i])" % (f, f) for f in UN]
src += ["", "@wp.kernel",
        "def bi(x: wp.array(dtype=wp.float64), y: wp.array(dtype=wp.float64), " +
        ", ".join("o_%s: wp.array(dtype=wp.float64)" % f for f in BI) + "):",
        "    i = wp.tid()"]
src += ["    o_%s[i] = wp.%s(x[i], y[i])" % (f, f) for f in BI]

def ulps(got, want):
    if math.isnan(want): return 0.0 if math.isnan(got) else math.inf
    if math.isinf(want) or math.isnan(got) or math.isinf(got):
        return 0.0 if got == want else math.inf
    if want == 0 and got == 0:  # zeros keep their sign: sin(-0) is -0
        return 0.0 if math.copysign(1, want) == math.copysign(1, got) else math.inf
    return abs(got - want) / float(np.spacing(abs(want))) if want != 0 else \
        (0.0 if got == 0 else abs(got) / 5e-324)

with tempfile.TemporaryDirectory() as d:
    py = os.path.join(d, "f64math.py")
    open(py, "w").write("\n".join(src) + "\n")
    np.save(os.path.join(d, "x.npy"), x); np.save(os.path.join(d, "xp.npy"), xp)
    np.save(os.path.join(d, "y.npy"), y)
    env = dict(os.environ, KERN_CACHE_DIR=os.path.join(d, "cache"))
    def run(kern, args, outs):
        cmd = [KERN, "run", py, kern, "--dim", str(N), "--backend", "vulkan", "-q"] + args
        for f in outs:
            cmd += ["o_%s=zeros(float64,%d)" % (f, N), "--save", "o_%s=%s/%s.npy" % (f, d, f)]
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if r.returncode != 0:
            print("FAIL: kern run %s: %s%s" % (kern, r.stdout, r.stderr)); sys.exit(1)
        return {f: np.load("%s/%s.npy" % (d, f)) for f in outs}
    got = run("un", ["x=%s/x.npy" % d], UN)
    got.update(run("bi", ["x=%s/xp.npy" % d, "y=%s/y.npy" % d], BI))

bad = False
for f, (c, bound) in list(UN.items()) + list(BI.items()):
    g = got[f]; worst, at, gw = 0.0, None, ""
    for i in range(N):
        w = ref(c, x[i]) if f in UN else ref(c, xp[i], y[i])
        if f in NAN_CLAMPED and math.isnan(x[i]): continue
        e = ulps(float(g[i]), w)
        if e > bound and f in MP and mpmath is not None:
            # glibc is 8 ulp off near multiples of pi/2 of huge arguments
            # (cos(5.319372648326541e+255)); the exact value decides there
            w = float(getattr(mpmath, f)(mpmath.mpf(float(x[i]))))
            e = ulps(float(g[i]), w)
        if e > worst: worst, at, gw = e, i, " (got %r, libm %r)" % (float(g[i]), w)
    ok = worst <= bound
    bad |= not ok
    arg = "" if at is None else (" at x=%r" % x[at] if f in UN else " at x=%r y=%r" % (xp[at], y[at]))
    print("%-6s max %.3g ulp (bound %g)%s%s%s" % (f, worst, bound, arg, gw, "" if ok else "  FAIL"))
sys.exit(1 if bad else 0)
