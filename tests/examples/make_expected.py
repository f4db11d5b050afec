#!/usr/bin/env python3
"""Writes tests/examples/expected/<example>.<name>.npy: what each program in
examples/ must leave in each checked array, computed here with NumPy alone
(never with kern or Warp), so the examples are checked against an
independent reference.

    python3 tests/examples/make_expected.py

Inputs are rebuilt from the `# kern-test:` SPECs (zeros, ones, full, arange,
rand -- the SplitMix64 stream `kern run --help` documents), the kernel's
effect is written out in NumPy below, one function per example, and every
array named by a `# kern-check:` line is saved.  Headers come from the
example itself, or from tests/examples/headers/<stem>.txt when the example
has none.  CI does not run this: the .npy files are committed.
"""
import os
import re
import shlex
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXAMPLES = os.path.join(ROOT, "examples")
OUT = os.path.join(HERE, "expected")

SCALARS = {
    "bool": np.bool_, "int8": np.int8, "int16": np.int16, "int32": np.int32, "int": np.int32,
    "int64": np.int64, "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32,
    "uint64": np.uint64, "float32": np.float32, "float": np.float32, "float64": np.float64,
}


def elem(t):
    """(numpy dtype, trailing shape) of a Warp element type name."""
    t = t.replace("wp.", "")
    if t in SCALARS:
        return SCALARS[t], ()
    m = re.fullmatch(r"(vec|mat)([234])([234]?)([dif]?)", t)
    if not m:
        raise ValueError("unknown type " + t)
    kind, a, b, suf = m.groups()
    dt = {"": np.float32, "f": np.float32, "d": np.float64, "i": np.int32}[suf]
    if kind == "vec":
        return dt, (int(a),)
    return dt, (int(a), int(b))


def splitmix(seed, count):
    g = np.uint64(0x9E3779B97F4A7C15)
    with np.errstate(over="ignore"):
        z = np.uint64(seed) + np.arange(1, count + 1, dtype=np.uint64) * g
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return z


