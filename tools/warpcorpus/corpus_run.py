#!/usr/bin/env python3
"""Run a sample of Warp's corpus kernels under real Warp (CPU) and kern (CPU).

The second half of issue #10's corpus measure (corpus.py is the first):
of the kernels in Warp's tests and examples that kern compiles, a seeded
random sample is launched under Warp and under `kern run` on the same
inputs, and every array argument is compared after the launch with the
conformance suite's tolerances (tests/conformance/README.md: integers and
bools exactly, float32 rtol 1e-5 atol 1e-6, float64 rtol 1e-12 atol 1e-14,
float16 rtol 1e-3, bfloat16 bit for bit; NaN equals NaN).  Run by hand where warp-lang is
installed, never in CI; Warp's files come from a fetched copy (see
corpus.py's docstring for getting it).

    python3 tools/warpcorpus/corpus_run.py /tmp/warpsrc/warp build/kern [--sample 200]

Inputs are made from the kernel's signature as Warp reports it: arrays of a
fixed generous size (64, 16x16, 8x8x8, 4x4x4x4 elements) filled by a seeded
generator -- integers from 0 to 3 so that values used as indices stay in
bounds, floats from -1 to 1 -- scalars fixed (int 3, float 0.5, bool True),
and a launch of 8 threads.  A kernel is skipped, and counted by the reason,
when its inputs cannot be built that way (structs, generic parameters,
vectors by value), when Warp cannot import or launch it, when kern does not
compile it, and when kern's bounds checks find an access outside the arrays
(the inputs did not suit the kernel).  kern runs with one thread, as Warp's
CPU backend does, so kernels in which threads race for one element give one
answer.

With --include tiles (corpus.py's option, and --included-only), tile kernels
are launched as Warp launches them: `wp.launch_tiled(k, dim=GRID,
block_dim=64)` under Warp and `kern run --tiled --block-dim 64` under kern;
see Note [tiled launches].
"""
import argparse
import ast
import collections
import importlib.util
import os
import random
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus  # noqa: E402

DIM = 8
SHAPES = {1: (64,), 2: (16, 16), 3: (8, 8, 8), 4: (4, 4, 4, 4)}

# Note [tiled launches]: a tile kernel runs one block per grid point;
# launch_tiled appends the block to the grid, so a kernel whose wp.tid()
# has n results gets a grid of n-1 dimensions (1 when it has one result or
# none).  On the CPU both Warp and kern run a block as one thread, whatever
# block_dim is asked (Note [block_dim] in src/runtime/module.c), so the
# same block size given to both means the same work.  Tile loads take
# fixed shapes (often 16 to 64 a side) from an offset made of the block's
# index, so the arrays are larger than for other kernels and the grid has
# 2 blocks a dimension; tile loads and stores outside an array are clipped
# by both.  A kernel that indexes its arrays by its own means may still
# step outside them: kern's bounds check then skips it, as for any kernel.
TILE_SHAPES = {1: (256,), 2: (32, 32), 3: (16, 16, 16), 4: (8, 8, 8, 8)}
TILE_BLOCK = 64
TILE_GRID = 2


class Skip(Exception):
    pass


def scalar_np(wp, t):
    try:
        return np.dtype(wp.dtype_to_numpy(t))
    except Exception:
        raise Skip("inputs: element type %s" % getattr(t, "__name__", t))


