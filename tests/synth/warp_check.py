"""warp_check.py PAIRS.jsonl OUT.txt -- runs kern synth's kernels under real
Warp (CPU) and records, per pair, whether Warp accepted and ran it and how
far Warp's outputs are from kern's CPU backend.

This is run by hand where Warp is installed (pip install warp-lang numpy);
its output, tests/synth/warp_golden.txt, is checked in CI, which needs no
Warp: tests/synth/synth_test.sh regenerates the same pairs and checks that
their ids are those Warp accepted, and tests/synth/warp_golden_test.c runs
every kernel on kern's CPU backend and compares its outputs' digests with
Warp's.

Regenerate (after a generator change):
  kern synth -n 100 --seed 13 -o /tmp/w --targets cuda
  python3 tests/synth/warp_check.py /tmp/w/pairs.jsonl tests/synth/warp_golden.txt

Inputs are made exactly as kern synth makes them (synth_fill_input:
splitmix64), so both sides see the same bytes.
"""
import importlib.util, json, os, sys, tempfile
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


DT = {"float32": (wp.float32, 1), "int32": (wp.int32, 1), "vec3": (wp.vec3, 3), "mat33": (wp.mat33, 9)}


def main():
    wp.config.quiet = True
    wp.init()
    recs = [json.loads(l) for l in open(sys.argv[1])]
    tmp = tempfile.mkdtemp()
    lines = []
    for r in recs:
        name = r["kernel"]["name"]
        path = os.path.join(tmp, name + ".py")
        open(path, "w").write(r["source"]["warp"])
        status = "ok"
        try:
            spec = importlib.util.spec_from_file_location(name, path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            k = getattr(mod, name)
            args = []
            for a in r["inputs"]:
                dt, w = DT[a["dtype"]]
                if a["role"] == "value":
                    args.append(int(a["value"]) if a["dtype"] == "int32" else float(a["value"]))
                    continue
                shape = tuple(a["shape"])
                n = int(np.prod(shape)) * w
                if a["role"] == "output":
                    host = np.full(n, a["value"], dtype=np.int32 if a["dtype"] == "int32" else np.float32)
                else:
                    host = np.array(fill(a["seed"], n, "int" if a["dtype"] == "int32" else "f"),
                                    dtype=np.int32 if a["dtype"] == "int32" else np.float32)
                if w == 3:
                    host = host.reshape(shape + (3,))
                elif w == 9:
                    host = host.reshape(shape + (3, 3))
                else:
                    host = host.reshape(shape)
                args.append(wp.array(host, dtype=dt, device="cpu"))
            wp.launch(k, dim=tuple(r["launch"]["dims"]), inputs=args, device="cpu")
            wp.synchronize()
            # Two digests per output, as tests/synth/warp_golden_test.c
            # computes them from kern's CPU backend: the sum of |x| and the
            # sum of x * (i % 7 + 1) over the flattened float64 values (the
            # weights catch values that moved between elements).
            digest = []
            for a, v in zip(r["inputs"], args):
                if a["role"] == "output":
                    x = v.numpy().astype(np.float64).ravel()
                    w = (np.arange(x.size) % 7 + 1).astype(np.float64)
                    digest.append("%s=%.17g:%.17g" % (a["name"], float(np.sum(np.abs(x))),
                                                      float(np.sum(x * w))))
            status = "ok " + " ".join(digest)
        except Exception as e:  # a rejection is what this script records
            status = "rejected " + type(e).__name__ + ": " + str(e).replace("\n", " ")[:200]
        lines.append("%s %s %s" % (r["index"], r["id"], status))
    open(sys.argv[2], "w").write("\n".join(lines) + "\n")
    print(sum(l.split()[2] == "ok" for l in lines), "of", len(lines), "accepted by Warp", wp.config.version)


main()