def make_array(spec):
    m = re.fullmatch(r"(\w+)\((.*)\)", spec)
    fn, parts = m.group(1), m.group(2).split(",")
    dt, tail = elem(parts[0])
    rest = parts[1:]
    if fn == "rand":
        seed = 0
        if rest and rest[-1].startswith("seed="):
            seed = int(rest.pop()[5:])
        shape = tuple(int(s) for s in rest) + tail
        z = splitmix(seed, int(np.prod(shape)))
        if dt in (np.float32, np.float64):
            v = (z >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
        elif dt is np.bool_:
            v = z & np.uint64(1)
        else:
            v = z % np.uint64(100)
        return v.astype(dt).reshape(shape)
    if fn == "full":
        shape = tuple(int(s) for s in rest[:-1]) + tail
        return np.full(shape, float(rest[-1])).astype(dt)
    shape = tuple(int(s) for s in rest) + tail
    if fn == "zeros":
        return np.zeros(shape, dt)
    if fn == "ones":
        return np.ones(shape, dt)
    if fn == "arange":
        return np.arange(int(np.prod(shape))).astype(dt).reshape(shape)
    raise ValueError(spec)


def headers(stem):
    text = open(os.path.join(EXAMPLES, stem + ".py")).read()
    if "# kern-test:" not in text:
        text = open(os.path.join(HERE, "headers", stem + ".txt")).read()
    test = re.search(r"^# kern-test: (.*)$", text, re.M).group(1)
    test = shlex.split(test)
    checks = [line.split()[0] for line in re.findall(r"^# kern-check: (.*)$", text, re.M)]
    args = {}
    for a in test[3:]:  # KERNEL --dim N, then options and NAME=SPEC
        if "=" not in a:
            continue  # --tiled, --block-dim N (its N has no '=' either)
        name, spec = a.split("=", 1)
        args[name] = make_array(spec) if "(" in spec else spec
    return args, checks


f32 = np.float32
f64 = np.float64


def c_div(p, q):  # C integer division: truncates toward zero
    return (np.sign(p) * np.sign(q) * (np.abs(p) // np.abs(q))).astype(p.dtype)


def saxpy(A):
    a = f32(float(A["a"]))
    A["y"] = (a * A["x"] + A["y"]).astype(f32)


def sum_of_squares(A):
    A["out"][0] = np.sum(A["x"] * A["x"])


def arithmetic(A):
    p = A["a"] - np.int32(50)
    q = A["b"] + np.int32(1)
    d = c_div(p, q)
    o = A["iout"]
    o[:, 0] = p + q
    o[:, 1] = p - q
    o[:, 2] = p * q
    o[:, 3] = d
    o[:, 4] = p // q                 # floor division
    o[:, 5] = p - d * q              # C remainder
    o[:, 6] = p & q
    o[:, 7] = p | q
    o[:, 8] = p ^ q
    o[:, 9] = q << 3
    o[:, 10] = p >> 2
    o[:, 11] = -p
    o[:, 12] = ~p
    y = A["x"] * f32(4) - f32(2)
    f = A["fout"]
    f[:, 0] = y + f32(1.5)
    f[:, 1] = y - f32(1.5)
    f[:, 2] = y * f32(3)
    f[:, 3] = y / f32(0.75)
    f[:, 4] = np.floor(y / f32(0.5))
    f[:, 5] = np.fmod(y, f32(0.75))
    f[:, 6] = y ** f32(2)


def math_functions(A):
    x = A["x"]
    v = x * 4.0 - 2.0
    p = x + 0.5
    cols = [np.abs(v), np.sign(v), np.sqrt(p), np.exp(v), np.log(p), np.log2(p), np.sin(v), np.cos(v),
            np.tan(v * 0.5), np.arctan2(v, p), np.tanh(v), np.power(p, v), np.floor(v), np.ceil(v),
            np.minimum(v, p), np.maximum(v, p), np.clip(v, -1.0, 1.0), v * 0.75 + p * 0.25]
    t = np.clip((v + 1.0) / 2.0, 0.0, 1.0)
    cols += [t * t * (3.0 - 2.0 * t), np.arcsin(x)]
    A["out"][:] = np.stack(cols, axis=1)


def vectors(A):
    u = A["a"] - f32(0.5)
    v = A["b"]
    A["d"][:] = np.sum(u * v, axis=1)
    A["c"][:] = np.cross(u, v)
    A["n"][:] = v / np.sqrt(np.sum(v * v, axis=1))[:, None]
    lu = np.sqrt(np.sum(u * u, axis=1))[:, None]
    A["s"][:] = u * f32(2) + v * lu + v[:, ::-1]


def matrices(A):
    rot = np.array([float(s) for s in A["rot"].split(",")], f32).reshape(3, 3)
    m, v = A["m"], A["v"]
    A["r"][:] = v @ rot.T
    A["t"][:] = np.einsum("nji,nj->ni", m, v) + m[:, 0, :]
    A["det"][:] = np.linalg.det(m.astype(f64))


def control_flow(A):
    for i, v in enumerate(A["n"]):
        v = int(v)
        A["cls"][i] = 1 if v < 25 else 2 if v < 50 else 3 if v < 75 else 4
        s = 0
        for k in range(1, v, 2):
            s += k
            if s > 500:
                break
        A["total"][i] = s
        x, count = v + 1, 0
        while x != 1:
            x = x // 2 if x % 2 == 0 else 3 * x + 1
            count += 1
        A["steps"][i] = count


def atomics(A):
    vals = A["values"]
    b = vals // 10
    A["bins"][:] = np.bincount(b, minlength=10)
    for k in range(10):
        sel = vals[b == k]
        if sel.size:
            A["binmax"][k] = max(A["binmax"][k], sel.max())
    A["largest"][0] = max(A["largest"][0], A["x"].max())


def tile_gemm(A):
    # C = A B, summed in float64 and rounded once (the check's rtol covers
    # float32 accumulation in any order)
    A["c"] = (A["a"].astype(np.float64) @ A["b"].astype(np.float64)).astype(f32)


def tile_reduce(A):
    # the sum in float64, rounded once (rtol covers float32 sums in any order)
    A["out"][0] = A["x"].astype(np.float64).sum()


def tile_stencil(A):
    # float32, added in the kernels' order: equal to the last bit
    x = A["x"]
    A["y"] = (x[:-2, 1:-1] + x[2:, 1:-1] + x[1:-1, :-2] + x[1:-1, 2:]) * f32(0.25)


EXAMPLES_TO_CHECK = [saxpy, sum_of_squares, arithmetic, math_functions, vectors, matrices, control_flow, atomics,
                     tile_gemm, tile_reduce, tile_stencil]


def main():
    os.makedirs(OUT, exist_ok=True)
    only = set(sys.argv[1:])
    for fn in EXAMPLES_TO_CHECK:
        stem = fn.__name__
        if only and stem not in only:
            continue
        args, checks = headers(stem)
        fn(args)
        for name in checks:
            path = os.path.join(OUT, "%s.%s.npy" % (stem, name))
            np.save(path, args[name])
            print("wrote", os.path.relpath(path, ROOT), args[name].dtype, args[name].shape)


if __name__ == "__main__":
    main()
