#!/usr/bin/env python3
"""Generate the expected outputs of the kern conformance suite with real Warp.

For every tests/conformance/*.py (or the files named on the command line) this
reads the `# kern-test:` and `# kern-check:` header lines, imports the file as a
module (so `if __name__ == "__main__":` blocks do not run), builds the launch
arguments exactly as `kern run` does (see README.md, "SPEC grammar"), launches
the kernel with Warp on device "cpu" and saves every checked array to
expected/<file-stem>.<NAME>.npy.

Usage:
    python3 tests/conformance/gen_expected.py            # all files
    python3 tests/conformance/gen_expected.py vec3_basic.py other.py
Exits non-zero (after printing the error) on the first failure.
"""

import importlib.util
import os
import re
import shlex
import sys
import traceback
import typing

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "expected")

import warp as wp  # noqa: E402

wp.config.quiet = True
wp.config.log_level = wp.LOG_WARNING if hasattr(wp, "LOG_WARNING") else 30
wp.init()

# --------------------------------------------------------------------------
# types

SCALARS = {
    "bool": (wp.bool, np.bool_),
    "int8": (wp.int8, np.int8),
    "int16": (wp.int16, np.int16),
    "int32": (wp.int32, np.int32),
    "int64": (wp.int64, np.int64),
    "uint8": (wp.uint8, np.uint8),
    "uint16": (wp.uint16, np.uint16),
    "uint32": (wp.uint32, np.uint32),
    "uint64": (wp.uint64, np.uint64),
    "float32": (wp.float32, np.float32),
    "float64": (wp.float64, np.float64),
    "float16": (wp.float16, np.float16),
    # NumPy has no bfloat16: the values are built as float32 and Warp
    # rounds them when it makes the array; outputs come back as bits.
    "bfloat16": (wp.bfloat16, np.float32),
    "int": (wp.int32, np.int32),
    "float": (wp.float32, np.float32),
}


def wp_type(name):
    """Warp type for a SPEC type name (scalar, vecN[d|i|...], matNN[d])."""
    if name in SCALARS:
        return SCALARS[name][0]
    # vecN / matRxC with Warp's suffixes: kern's short names for sizes
    # Warp has no alias of (wp.types.vector(length=5, ...))
    m = re.fullmatch(r"(vec)(\d+)([a-z]*)|(mat)(\d+)x(\d+)([a-z]*)", name)
    if m and not hasattr(wp, name):
        suffix = m.group(3) if m.group(1) else m.group(7)
        sc = getattr(wp, "vec2" + suffix, None)
        if sc is None:
            raise ValueError(f"unknown type name '{name}'")
        sc = sc._wp_scalar_type_
        if m.group(1):
            return wp.types.vector(length=int(m.group(2)), dtype=sc)
        return wp.types.matrix(shape=(int(m.group(5)), int(m.group(6))), dtype=sc)
    t = getattr(wp, name, None)
    if t is None and MODULE is not None:
        t = getattr(MODULE, name, None)  # a module's alias (mat22ui = wp.types.matrix(...))
    if t is None or not hasattr(t, "_wp_scalar_type_"):
        raise ValueError(f"unknown type name '{name}'")
    return t


def np_scalar_of(t):
    """numpy dtype of a Warp type's scalar component."""
    st = getattr(t, "_wp_scalar_type_", t)
    for _, (w, n) in SCALARS.items():
        if st is w:
            return n
    raise ValueError(f"no numpy dtype for {t}")


def dtype_shape(t):
    return tuple(getattr(t, "_shape_", ()))


# --------------------------------------------------------------------------
# rand(): splitmix64, exactly as specified in README.md

MASK64 = (1 << 64) - 1


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK64

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


def to_dtype(vals, npdt):
    """float16 goes through float32, as kern run rounds (the same value
    except at a double that lies on a float16 tie after rounding)."""
    if npdt == np.float16:
        return np.asarray(vals, dtype=np.float64).astype(np.float32).astype(np.float16)
    return np.asarray(vals).astype(npdt)


