"""warp_diff.py PAIRS.jsonl OUT.txt [BATCH] -- the Warp half of the random
differential test (issue #10): runs every kernel of a `kern synth` run
under real Warp on its CPU and writes, per kernel, whether Warp accepted it
and a digest of every output.  tests/synth/warp_diff_test.c reads the file
in CI, where there is no Warp, regenerates the same kernels and checks kern's
CPU backend and OpenCL against it.

Run by hand where Warp is installed (pip install warp-lang numpy), after a
generator change (docs/synth.md, "Differential test against Warp"):
  kern synth -n 2000 --seed 2026 -o /tmp/wd --targets cuda
  python3 tests/synth/warp_diff.py /tmp/wd/pairs.jsonl tests/synth/warp_diff_golden.txt

Warp compiles a module (a Python file) at once, so BATCH kernels (default
100) go into one file: twenty compilations instead of two thousand.  When a
batch fails to build, its kernels are tried one file each, so that only the
kernels Warp really rejects are recorded as rejected.

A digest of an output is five numbers over its values flattened to float64:
the sum of |x| and the sum of x * (i % 7 + 1) over the finite values (the
weights catch values that moved between elements), and how many are NaN,
+inf and -inf.  Integers are exact in both sums; floats are compared within
a tolerance in the test, which keeps the file small (about 300 KB for 2,000
kernels) while honouring rounding differences of inexact math.

Inputs are made exactly as kern synth makes them (synth_fill_input:
splitmix64), so both sides see the same bytes.
"""
import importlib.util, json, os, sys, tempfile, time
import numpy as np
import warp as wp

M = (1 << 64) - 1


def mix(x):
    x = (x + 0x9E3779B97F4A7C15) & M
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & M
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & M
    return x ^ (x >> 31)


def fill(seed, n, kind):
    s = seed
    out = []
    for _ in range(n):
        s = (s + 0x9E3779B97F4A7C15) & M
        r = mix(s)
        out.append(r % 201 - 100 if kind == "int" else (r % 65 - 32) / 8.0)
    return out


DT = {"float32": (wp.float32, 1), "int32": (wp.int32, 1), "vec3": (wp.vec3, 3),
      "mat33": (wp.mat33, 9)}


def digest(v):
    x = v.numpy().astype(np.float64).ravel()
    fin = np.isfinite(x)
    w = (np.arange(x.size) % 7 + 1).astype(np.float64)
    xf = np.where(fin, x, 0.0)
    return "%.17g:%.17g:%d:%d:%d" % (float(np.sum(np.abs(xf))), float(np.sum(xf * w)),
                                     int(np.sum(np.isnan(x))), int(np.sum(x == np.inf)),
                                     int(np.sum(x == -np.inf)))


def make_args(r):
    args = []
    for a in r["inputs"]:
        dt, w = DT[a["dtype"]]
        if a["role"] == "value":
            args.append(int(a["value"]) if a["dtype"] == "int32" else float(a["value"]))
            continue
        shape = tuple(a["shape"])
        n = int(np.prod(shape)) * w
        npt = np.int32 if a["dtype"] == "int32" else np.float32
        if a["role"] == "output":
            host = np.full(n, a["value"], dtype=npt)
        else:
            host = np.array(fill(a["seed"], n, "int" if a["dtype"] == "int32" else "f"), dtype=npt)
        host = host.reshape(shape + ((3,) if w == 3 else (3, 3) if w == 9 else ()))
        args.append(wp.array(host, dtype=dt, device="cpu"))
    return args


def run_one(mod, r):
    k = getattr(mod, r["kernel"]["name"])
    args = make_args(r)
    wp.launch(k, dim=tuple(r["launch"]["dims"]), inputs=args, device="cpu")
    wp.synchronize()
    return "ok " + " ".join("%s=%s" % (a["name"], digest(v))
                            for a, v in zip(r["inputs"], args) if a["role"] == "output")


def load(tmp, name, recs):
    """One Python module holding the kernels of recs; Warp builds it whole."""
    path = os.path.join(tmp, name + ".py")
    with open(path, "w") as f:
        f.write("import warp as wp\n")
        for r in recs:
            f.write(r["source"]["warp"].split("\n", 1)[1])
            f.write("\n")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    wp.load_module(mod, device="cpu")
    return mod


def why(e):
    return "rejected " + type(e).__name__ + ": " + " ".join(str(e).split())[:200]


def main():
    wp.config.quiet = True
    wp.init()
    recs = [json.loads(l) for l in open(sys.argv[1])]
    batch = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    tmp = tempfile.mkdtemp()
    status = {}
    t0 = time.time()
    for b in range(0, len(recs), batch):
        part = recs[b:b + batch]
        try:
            mod = load(tmp, "wd%d" % b, part)
        except Exception:
            mod = None
        for r in part:
            try:
                m = mod if mod is not None else load(tmp, "wd%d_%d" % (b, r["index"]), [r])
                status[r["index"]] = run_one(m, r)
            except Exception as e:  # a rejection is what this script records
                status[r["index"]] = why(e)
        print("%d/%d (%.0f s)" % (b + len(part), len(recs), time.time() - t0), file=sys.stderr)
    g = recs[0]["generator"]
    with open(sys.argv[2], "w") as f:
        f.write("# warp %s cpu; kern synth %s --seed %d -n %d --difficulty %d\n" %
                (wp.config.version, g["version"], g["seed"], len(recs), g["difficulty"]))
        for r in recs:
            f.write("%d %s %s\n" % (r["index"], r["id"], status[r["index"]]))
    ok = sum(s.startswith("ok") for s in status.values())
    print(ok, "of", len(recs), "accepted by Warp", wp.config.version)


main()
