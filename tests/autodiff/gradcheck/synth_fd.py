"""Finite-difference checks of autodiff on random kernels (issue #26).

usage: synth_fd.py KERN_TOOL N SEED [MAX_REFUSED_PERCENT]

Takes N kernels of `kern synth` (seed SEED, every category), rewrites each
into float64 (wp.float32 -> wp.float64, vecN/matNN/quat/transform -> their d types,
float(...) and float literals -> wp.float64(...), wp.randf wrapped), and
for each, at random float64 inputs (continuous, so the synth's exact
eighths' ties are gone):

  - builds the adjoint; a kernel the adjoint refuses is counted (with the
    construct, from the message) and skipped;
  - L = sum over the float arrays of <w, array after the launch>, w random;
  - the adjoint's <v, dL/dx> along a random direction v over the float
    input arrays must equal central differences (L(x + h v) - L(x - h v)) / 2h;
    (not for a kernel with break, continue or return in a loop: there the
    adjoint is Warp's jump, which is not the derivative, Note [adjoint
    jumps] in src/ir/adjoint.c, checked against Warp in tests/autodiff;
    it is still built and run, and such kernels are counted);
  - the tangent's <J v, w> (kern.jvp) must equal the same differences
    (a kernel whose tangent is refused, wp.atomic_min/max, is counted).

Where central differences with steps h and 4h disagree the kernel is not
smooth there (a kink of floor, clamp or a branch, or an ill-conditioned
expression such as the normalisation of a vector that cancels to
rounding noise): the point is drawn again, and a kernel not smooth at
three points is counted and skipped (at most a tenth of them).  A
mismatch is checked again at two fresh points; a kernel failing at all
three fails the test.
The test fails too when the adjoint refuses more than MAX_REFUSED_PERCENT
(default 35) of the kernels, or when any rewritten kernel fails to
compile (the rewrite would be incomplete).  Exit 77 without NumPy."""
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("skipped: no NumPy")
    sys.exit(77)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "python"))
import kern  # noqa: E402


def to_f64(src):
    s = src.replace("wp.float32", "wp.float64")
    s = re.sub(r"\bwp\.(vec[234]|mat22|mat33|mat44|quat|transform)\b", r"wp.\1d", s)
    s = re.sub(r"(:\s*|->\s*)float\b", r"\1wp.float64", s)
    s = re.sub(r"(?<![\w.])float\(", "wp.float64(", s)
    s = re.sub(r"(?<![\w.])(\d+\.\d*(?:[eE][-+]?\d+)?)", r"wp.float64(\1)", s)
    # wp.randf/randn take and give float32: their literals back, the call wrapped
    out, i = [], 0
    for m in re.finditer(r"wp\.rand[fn]\(", s):
        if m.start() < i:
            continue
        depth, j = 1, m.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(s[j], 0)
            j += 1
        call = re.sub(r"wp\.float64\(([-\d.eE+]+)\)", r"\1", s[m.start():j])
        out.append(s[i:m.start()] + "wp.float64(" + call + ")")
        i = j
    return "".join(out) + s[i:]


DT = {"float32": (kern.float64, ()), "int32": (kern.int32, ()),
      "vec3": (kern.vec3d, (3,)), "mat33": (kern.mat33d, (3, 3))}


class Kernel:
    def __init__(self, rec, mod, rng):
        self.rec = rec
        self.k = getattr(mod, rec["kernel"]["name"])
        self.dim = tuple(rec["launch"]["dims"])
        self.ins = {i["name"]: i for i in rec["inputs"]}
        self.rng = rng

    def draw(self):
        """Random inputs: a dict name -> numpy array or value."""
        self.vals = {}
        for p in self.k.params:
            i = self.ins[p.name]
            t, tail = DT[i["dtype"]] if i["dtype"] in DT else (None, ())
            shape = tuple(i.get("shape", ())) + tail
            if not p.is_array:
                v = i.get("value", 0)
                self.vals[p.name] = (float(v) + self.rng.uniform(-0.1, 0.1)
                                     if p.dtype.is_float else int(v))
            elif i["role"] == "output":
                a = np.full(shape, float(i.get("value", 0)))
                self.vals[p.name] = a.astype(np.int32) if t is kern.int32 else a
            elif t is kern.int32:
                self.vals[p.name] = self.rng.integers(-100, 101, shape).astype(np.int32)
            else:
                self.vals[p.name] = self.rng.uniform(-4, 4, shape)
        self.fl = [p.name for p in self.k.params if p.is_array and p.dtype.is_float]
        self.inputs = [n for n in self.fl if self.ins[n]["role"] == "input"]
        self.w = {n: self.rng.uniform(-1, 1, self.vals[n].shape) for n in self.fl}
        self.v = {n: self.rng.uniform(-1, 1, self.vals[n].shape) for n in self.inputs}

    def args(self, move=0.0):
        out = []
        for p in self.k.params:
            x = self.vals[p.name]
            if p.is_array:
                if move and p.name in self.v:
                    x = x + move * self.v[p.name]
                out.append(kern.array(x, dtype=p.dtype, device="cpu"))
            else:
                out.append(x)
        return out

    def loss(self, move=0.0):
        a = self.args(move)
        self.k(*a, dim=self.dim)
        return sum(float(np.sum(self.w[n] * x.numpy()))
                   for n, x in zip([p.name for p in self.k.params], a) if n in self.w), a

    def check(self, adj, tangent_ok, adjoint_exact=True):
        """None, or what disagreed."""
        h = 1e-6
        lp, _ = self.loss(h)
        lm, _ = self.loss(-h)
        fd = (lp - lm) / (2 * h)
        lp, _ = self.loss(4 * h)
        lm, _ = self.loss(-4 * h)
        fd4 = (lp - lm) / (8 * h)
        l0, a = self.loss()
        size = sum(float(np.sum(np.abs(self.w[n] * x.numpy())))
                   for n, x in zip([p.name for p in self.k.params], a) if n in self.w)
        if not abs(fd - fd4) <= 1e-5 * (1 + abs(fd)) + 1e-9 * size:
            return "noisy"  # differences at h and 4h disagree: not smooth here
        # the adjoint, after the forward launch, from adj_ = w
        extra = []
        for p in self.k.params:
            if p.is_array:
                extra.append(kern.array(self.w[p.name], dtype=p.dtype, device="cpu")
                             if p.name in self.w else None)
            else:
                extra.append(0.0 if p.dtype.is_float else 0)
        adj(*(a + extra), dim=self.dim)
        names = [p.name for p in self.k.params]
        gv = sum(float(np.sum(self.v[n] * extra[names.index(n)].numpy()))
                 for n in self.inputs)
        mag = sum(float(np.sum(np.abs(self.v[n] * extra[names.index(n)].numpy())))
                  for n in self.inputs)
        tol = 1e-6 * (1 + abs(fd) + mag) + 1e-9 * size
        why = []
        if adjoint_exact and not abs(gv - fd) <= tol:
            why.append("adjoint <v, g> = %.12g, differences %.12g" % (gv, fd))
        if tangent_ok:
            a = self.args()
            dts = {p.name: p.dtype for p in self.k.params}
            tans = {n: kern.array(self.v[n], dtype=dts[n], device="cpu")
                    for n in self.inputs}
            jv = kern.jvp(self.k, self.dim, a, tans)
            jvw = sum(float(np.sum(self.w[n] * jv[n].numpy())) for n in jv if n in self.w)
            if not abs(jvw - fd) <= tol:
                why.append("tangent <J v, w> = %.12g, differences %.12g" % (jvw, fd))
        return "; ".join(why) or None