def rand_values(npdt, count, seed):
    g = SplitMix64(seed)
    if npdt == np.bool_:
        return np.array([g.next() & 1 for _ in range(count)], dtype=np.bool_)
    if np.issubdtype(npdt, np.floating):
        vals = np.array([float(g.next() >> 11) * 2.0**-53 for _ in range(count)], dtype=np.float64)
        return to_dtype(vals, npdt)
    return np.array([g.next() % 100 for _ in range(count)], dtype=np.int64).astype(npdt)


# --------------------------------------------------------------------------
# SPEC parsing

ARRAY_RE = re.compile(r"^(zeros|ones|full|arange|rand)\((.*)\)$")


def parse_number(s):
    s = s.strip()
    if s == "true":
        return True
    if s == "false":
        return False
    if re.fullmatch(r"[+-]?(0x[0-9a-fA-F]+|\d+)", s):
        return int(s, 0)
    return float(s)


def build_array(spec, ann, pname):
    m = ARRAY_RE.match(spec)
    kind, inner = m.group(1), m.group(2)
    parts = [p.strip() for p in inner.split(",")]
    tname = parts[0]
    rest = parts[1:]
    seed = 0
    if kind == "rand" and rest and rest[-1].startswith("seed="):
        seed = int(rest[-1][5:], 0)
        rest = rest[:-1]
    value = None
    if kind == "full":
        value = parse_number(rest[-1])
        rest = rest[:-1]
    dims = tuple(int(x) for x in rest)
    if not (1 <= len(dims) <= 4):
        raise ValueError(f"{pname}: array needs 1..4 dims, got {spec}")
    if kind == "arange" and len(dims) != 1:
        raise ValueError(f"{pname}: arange is 1-d only: {spec}")
    t = wp_type(tname)
    npdt = np_scalar_of(t)
    shape = dims + dtype_shape(t)
    count = int(np.prod(shape))
    if kind == "zeros":
        data = np.zeros(shape, dtype=npdt)
    elif kind == "ones":
        data = np.ones(shape, dtype=npdt)
    elif kind == "full":
        data = to_dtype(np.full(shape, value), npdt) if not isinstance(value, bool) else np.full(shape, value, dtype=npdt)
    elif kind == "arange":
        data = np.arange(count).astype(npdt).reshape(shape)
    else:
        data = rand_values(npdt, count, seed).reshape(shape)
    # check against the annotation
    if ann is not None:
        if not is_array_ann(ann):
            raise ValueError(f"{pname}: parameter is not an array but got {spec}")
        # a generic kernel's wp.array(dtype=Any) takes any element type
        if not wp.types.types_equal(ann.dtype, t) and ann.dtype is not typing.Any:
            raise ValueError(f"{pname}: dtype {wp.types.type_repr(ann.dtype)} != spec type {tname}")
        if ann.ndim != len(dims):
            raise ValueError(f"{pname}: ndim {ann.ndim} != spec dims {len(dims)}")
    arr = wp.array(data, dtype=t, device="cpu")
    if tuple(arr.shape) != dims:
        raise ValueError(f"{pname}: built shape {arr.shape} != {dims}")
    return arr


def is_indexed_ann(ann):
    """True for wp.indexedarray(...) and wp.indexedarray[T, N] annotations."""
    return "indexedarray" in type(ann).__name__.lower()


def build_indexed(spec, ann, pname):
    """indexed(DATA[;IDX0[;IDX1...]]) (src/cli/spec_indexed.c): the data array
    SPEC, then per dimension ':' (no index array), [i,j,...] or an int32
    array SPEC; the same wp.indexedarray kern run builds."""
    if not (spec.startswith("indexed(") and spec.endswith(")")):
        raise ValueError(f"{pname}: indexed array SPEC must be indexed(...), got {spec}")
    parts = [p.strip() for p in spec[len("indexed(") : -1].split(";")]
    data = build_array(parts[0], None, pname)
    if ann is not None:
        if (ann.dtype is not data.dtype and ann.dtype is not typing.Any) or ann.ndim != data.ndim:
            raise ValueError(f"{pname}: data array does not fit {ann}")
    if len(parts) - 1 > data.ndim:
        raise ValueError(f"{pname}: more index arrays than dimensions")
    indices = []
    for t in parts[1:]:
        if t == ":":
            indices.append(None)
        elif t.startswith("["):
            vals = [int(x, 0) for x in t[1:-1].split(",") if x.strip()]
            indices.append(wp.array(np.array(vals, dtype=np.int32), dtype=wp.int32, device="cpu"))
        else:
            indices.append(build_array(t, None, pname))
    return wp.indexedarray(data, indices)


