#!/usr/bin/env python3
"""Generate the gradient goldens of the kern autodiff suite with real Warp.

Every tests/autodiff/*.py (or the files named on the command line) has the
conformance suite's header (tests/conformance/README.md) with the forward
parameters and, for each parameter P, adj_P=SPEC: the seed of P's gradient
(ones for an output whose gradient flows back, zeros for an input; a value
for a value parameter, which gets no gradient).  This runs what `kern run
FILE KERNEL --adjoint ...` runs, with Warp 1.19 on device "cpu": every
float array is made with requires_grad and its .grad set from its adj_
SPEC, the forward launch is recorded on a wp.Tape, tape.backward() runs
the adjoint, and each checked adj_P is saved as expected/<stem>.adj_P.npy
(the .grad of P after backward).  A --tiled file is launched with
wp.launch_tiled and the header's --block-dim (1 when not given).

Usage:
    python3 tests/autodiff/gen_expected.py              # all files
    python3 tests/autodiff/gen_expected.py arith.py
"""

import importlib.util
import os
import sys
import traceback

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "expected")

# The conformance generator's SPEC grammar, so both read the same headers.
_spec = importlib.util.spec_from_file_location(
    "kern_conf_gen", os.path.join(HERE, "..", "conformance", "gen_expected.py"))
conf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(conf)
wp = conf.wp


def is_float_array(v):
    dt = getattr(v.dtype, "_wp_scalar_type_", v.dtype)
    return isinstance(v, wp.array) and dt in (wp.float16, wp.bfloat16, wp.float32, wp.float64)


def is_struct_array(v):
    """An array of @wp.struct elements: its .grad is an array of the same
    structs, which Warp's adjoint fills field by field."""
    return isinstance(v, wp.array) and type(v.dtype).__name__ == "Struct"


def seed_fields(inst, extra, adj):
    """A struct parameter's float array fields get a .grad seeded from the
    same field of its adj_ SPEC, set again in the struct so that its
    descriptor carries the .grad (wp.Tape's adjoint struct holds them)."""
    for key, arr in extra.items():
        path = key.split(".", 1)[1]
        if not is_float_array(arr):
            continue
        arr.requires_grad = True
        seed = adj
        for part in path.split("."):
            seed = getattr(seed, part)
        arr.grad.assign(seed)
        conf.set_path(inst, path, arr)


def run_file(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    kname, (dims, _launch), args, checks = conf.parse_header(path)
    modname = "kern_ad_" + stem
    spec = importlib.util.spec_from_file_location(modname, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[modname] = mod
    spec.loader.exec_module(mod)
    conf.MODULE = mod
    kernel = getattr(mod, kname, None)
    if not isinstance(kernel, wp.Kernel):
        raise ValueError(f"no @wp.kernel named {kname}")
    params = [(a.label, a.type) for a in kernel.adj.args]
    want = [p for p, _ in params] + ["adj_" + p for p, _ in params]
    if sorted(want) != sorted(args):
        raise ValueError(f"the kern-test line must give exactly {want}")
    values = {}
    fields = {}  # "s.xs": a struct parameter's array field
    for p, t in params:
        extra = {}
        v = conf.build_value(args[p], t, p, extra)
        if type(t).__name__ == "Struct":
            seed_fields(v, extra, conf.build_value(args["adj_" + p], t, "adj_" + p, {}))
            fields.update(extra)
        if isinstance(v, wp.array) and v.dtype in (wp.float16, wp.bfloat16, wp.float32, wp.float64) or (
                isinstance(v, wp.array) and getattr(v.dtype, "_wp_scalar_type_", None) in (wp.float16, wp.bfloat16, wp.float32, wp.float64)) or (
                is_struct_array(v)):
            v.requires_grad = True
            seed = conf.build_value(args["adj_" + p], t, "adj_" + p, {})
            v.grad.assign(seed)
        values[p] = v
    tape = wp.Tape()
    with tape:
        inputs = [values[p] for p, _ in params]
        if _launch.get("tiled"):  # --tiled: wp.launch_tiled, its block_dim
            wp.launch_tiled(kernel, dim=list(dims), inputs=inputs, device="cpu",
                            block_dim=_launch.get("block_dim", 1))
        else:
            wp.launch(kernel, dim=dims, inputs=inputs, device="cpu")
    tape.backward()
    wp.synchronize_device("cpu")
    os.makedirs(EXPECTED, exist_ok=True)
    out = []
    for name, _ in checks:
        arr = values.get(name[4:], fields.get(name[4:]))
        if not name.startswith("adj_") or not isinstance(arr, wp.array):
            raise ValueError(f"kern-check {name}: not adj_ of an array parameter or field")
        g = arr.grad.numpy()
        if getattr(arr.dtype, "_wp_scalar_type_", arr.dtype) is wp.bfloat16:
            g = g.view(np.dtype("V2"))  # kern writes bfloat16 as "|V2": the same bits
        np.save(os.path.join(EXPECTED, f"{stem}.{name}.npy"), g)
        out.append(f"{name}{list(g.shape)}")
    return f"{kname} dim={','.join(map(str, dims))} " + " ".join(out)


def main(argv):
    if argv:
        files = [a if os.path.exists(a) else os.path.join(HERE, a) for a in argv]
    else:
        files = sorted(os.path.join(HERE, f) for f in os.listdir(HERE)
                       if f.endswith(".py") and f != os.path.basename(__file__))
    for path in files:
        # a file may set wp.config flags (misc_component_overwrite.py): they
        # hold for that file only
        config = {k: v for k, v in vars(wp.config).items() if not k.startswith("_")}
        try:
            msg = run_file(path)
        except Exception as e:  # noqa: BLE001
            traceback.print_exc()
            print(f"FAIL {os.path.basename(path)}: {type(e).__name__}: {e}", flush=True)
            sys.exit(1)
        finally:
            for k, v in config.items():
                setattr(wp.config, k, v)
        print(f"ok   {os.path.basename(path)}: {msg}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
