#!/usr/bin/env python3
"""kern_bench_ref.py -- runs one reference implementation for `kern bench`.

kern bench (src/bench/run.c) writes the spec's inputs as .npy files and the
CPU backend's outputs as want_<name>.npy into a folder, then runs this
script once per reference.  The script imports the library, moves the inputs
onto the library's device, evaluates the spec's expression once and checks
it against kern's output, then times it the way kern times its own launches:
warm-up outside the samples, hot samples back to back, cold samples after
writing a buffer larger than the caches, each mode until its relative
standard deviation reaches the target or its budget is spent.  GPU libraries
are timed with device events (torch.cuda.Event, cupy.cuda.Event); JAX, Warp
and NumPy by the wall clock around a call that waits for its result.

It prints one JSON object on stdout:
  {"status": "ok"|"unavailable"|"failed", "message", "device", "timer",
   "max_rel_err", "hot": [seconds...], "hot_stop", "cold": [...], "cold_stop"}
A library that cannot be imported is "unavailable", not an error: the row
in kern's table says so.  Only NumPy is needed to run this script at all.
"""
import os
import sys

# Note [no shadowing]: Python puts this script's folder first on sys.path,
# and an empty or relative entry of $PYTHONPATH ('.') names the current
# directory, which is wherever kern bench was started (perhaps the folder
# of a file someone sent).  A folder named like a library there ('warp',
# 'numpy') would be imported instead of the library, so neither folder is
# searched: every entry that is this script's folder or the current
# directory is dropped (Python has made $PYTHONPATH's entries absolute by
# now).  A library that still resolves to a folder without __init__.py
# (a namespace package) is reported as not importable (import_lib).
# Nothing but os and sys (built in) is imported before this.
_HERE = os.path.dirname(os.path.realpath(__file__))
_CWD = os.path.realpath(os.getcwd())
sys.path[:] = [p for p in sys.path
               if p and os.path.isabs(p)
               and os.path.realpath(p) not in (_HERE, _CWD)]

import argparse  # noqa: E402 -- after the path is cleaned
import ast  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import re  # noqa: E402
import time  # noqa: E402

FLUSH_BYTES = 256 << 20

# Libraries print warnings on stdout (Warp without a GPU does), so the
# result goes to a private copy of the original stdout and everything else
# that writes to fd 1 lands on stderr.
_RESULT = os.fdopen(os.dup(1), "w")
os.dup2(2, 1)
# JAX takes 75% of the GPU's memory at start unless told not to, and kern,
# in the parent process, still holds its arrays there.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")


def emit(**kw):
    _RESULT.write(json.dumps(kw) + "\n")
    _RESULT.flush()
    sys.exit(0)


def load_inputs(folder, np):
    arrays = {}
    for name in sorted(os.listdir(folder)):
        if name.startswith("in_") and name.endswith(".npy"):
            arrays[name[3:-4]] = np.load(os.path.join(folder, name))
    with open(os.path.join(folder, "values.json")) as f:
        raw = json.load(f)
    values = {}
    for k, (dtype, v) in raw.items():
        values[k] = getattr(np, dtype)(v) if dtype != "bool" else bool(v)
    return arrays, values


class Sampler:
    """Same stopping rule as src/bench/stats.c."""

    def __init__(self, a):
        self.a, self.x, self.spent, self.stop = a, [], 0.0, None

    def add(self, t, cost):
        self.x.append(t)
        self.spent += cost
        n = len(self.x)
        if n >= max(2, self.a.min_samples):
            mean = sum(self.x) / n
            sd = math.sqrt(sum((v - mean) ** 2 for v in self.x) / (n - 1))
            if mean > 0 and sd / mean <= self.a.target_rsd:
                self.stop = "rsd"
                return True
        if n >= self.a.max_samples:
            self.stop = "max-samples"
            return True
        if self.spent >= self.a.budget:
            self.stop = "budget"
            return True
        return False


# Note [known references]: a '# kern-bench-ref:' expression is Python
# from the kernel file, and Python can do anything (os.system, open,
# __import__).  Unless kern bench was given --file-refs, an expression runs
# only when it is made of nothing but
#   - the spec's parameters by name, numbers and short strings,
#   - arithmetic and comparisons (not of two constants: 9**9**9 would
#     never finish), tuples, lists and subscripts,
#   - calls of the functions named in KNOWN for its library (and math's),
#     with positional and keyword arguments of the same kinds,
#   - the methods in METHODS on any such value (x.sum(), (x * x).sum()).
# The check reads the expression's syntax tree (ast.parse runs nothing);
# the tree that passed is the one compiled, with no builtins.  Setups
# ('EXPR where NAME = SETUP') are never known.  Anything else is a row that
# says it was not run and why.
_MATH = ["sqrt", "abs", "absolute", "square", "exp", "log", "sin", "cos",
         "tan", "tanh", "sum", "prod", "mean", "max", "min", "amax", "amin",
         "dot", "vdot", "inner", "matmul", "add", "subtract", "multiply",
         "divide", "maximum", "minimum", "clip", "where", "cumsum", "float32",
         "float64", "int32", "int64", "pi"]