def is_array_ann(ann):
    """True for wp.array(dtype=...) and for the subscript form wp.array[T]
    (an annotation object of its own class, not a wp.array instance)."""
    if isinstance(ann, wp.array):
        return True
    return type(ann).__name__ == "_ArrayAnnotation" or (
        hasattr(ann, "dtype") and hasattr(ann, "ndim") and "array" in type(ann).__name__.lower())


# --------------------------------------------------------------------------
# structs (src/cli/spec_struct.c has the same grammar and rules)


def is_struct(t):
    return isinstance(t, wp.codegen.Struct) if hasattr(wp, "codegen") else type(t).__name__ == "Struct"


def struct_leaves(st, prefix=""):
    """(dotted name, warp type) of the value fields of struct st, depth first,
    nested structs' fields in place of the struct, array fields left out."""
    out = []
    for name, var in st.vars.items():
        t = var.type
        full = prefix + name
        if type(t).__name__ == "Struct":
            out += struct_leaves(t, full + ".")
        elif is_array_ann(t):
            continue
        else:
            out.append((full, t))
    return out


def split_items(text):
    items, depth, cur = [], 0, ""
    for ch in text:
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    if cur.strip():
        items.append(cur)
    return items


def find_var(st, path):
    t = st
    for part in path.split("."):
        if type(t).__name__ != "Struct" or part not in t.vars:
            raise ValueError(f"struct has no field {path}")
        t = t.vars[part].type
    return t


def set_path(inst, path, value):
    parts = path.split(".")
    for p in parts[:-1]:
        inst = getattr(inst, p)
    setattr(inst, parts[-1], value)


def build_struct(spec, st, pname, extra, prefix="", inst=None):
    """{field=value,...} into an instance of struct st; array fields are
    also recorded in extra under 'pname.field' (for kern-check)."""
    spec = spec.strip()
    m = STRUCT_RE.match(spec)
    if m and prefix == "":
        # S{...}: the struct's name first, as kern run allows
        if m.group(1) != st.cls.__name__:
            raise ValueError(f"{pname}: {m.group(1)} is not the struct {st.cls.__name__}")
        spec = m.group(2)
    if not (spec.startswith("{") and spec.endswith("}")):
        raise ValueError(f"{pname}: struct SPEC must be {{...}}, got {spec}")
    if inst is None:
        inst = st()
    for item in split_items(spec[1:-1]):
        name, value = item.split("=", 1)
        path = prefix + name.strip()
        value = value.strip()
        t = find_var(st, path)
        if type(t).__name__ == "Struct":
            build_struct(value, st, pname, extra, path + ".", inst)
        elif is_indexed_ann(t):
            ia = build_indexed(value, t, f"{pname}.{path}")
            extra[f"{pname}.{path}"] = ia.data
            set_path(inst, path, ia)
        elif is_array_ann(t):
            arr = build_array(value, t, f"{pname}.{path}")
            extra[f"{pname}.{path}"] = arr
            set_path(inst, path, arr)
        else:
            v = value
            m = re.match(r"^(?:wp\.)?\w*\((.*)\)$", v)
            if m:
                v = m.group(1)
            set_path(inst, path, build_value(v, t, f"{pname}.{path}"))
    return inst