def make_input(wp, rng, t, shapes=SHAPES):
    """(Warp value, kern SPEC or numpy array, numpy dtype) for type t, its
    arrays of the shapes of `shapes` (by dimension count)."""
    if wp.types.is_array(t):
        kind = type(t).__name__.lower()
        if "fabric" in kind or "tile" in kind:
            raise Skip("inputs: %s" % type(t).__name__)
        if "indexed" in kind:
            # a data array of the usual shape seen through a random
            # permutation of each axis (kern run's indexed(DATA;IDX...))
            plain = wp.array(dtype=t.dtype, ndim=t.ndim)
            arr, data, npdt = make_input(wp, rng, plain, shapes)
            idx = [rng.permutation(n).astype(np.int32) for n in shapes[t.ndim]]
            warr = wp.indexedarray(arr, [wp.array(i, dtype=wp.int32, device="cpu") for i in idx])
            return warr, ("indexed", data, idx), npdt
        dt = t.dtype
        if dt is typing_any() or getattr(dt, "cls", None) is not None:
            raise Skip("inputs: struct or generic element type")
        inner = ()
        sc = dt
        if hasattr(dt, "_wp_scalar_type_"):
            sc = dt._wp_scalar_type_
            inner = tuple(dt._shape_)
        npdt = scalar_np(wp, sc)
        shape = shapes[t.ndim] + inner
        if sc is getattr(wp, "bfloat16", None):
            # Warp holds bfloat16 as raw uint16 bits; kern reads them from
            # a .npy of dtype |V2 (tests/conformance/README.md)
            f = rng.uniform(-1.0, 1.0, size=shape).astype(np.float32).view(np.uint32)
            bits = ((f + 0x7FFF + ((f >> 16) & 1)) >> 16).astype(np.uint16)
            arr = wp.array(bits, dtype=dt, shape=shapes[t.ndim], device="cpu")
            return arr, bits.view("V2"), np.dtype("V2")
        if npdt.kind == "b":
            data = rng.integers(0, 2, size=shape).astype(bool)
        elif npdt.kind in "iu":
            data = rng.integers(0, 4, size=shape).astype(npdt)
        else:
            data = rng.uniform(-1.0, 1.0, size=shape).astype(npdt)
        arr = wp.array(data, dtype=dt, shape=shapes[t.ndim], device="cpu")
        return arr, data, npdt
    if t in (int, wp.int32, wp.int64, wp.int16, wp.int8, wp.uint32, wp.uint64, wp.uint8, wp.uint16):
        return 3, "3", None
    if t in (float, wp.float32, wp.float64):
        return 0.5, "0.5", None
    if t in (bool, wp.bool):
        return True, "true", None
    raise Skip("inputs: parameter of type %s" % getattr(t, "__name__", t))


def typing_any():
    import typing

    return typing.Any


def tolerance(npdt):
    if npdt.kind in "biuV":
        return 0.0, 0.0
    if npdt == np.float16:
        return 1e-3, 1e-3
    if npdt == np.float64:
        return 1e-12, 1e-14
    return 1e-5, 1e-6


def agree(a, b, npdt):
    if a.shape != b.shape:
        return False
    rtol, atol = tolerance(npdt)
    if rtol == 0.0:
        return np.array_equal(a, b)
    a = a.astype(np.float64)
    b = b.astype(np.float64)
    return bool(np.all(np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True)))


def tid_results(source, name):
    """How many results the kernel's wp.tid() calls have (the most of
    them; 0 when it has none)."""
    n = 0
    for f in ast.walk(ast.parse(source)):
        if isinstance(f, ast.FunctionDef) and f.name == name:
            for node in ast.walk(f):
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                    fn = node.value.func
                    if isinstance(fn, ast.Attribute) and fn.attr == "tid":
                        tgt = node.targets[0]
                        n = max(n, len(tgt.elts) if isinstance(tgt, ast.Tuple) else 1)
    return n