KNOWN = {
    "numpy": {"np." + f for f in _MATH} | {"np.linalg.norm"},
    "torch": {"torch." + f for f in _MATH} | {"torch.linalg.norm",
                                              "torch.linalg.vector_norm"},
    "cupy": {"cp." + f for f in _MATH} | {"cp.linalg.norm"},
    "jax": {"jnp." + f for f in _MATH} | {"jnp.linalg.norm"},
    "warp": {"wp.utils.array_inner", "wp.utils.array_sum"},
}
KNOWN_MATH = {"math.sqrt", "math.exp", "math.log", "math.pi", "math.e"}
METHODS = {"sum", "prod", "mean", "max", "min", "dot", "T"}


def _dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def unknown_part(lib, expr, names):
    """Returns None when expr is a known reference (Note [known
    references]), else what in it is not."""
    if re.match(r"^.*?\s+where\s+[A-Za-z_]\w*\s*=", expr):
        return "a setup ('where ...')"
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError as e:
        return "a syntax error (%s)" % e.msg
    allowed = KNOWN.get(lib, set()) | KNOWN_MATH
    names = set(names)

    def const(n):
        return isinstance(n, ast.Constant) or (
            isinstance(n, ast.UnaryOp) and const(n.operand)) or (
            isinstance(n, ast.BinOp) and const(n.left) and const(n.right))

    def check(n):
        if isinstance(n, ast.Constant):
            v = n.value
            if isinstance(v, bool) or v is None or isinstance(v, float):
                return None
            if isinstance(v, int):
                return None if abs(v) <= 1 << 31 else "the number %d" % v
            if isinstance(v, str) and len(v) <= 16:
                return None
            return "the constant %r" % (v,)
        if isinstance(n, ast.Name):
            return None if n.id in names else "the name '%s'" % n.id
        if isinstance(n, ast.Attribute):
            d = _dotted(n)
            if d in allowed:
                return None
            if n.attr in METHODS and _dotted(n.value) not in allowed:
                return check(n.value)
            return "'%s'" % (d or "." + n.attr)
        if isinstance(n, ast.Call):
            bad = check(n.func)
            for a in n.args:
                bad = bad or ("'*' arguments" if isinstance(a, ast.Starred) else check(a))
            for k in n.keywords:
                bad = bad or ("'**' arguments" if k.arg is None else check(k.value))
            return bad
        if isinstance(n, ast.BinOp):
            if const(n):
                return "arithmetic on constants alone"
            return check(n.left) or check(n.right)
        if isinstance(n, ast.UnaryOp):
            return check(n.operand)
        if isinstance(n, ast.Compare):
            if const(n.left) and all(const(c) for c in n.comparators):
                return "a comparison of constants"
            return check(n.left) or next(
                (b for b in map(check, n.comparators) if b), None)
        if isinstance(n, (ast.Tuple, ast.List)):
            return next((b for b in map(check, n.elts) if b), None)
        if isinstance(n, ast.Subscript):
            return check(n.value) or check(n.slice)
        if isinstance(n, ast.Slice):  # x[1:-1]: the parts left out are None
            parts = [p for p in (n.lower, n.upper, n.step) if p is not None]
            return next((b for b in map(check, parts) if b), None)
        return "%s syntax" % type(n).__name__
    bad = check(tree.body)
    if bad:
        return bad
    return None


def known_function(tree, names, env):
    """Compiles a checked expression tree as lambda NAMES: EXPR."""
    lam = ast.Expression(body=ast.Lambda(
        args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in names],
                           vararg=None, kwonlyargs=[], kw_defaults=[],
                           kwarg=None, defaults=[]),
        body=tree.body))
    ast.fix_missing_locations(lam)
    g = dict(env)
    # No builtins the expression could name (the check allows no such
    # name anyway); the libraries' own C code imports lazily through the
    # calling frame's __import__, which it therefore keeps.
    g["__builtins__"] = {"__import__": __import__}
    return eval(compile(lam, "<kern-bench-ref>", "eval"), g)


def import_lib(name):
    """Imports a library, refusing a bare folder of that name (Note [no
    shadowing])."""
    import importlib
    mod = importlib.import_module(name)
    if getattr(mod, "__file__", None) is None:
        raise ImportError("'%s' is a folder without __init__.py (%s), not "
                          "the library" % (name, ", ".join(getattr(mod, "__path__", []))))
    return mod