def build_struct_array(spec, ann, pname):
    m = ARRAY_RE.match(spec)
    kind, inner = m.group(1), m.group(2)
    parts = [p.strip() for p in inner.split(",")]
    st = ann.dtype
    if parts[0] != st.key.split(".")[-1] and parts[0] != st.cls.__name__:
        raise ValueError(f"{pname}: spec type {parts[0]} is not the struct")
    rest = parts[1:]
    seed = 0
    if kind == "rand" and rest and rest[-1].startswith("seed="):
        seed = int(rest[-1][5:], 0)
        rest = rest[:-1]
    dims = tuple(int(x) for x in rest)
    if kind not in ("zeros", "ones", "arange", "rand") or len(dims) != ann.ndim:
        raise ValueError(f"{pname}: bad struct array SPEC {spec}")
    data = np.zeros(dims, dtype=st.numpy_dtype())
    flat = data.reshape(-1)
    leaves = struct_leaves(st)
    g = SplitMix64(seed)
    counter = 0
    for e in range(flat.shape[0]):
        for path, t in leaves:
            rec = flat[e]
            parts = path.split(".")
            for p in parts[:-1]:
                rec = rec[p]
            npdt = np_scalar_of(t)
            n = int(np.prod(dtype_shape(t))) if dtype_shape(t) else 1
            vals = []
            for _ in range(n):
                if kind == "ones":
                    vals.append(1)
                elif kind == "arange":
                    vals.append(counter)
                    counter += 1
                elif kind == "rand":
                    z = g.next()
                    if npdt == np.bool_:
                        vals.append(z & 1)
                    elif np.issubdtype(npdt, np.floating):
                        vals.append(float(z >> 11) * 2.0**-53)
                    else:
                        vals.append(z % 100)
                else:
                    vals.append(0)
            if npdt == np.bool_:
                arr = np.array([v != 0 for v in vals], dtype=np.bool_)
            elif np.issubdtype(npdt, np.floating):
                arr = np.array(vals, dtype=np.float64).astype(npdt)
            else:
                arr = np.array(vals, dtype=np.uint64).astype(npdt)
            rec[parts[-1]] = arr.reshape(dtype_shape(t)) if dtype_shape(t) else arr[0]
    return wp.array(data, dtype=st, device="cpu")


# The module of the file being run: a generic kernel's struct SPEC
# (S{...}, zeros(S,N)) names its struct, looked up here.
MODULE = None

TYPED_RE = re.compile(r"^(?:wp\.)?(\w+)\((.*)\)$")
STRUCT_RE = re.compile(r"^(?:\w+\.)*(\w+)(\{.*\})$")


class _Ann:
    """An array annotation (dtype, ndim) for a struct array SPEC."""

    def __init__(self, dtype, ndim):
        self.dtype, self.ndim = dtype, ndim


def build_generic(spec, ann, pname, extra):
    """A typing.Any parameter's value, as the Python value wp.launch would
    get (src/cli/spec_generic.c types these SPECs the same way); None for the
    SPECs build_value handles."""
    if spec.endswith(".npy"):
        # wp.array(np.load(f)): the file's dtype and all its dimensions
        arr = wp.array(np.load(spec), device="cpu")
        if is_array_ann(ann) and ann.ndim != arr.ndim:
            raise ValueError(f"{pname}: ndim {ann.ndim} != file's {arr.ndim}")
        return arr
    m = STRUCT_RE.match(spec)
    if m and ann is typing.Any:
        return build_struct(m.group(2), getattr(MODULE, m.group(1)), pname, extra)
    m = ARRAY_RE.match(spec)
    if m and is_array_ann(ann):
        name = m.group(2).split(",")[0].strip().split(".")[-1]
        st = getattr(MODULE, name, None)
        if st is not None and type(st).__name__ == "Struct":
            return build_struct_array(spec, _Ann(st, ann.ndim), pname)
        return None
    m = TYPED_RE.match(spec)
    if m and ann is typing.Any:
        t = wp_type(m.group(1))
        comps = [parse_number(c) for c in m.group(2).split(",")]
        return t(*comps)
    return None