def jumps_in_loop(src):
    """Whether a break, continue or return sits inside a for or while."""
    loops = []  # indentation of the enclosing loop headers
    for line in src.splitlines():
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        ind = len(line) - len(line.lstrip())
        while loops and ind <= loops[-1]:
            loops.pop()
        if loops and re.match(r"(break|continue|return)\b", text):
            return True
        if re.match(r"(for|while)\b", text):
            loops.append(ind)
    return False


def main():
    tool, n, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    bound = float(sys.argv[4]) if len(sys.argv) > 4 else 35.0
    tmp = tempfile.mkdtemp(prefix="kern_synth_fd")
    r = subprocess.run([tool, "synth", "-n", str(n), "--seed", str(seed), "-o", tmp,
                        "--validate", "none", "--quiet"], capture_output=True, text=True)
    if r.returncode:
        print("FAIL: kern synth: %s" % r.stderr)
        return 1
    with open(os.path.join(tmp, "pairs.jsonl")) as f:
        recs = [json.loads(line) for line in f]
    rng = np.random.default_rng(seed)
    refused, no_tangent, checked, failed, noisy = {}, 0, 0, [], []
    jumps = 0
    for rec in recs:
        src = to_f64(rec["source"]["warp"])
        name = rec["kernel"]["name"]
        try:
            mod = kern.load(src, device="cpu", name="%s.py" % name)
        except kern.CompileError as e:
            print("FAIL: %s: the float64 rewrite does not compile: %s\n%s" % (name, e, src))
            return 1
        k = Kernel(rec, mod, rng)
        has_jump = jumps_in_loop(src)
        try:
            adj = k.k.adjoint
        except kern.CompileError as e:
            m = re.search(r"autodiff of (.*?) is not supported", str(e))
            what = m.group(1) if m else str(e).splitlines()[0]
            refused[what] = refused.get(what, 0) + 1
            continue
        try:
            k.k.tangent
            tangent_ok = True
        except kern.CompileError:
            tangent_ok = False
            no_tangent += 1
        why = None
        for attempt in range(3):
            k.draw()
            if not k.inputs:
                break
            why = k.check(adj, tangent_ok, not has_jump)
            if why is None:
                break
        if why == "noisy":
            noisy.append(name)
            continue
        checked += 1
        jumps += has_jump
        if why:
            failed.append("%s (%s): %s" % (name, rec["category"], why))
    nref = sum(refused.values())
    print("synth_fd: %d kernels, %d checked, %d refused by the adjoint, %d without "
          "a tangent (atomic min/max), %d not smooth at three random points "
          "(finite differences at h and 4h disagree: %s)" % (
              len(recs), checked, nref, no_tangent, len(noisy), " ".join(noisy)))
    print("  %d of the checked kernels have break, continue or return: their "
          "adjoint is Warp's jump, only run" % jumps)
    for what, c in sorted(refused.items(), key=lambda x: -x[1]):
        print("  refused %3d: %s" % (c, what))
    for f in failed:
        print("FAIL: " + f)
    if failed:
        return 1
    if len(noisy) * 10 > len(recs):
        print("FAIL: more than a tenth of the kernels are not smooth at their "
              "random points: finite differences no longer check them")
        return 1
    if 100.0 * nref / max(1, len(recs)) > bound:
        print("FAIL: the adjoint refused %d of %d kernels, more than %g%%" %
              (nref, len(recs), bound))
        return 1
    print("synth_fd: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