def setup(lib, arrays, values, np):
    """Returns (namespace, converted args, device, timer, sync, to_numpy,
    event_timer or None, flush)."""
    ns = {"np": np, "math": math}
    if lib == "numpy":
        big = np.ones(FLUSH_BYTES // 8)  # touched now, not in the first sample

        def flush():
            big.fill(1.0)

        return ns, dict(arrays), "cpu", "wall", lambda: None, np.asarray, None, flush
    if lib == "torch":
        torch = import_lib("torch")
        ns["torch"] = torch
        dev = "cuda" if torch.cuda.is_available() else "cpu"
        conv = {k: torch.from_numpy(v).to(dev) for k, v in arrays.items()}
        sync = torch.cuda.synchronize if dev == "cuda" else (lambda: None)
        big = torch.empty(FLUSH_BYTES // 4, device=dev)
        name = "cuda: " + torch.cuda.get_device_name(0) if dev == "cuda" else "cpu"

        def to_np(r):
            return r.detach().cpu().numpy() if hasattr(r, "detach") else np.asarray(r)

        ev = None
        if dev == "cuda":
            def ev():
                return torch.cuda.Event(enable_timing=True)
        return ns, conv, name, "events" if ev else "wall", sync, to_np, ev, lambda: big.zero_()
    if lib == "cupy":
        cp = import_lib("cupy")
        ns["cp"] = ns["cupy"] = cp
        cp.cuda.runtime.getDeviceCount()
        conv = {k: cp.asarray(v) for k, v in arrays.items()}
        big = cp.empty(FLUSH_BYTES // 4, dtype=cp.float32)
        props = cp.cuda.runtime.getDeviceProperties(0)
        name = "cuda: " + props["name"].decode()

        def ev():
            return cp.cuda.Event()

        return (ns, conv, name, "events", cp.cuda.runtime.deviceSynchronize,
                cp.asnumpy, ev, lambda: big.fill(0))
    if lib == "jax":
        jax = import_lib("jax")
        import jax.numpy as jnp
        jax.config.update("jax_enable_x64", True)
        ns["jax"], ns["jnp"] = jax, jnp
        d = jax.devices()[0]
        conv = {k: jax.device_put(v, d) for k, v in arrays.items()}
        big = jax.device_put(np.zeros(FLUSH_BYTES // 4, dtype=np.float32), d)
        flush_fn = jax.jit(lambda b: b + 1)
        name = ("cuda: " if d.platform == "gpu" else "cpu: ") + str(getattr(d, "device_kind", d))
        if d.platform == "cpu":
            name = "cpu"

        def sync():
            pass

        def flush():
            flush_fn(big).block_until_ready()

        return ns, conv, name, "wall", sync, np.asarray, None, flush
    if lib == "warp":
        wp = import_lib("warp")
        wp.config.quiet = True
        wp.init()
        ns["wp"] = ns["warp"] = wp
        dev = "cuda" if wp.is_cuda_available() else "cpu"
        conv = {k: wp.array(v, device=dev) for k, v in arrays.items()}
        big = wp.zeros(FLUSH_BYTES // 4, dtype=wp.float32, device=dev)
        name = "cuda: " + wp.get_device(dev).name if dev == "cuda" else "cpu"
        return (ns, conv, name, "wall", lambda: wp.synchronize_device(dev),
                lambda r: r.numpy() if hasattr(r, "numpy") else np.asarray(r),
                None, lambda: big.zero_())
    raise ValueError("unknown library " + lib)


def main():
    p = argparse.ArgumentParser()
    for opt in ("--lib", "--output", "--expr", "--dir"):
        p.add_argument(opt, required=True)
    p.add_argument("--rtol", type=float, default=-1)
    p.add_argument("--atol", type=float, default=-1)
    p.add_argument("--target-rsd", type=float, default=0.02)
    p.add_argument("--budget", type=float, default=1.0)
    p.add_argument("--min-samples", type=int, default=10)
    p.add_argument("--max-samples", type=int, default=1000)
    p.add_argument("--cold", type=int, default=1)
    p.add_argument("--file-refs", action="store_true",
                   help="evaluate any expression (Note [known references])")
    a = p.parse_args()
    if not a.file_refs:
        # Decided before any library is imported or any input read.
        params = [n[3:-4] for n in os.listdir(a.dir)
                  if n.startswith("in_") and n.endswith(".npy")]
        with open(os.path.join(a.dir, "values.json")) as f:
            params += list(json.load(f))
        bad = unknown_part(a.lib, a.expr, params)
        if bad:
            emit(status="unavailable",
                 message="not run: the expression is the kernel file's own "
                 "Python (it has %s, beyond kern bench's known functions); "
                 "--file-refs runs it" % bad)
    try:
        np = import_lib("numpy")
    except Exception as e:  # noqa: BLE001 -- any import failure means unavailable
        emit(status="unavailable", message="numpy not importable (%s)" % e)
    arrays, values = load_inputs(a.dir, np)
    want = np.load(os.path.join(a.dir, "want_%s.npy" % a.output))
    try:
        ns, conv, device, timer, sync, to_np, ev, flush = setup(a.lib, arrays, values, np)
    except ImportError as e:
        emit(status="unavailable", message="%s not importable (%s)" % (a.lib, e))
    except Exception as e:  # noqa: BLE001 -- a library without a device
        emit(status="unavailable", message="%s: %s" % (a.lib, str(e).splitlines()[0] if str(e) else type(e).__name__))
    names = list(conv) + list(values)
    env = dict(ns)
    # "EXPR where NAME = SETUP": SETUP is evaluated once, before anything
    # is timed (building a CuPy ReductionKernel, say), and EXPR uses NAME.
    expr = a.expr
    m = re.match(r"^(.*?)\s+where\s+([A-Za-z_]\w*)\s*=\s*(.+)$", expr)
    try:
        if not a.file_refs:
            fn = known_function(ast.parse(expr, mode="eval"),
                                names, env)
        else:
            if m:
                expr = m.group(1)
                env[m.group(2)] = eval(m.group(3), env)
            fn = eval("lambda %s: %s" % (", ".join(names), expr), env)
    except SyntaxError as e:
        emit(status="failed", message="expression: %s" % e, device=device)
    except Exception as e:  # noqa: BLE001 -- the setup failed
        emit(status="failed", device=device,
             message="setup: %s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else ""))
    args = [conv[k] for k in conv] + [values[k] for k in values]
    if a.lib == "jax":
        # One trace, then the compiled function: what a JAX user times.
        import jax
        fn = jax.jit(fn)
    try:
        got = to_np(fn(*args))
        sync()
    except Exception as e:  # noqa: BLE001 -- report whatever the library says
        emit(status="failed", message="%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else ""), device=device)
    got = np.asarray(got, dtype=np.float64)
    w = np.asarray(want, dtype=np.float64)
    if got.size != w.size:
        emit(status="failed", device=device,
             message="the expression gives %d values where '%s' has %d" % (got.size, a.output, w.size))
    got = got.reshape(w.shape)
    dflt = 1e-5 if want.dtype == np.float32 else 1e-9 if want.dtype == np.float64 else 0.0
    rtol = a.rtol if a.rtol >= 0 else dflt
    atol = a.atol if a.atol >= 0 else 0.0
    diff = np.abs(got - w)
    rel = float(np.max(diff / np.where(w != 0, np.abs(w), 1.0))) if w.size else 0.0
    bad = ~(diff <= atol + rtol * np.abs(w))
    if bad.any():
        i = int(np.argmax(bad.reshape(-1)))
        emit(status="failed", device=device, max_rel_err=rel,
             message="'%s'[%d] = %.17g, the CPU backend gives %.17g (rtol %g, atol %g)"
             % (a.output, i, got.reshape(-1)[i], w.reshape(-1)[i], rtol, atol))

    def once(cold):
        if cold:
            flush()
            sync()
        if ev is not None:
            e0, e1 = ev(), ev()
            e0.record()
            fn(*args)
            e1.record()
            e1.synchronize()
            if a.lib == "torch":
                return e0.elapsed_time(e1) * 1e-3
            cp = import_lib("cupy")
            return cp.cuda.get_elapsed_time(e0, e1) * 1e-3
        t0 = time.perf_counter()
        r = fn(*args)
        if hasattr(r, "block_until_ready"):
            r.block_until_ready()
        sync()
        return time.perf_counter() - t0

    t0 = time.perf_counter()
    for _ in range(3):
        once(False)
        if time.perf_counter() - t0 > 0.1 * a.budget:
            break
    mod = sys.modules.get({"numpy": "numpy", "torch": "torch", "cupy": "cupy",
                           "jax": "jax", "warp": "warp"}[a.lib])
    version = "%s %s, numpy %s, python %s" % (
        a.lib, getattr(mod, "__version__", "?"), np.__version__,
        sys.version.split()[0])
    out = {"status": "ok", "message": "", "device": device, "timer": timer,
           "max_rel_err": rel, "version": version}
    for mode in ("hot", "cold"):
        if mode == "cold" and not a.cold:
            continue
        s = Sampler(a)
        while True:
            c0 = time.perf_counter()
            t = once(mode == "cold")
            if s.add(t, time.perf_counter() - c0):
                break
        out[mode], out[mode + "_stop"] = s.x, s.stop
    emit(**out)


if __name__ == "__main__":
    main()