def build_value(spec, ann, pname, extra=None):
    if ann is typing.Any or (is_array_ann(ann) and ann.dtype is typing.Any):
        v = build_generic(spec, ann, pname, extra if extra is not None else {})
        if v is not None:
            return v
    if type(ann).__name__ == "Struct":
        return build_struct(spec, ann, pname, extra if extra is not None else {})
    if is_indexed_ann(ann):
        return build_indexed(spec, ann, pname)
    if ARRAY_RE.match(spec) and is_array_ann(ann) and type(ann.dtype).__name__ == "Struct":
        return build_struct_array(spec, ann, pname)
    if ARRAY_RE.match(spec):
        return build_array(spec, ann, pname)
    if is_array_ann(ann):
        raise ValueError(f"{pname}: array parameter needs an array SPEC, got {spec}")
    comps = [parse_number(c) for c in spec.split(",")]
    if ann is typing.Any:
        # a generic kernel's Any: the Python value, as wp.launch gets it
        if len(comps) != 1:
            raise ValueError(f"{pname}: an Any parameter takes one number")
        return comps[0]
    if wp.types.type_is_vector(ann) or wp.types.type_is_matrix(ann):
        n = int(np.prod(ann._shape_))
        if len(comps) != n:
            raise ValueError(f"{pname}: {n} components needed, got {len(comps)}")
        return ann(*comps)
    if len(comps) != 1:
        raise ValueError(f"{pname}: scalar parameter got {spec}")
    v = comps[0]
    if ann is wp.bool or ann is bool:
        if not isinstance(v, bool):
            raise ValueError(f"{pname}: bool parameter needs true/false")
        return v
    if ann in (int,):
        ann = wp.int32
    if ann in (float,):
        ann = wp.float32
    npdt = np_scalar_of(ann)
    if np.issubdtype(npdt, np.integer):
        if not isinstance(v, int):
            raise ValueError(f"{pname}: integer parameter got {spec}")
        return ann(v)
    return ann(float(v))


# --------------------------------------------------------------------------
# header parsing


def parse_header(path):
    tests, checks = [], []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("# kern-test:"):
                tests.append(line[len("# kern-test:") :].strip())
            elif line.startswith("# kern-check:"):
                checks.append(line[len("# kern-check:") :].strip())
    if len(tests) != 1:
        raise ValueError(f"expected exactly one '# kern-test:' line, found {len(tests)}")
    if not checks:
        raise ValueError("no '# kern-check:' line")
    toks = shlex.split(tests[0])
    kernel = toks[0]
    dims = None
    args = {}
    launch = {}
    i = 1
    while i < len(toks):
        t = toks[i]
        if t == "--dim":
            dims = tuple(int(x) for x in toks[i + 1].split(","))
            i += 2
            continue
        if t == "--block-dim":
            # wp.launch(..., block_dim=N)
            launch["block_dim"] = int(toks[i + 1])
            i += 2
            continue
        if t == "--adjoint":
            # kern run --adjoint (tests/autodiff/gen_expected.py runs a Tape)
            launch["adjoint"] = True
            i += 1
            continue
        if t == "--tiled":
            # wp.launch_tiled: block_dim appended to dim (1 on the CPU)
            launch["tiled"] = True
            i += 1
            continue
        if "=" not in t:
            raise ValueError(f"bad token '{t}'")
        k, v = t.split("=", 1)
        if k in args:
            raise ValueError(f"argument {k} given twice")
        args[k] = v
        i += 1
    if dims is None or not (1 <= len(dims) <= 4):
        raise ValueError("--dim with 1..4 sizes required")
    check_list = []
    for c in checks:
        ct = c.split()
        name = ct[0]
        opts = {}
        for o in ct[1:]:
            if o == "signed-zeros":
                # run.sh's npycmp --signed-zeros: nothing to do here
                opts[o] = True
                continue
            k, v = o.split("=")
            if k not in ("rtol", "atol"):
                raise ValueError(f"bad check option {o}")
            opts[k] = float(v)
        check_list.append((name, opts))
    return kernel, (dims, launch), args, check_list


# --------------------------------------------------------------------------


def do_launch(kernel, dims, launch, inputs):
    """wp.launch on the CPU, or wp.launch_tiled for --tiled, with the
    kern-test line's --block-dim."""
    kw = {}
    if "block_dim" in launch:
        kw["block_dim"] = launch["block_dim"]
    if launch.get("tiled"):
        wp.launch_tiled(kernel, dim=list(dims), inputs=inputs, device="cpu",
                        block_dim=kw.get("block_dim", 1))
    else:
        wp.launch(kernel, dim=dims, inputs=inputs, device="cpu", **kw)
    wp.synchronize_device("cpu")