def run_one(wp, k, kern, tmp, idx, seed):
    path = os.path.join(tmp, "m%d.py" % idx)
    with open(path, "w") as f:
        f.write(k.source)
    try:
        spec = importlib.util.spec_from_file_location("kern_corpus_m%d" % idx, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        kernel = getattr(mod, k.name)
        args = kernel.adj.args
    except Skip:
        raise
    except Exception as e:
        raise Skip("Warp cannot import it (%s)" % type(e).__name__)
    rng = np.random.default_rng(seed + idx)
    tiled = k.exclusion_was == "tiles"
    if tiled:
        grid = [TILE_GRID] * max(1, tid_results(k.source, k.name) - 1)
    wargs, specs, arrays = [], [], []
    for a in args:
        v, s, npdt = make_input(wp, rng, a.type, TILE_SHAPES if tiled else SHAPES)
        wargs.append(v)
        if isinstance(s, tuple):  # an indexed array: its data, its indices
            inp = os.path.join(tmp, "m%d_%s_in.npy" % (idx, a.label))
            np.save(inp, s[1])
            parts = [inp]
            for d, ix in enumerate(s[2]):
                ip = os.path.join(tmp, "m%d_%s_i%d.npy" % (idx, a.label, d))
                np.save(ip, ix)
                parts.append(ip)
            specs.append("%s=indexed(%s)" % (a.label, ";".join(parts)))
            arrays.append((a.label, len(wargs) - 1, npdt))
        elif npdt is not None:
            inp = os.path.join(tmp, "m%d_%s_in.npy" % (idx, a.label))
            np.save(inp, s)
            specs.append("%s=%s" % (a.label, inp))
            arrays.append((a.label, len(wargs) - 1, npdt))
        else:
            specs.append("%s=%s" % (a.label, s))
    if not arrays:
        raise Skip("no array to compare")
    wp.config.quiet = True  # a test module may have changed it
    try:
        if tiled:
            wp.launch_tiled(kernel, dim=grid, inputs=wargs, block_dim=TILE_BLOCK, device="cpu")
        else:
            wp.launch(kernel, dim=DIM, inputs=wargs, device="cpu")
        wp.synchronize_device("cpu")
    except Exception as e:
        raise Skip("Warp cannot launch it (%s)" % type(e).__name__)
    saves = []
    for label, _, _ in arrays:
        saves += ["--save", "%s=%s" % (label, os.path.join(tmp, "m%d_%s_out.npy" % (idx, label)))]
    cmd = [kern, "run", path, k.name, "--dim", str(DIM), "--threads", "1", "--quiet"]
    if tiled:
        cmd[4:6] = ["--dim", ",".join(map(str, grid)), "--tiled", "--block-dim", str(TILE_BLOCK)]
    cmd += specs + saves
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "differ", "kern timed out"
    if r.returncode != 0:
        err = r.stderr.strip().splitlines()
        msg = err[0] if err else "exit %d" % r.returncode
        if "out of bounds" in r.stderr or "outside" in r.stderr:
            raise Skip("kern's bounds check: the inputs do not suit the kernel")
        if "error:" in r.stderr and ("compile" in r.stderr or ".py:" in r.stderr):
            raise Skip("kern does not compile it")
        return "differ", "kern run failed: " + msg[:160]
    for label, i, npdt in arrays:
        got = np.load(os.path.join(tmp, "m%d_%s_out.npy" % (idx, label)))
        w = wargs[i]
        want = (w.data if isinstance(w, wp.indexedarray) else w).numpy()
        if npdt.kind == "V":  # bfloat16: bit for bit
            got, want, npdt = got.view(np.uint16), want.view(np.uint16), np.dtype(np.uint16)
        if want.dtype != got.dtype and npdt.kind != "b":
            got = got.astype(want.dtype)
        if not agree(want, got.reshape(want.shape) if got.size == want.size else got, npdt):
            return "differ", "array '%s' differs" % label
    return "agree", ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("kern")
    ap.add_argument("--sample", type=int, default=200, help="kernels to compare")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--include", action="append", default=[],
                    help="take the kernels of this exclusion (e.g. tiles) too, as corpus.py does")
    ap.add_argument("--included-only", action="store_true",
                    help="with --include: take only the kernels of those exclusions")
    args = ap.parse_args()
    kern = os.path.abspath(args.kern)

    import warp as wp

    wp.config.quiet = True
    wp.init()

    kernels = []
    for root, _, names in os.walk(args.dir):
        for n in sorted(names):
            if n.endswith(".py"):
                p = os.path.join(root, n)
                try:
                    with open(p, encoding="utf-8") as f:
                        kernels += corpus.find_kernels(p, f.read())
                except Exception:
                    pass
    kernels = corpus.select(kernels, args.include, args.included_only)
    kernels.sort(key=lambda k: (k.path, k.line))
    random.Random(args.seed).shuffle(kernels)

    results = collections.Counter()
    skips = collections.Counter()
    rows = []
    tmp = tempfile.mkdtemp(prefix="kern-corpus-run-")
    tried = 0
    for idx, k in enumerate(kernels):
        if results["agree"] + results["differ"] >= args.sample:
            break
        tried += 1
        try:
            res, why = run_one(wp, k, kern, tmp, idx, args.seed)
        except Skip as s:
            skips[str(s)] += 1
            rows.append((k, "skipped", str(s)))
            continue
        except Exception as e:  # never stop the sample on one odd kernel
            skips["the harness failed (%s)" % type(e).__name__] += 1
            rows.append((k, "skipped", repr(e)[:160]))
            continue
        results[res] += 1
        rows.append((k, res, why))
    rel = lambda p: os.path.relpath(p, args.dir)
    n = results["agree"] + results["differ"]
    print("Sample: %d kernels tried (seed %d), %d compared, %d skipped" % (tried, args.seed, n, sum(skips.values())))
    print("Skipped, by reason:")
    for why, c in skips.most_common():
        print("  %4d  %s" % (c, why))
    print("Differ:")
    for k, res, why in rows:
        if res == "differ":
            print("  %s:%d %s: %s" % (rel(k.path), k.line, k.name, why))
    if n:
        print("Agree: %d of %d compared (%.1f%%)" % (results["agree"], n, 100.0 * results["agree"] / n))
    if args.list:
        for k, res, why in rows:
            print("%s:%d %s: %s %s" % (rel(k.path), k.line, k.name, res, why))


if __name__ == "__main__":
    main()