def run_file(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    kname, (dims, launch), args, checks = parse_header(path)
    # run.sh evaluates the kern-test line with $DIR set to this directory
    args = {k: v.replace("$DIR", HERE) for k, v in args.items()}
    modname = "kern_conf_" + stem
    spec = importlib.util.spec_from_file_location(modname, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[modname] = mod
    spec.loader.exec_module(mod)
    global MODULE
    MODULE = mod
    kernel = getattr(mod, kname, None)
    if not isinstance(kernel, wp.Kernel):
        raise ValueError(f"no @wp.kernel named {kname}")
    params = [(a.label, a.type) for a in kernel.adj.args]
    pnames = [p for p, _ in params]
    extra = set(args) - set(pnames)
    if extra:
        raise ValueError(f"unknown arguments {sorted(extra)}")
    missing = [p for p in pnames if p not in args]
    if missing:
        raise ValueError(f"missing arguments {missing}")
    extra = {}
    values = {p: build_value(args[p], t, p, extra) for p, t in params}
    checked = dict(values)
    for p in checked:
        if isinstance(checked[p], wp.indexedarray):
            checked[p] = checked[p].data  # kern run prints and saves the data
    checked.update(extra)
    for name, _ in checks:
        if name not in checked or not isinstance(checked[name], wp.array):
            raise ValueError(f"kern-check {name} is not an array argument")
    os.makedirs(EXPECTED, exist_ok=True)
    with open(path) as f:
        want_stdout = any(line.startswith("# kern-stdout") for line in f)
    if want_stdout:
        # What the kernel prints (wp.print, wp.expect_*) goes to file
        # descriptor 1 from C; capture it there, around the launch only.
        import ctypes
        import tempfile
        libc = ctypes.CDLL(None)
        sys.stdout.flush()
        libc.fflush(None)
        saved = os.dup(1)
        with tempfile.TemporaryFile() as tmp:
            os.dup2(tmp.fileno(), 1)
            try:
                do_launch(kernel, dims, launch, [values[p] for p in pnames])
                libc.fflush(None)
            finally:
                os.dup2(saved, 1)
                os.close(saved)
            tmp.seek(0)
            text = tmp.read()
        with open(os.path.join(EXPECTED, f"{stem}.stdout"), "wb") as f:
            f.write(text)
    else:
        do_launch(kernel, dims, launch, [values[p] for p in pnames])
    summary = []
    for name, _ in checks:
        arr = checked[name].numpy()
        if getattr(checked[name].dtype, "_wp_scalar_type_", checked[name].dtype) is wp.bfloat16:
            # kern writes bfloat16 as 2-byte void ("|V2"): the same bits
            arr = arr.view(np.dtype("V2"))
        if arr.dtype.names is None and np.issubdtype(arr.dtype, np.floating) and not np.all(np.isfinite(arr)):
            summary.append(f"{name}{list(arr.shape)}!nonfinite")
        else:
            summary.append(f"{name}{list(arr.shape)}")
        np.save(os.path.join(EXPECTED, f"{stem}.{name}.npy"), arr)
    return f"{kname} dim={','.join(map(str, dims))} " + " ".join(summary)


def main(argv):
    if argv:
        files = [a if os.path.isabs(a) or os.path.exists(a) else os.path.join(HERE, a) for a in argv]
        files = [f if f.endswith(".py") else f + ".py" for f in files]
    else:
        files = sorted(
            os.path.join(HERE, f) for f in os.listdir(HERE) if f.endswith(".py") and f != os.path.basename(__file__)
        )
    for path in files:
        name = os.path.basename(path)
        try:
            msg = run_file(path)
        except Exception as e:  # noqa: BLE001
            traceback.print_exc()
            print(f"FAIL {name}: {type(e).__name__}: {e}", flush=True)
            sys.exit(1)
        print(f"ok   {name}: {msg}", flush=True)
    print(f"{len(files)} files ok")


if __name__ == "__main__":
    main(sys.argv[1:])
