#!/usr/bin/env python3
"""Writes tests/examples/expected/<example>.warp.<name>.npy: what real Warp
leaves in each checked array when it launches the example's `# kern-test:`
kernel, for the examples that have a `# kern-test-same:` line (same.sh
compares kern's results of both kernels with these).  Before saving, it
launches the `kern-test-same` kernel too and checks that Warp's own two
results agree within the `# kern-check:` tolerances.

    /opt/warpenv/bin/python tests/examples/make_warp_expected.py

Inputs are make_expected.py's (the SPECs of the kern-test line, drawn as
`kern run` draws them).  CI does not run this: the .npy files are committed.
"""
import os
import re
import shlex
import sys

import importlib.util
import numpy as np
import warp as wp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_expected as mx  # noqa: E402


def launch(mod, line, arrays):
    """Launches the kernel of a kern-test(-same) line on copies of arrays;
    returns them as Warp arrays."""
    toks = shlex.split(line)
    kernel = getattr(mod, toks[0])
    dims = tuple(int(d) for d in toks[toks.index("--dim") + 1].split(","))
    names = [a.label for a in kernel.adj.args]
    args = {n: wp.array(arrays[n].copy()) for n in names}
    if "--tiled" in toks:
        block = int(toks[toks.index("--block-dim") + 1])
        wp.launch_tiled(kernel, dim=dims, inputs=[args[n] for n in names], block_dim=block, device="cpu")
    else:
        wp.launch(kernel, dim=dims, inputs=[args[n] for n in names], device="cpu")
    wp.synchronize_device("cpu")
    return args


def main():
    wp.config.quiet = True
    wp.init()
    for path in sorted(os.listdir(mx.EXAMPLES)):
        if not path.endswith(".py"):
            continue
        text = open(os.path.join(mx.EXAMPLES, path)).read()
        same = re.search(r"^# kern-test-same: (.*)$", text, re.M)
        if not same:
            continue
        stem = path[:-3]
        test = re.search(r"^# kern-test: (.*)$", text, re.M).group(1)
        checks = [c.split() for c in re.findall(r"^# kern-check: (.*)$", text, re.M)]
        arrays, _ = mx.headers(stem)
        spec = importlib.util.spec_from_file_location("kern_example_" + stem, os.path.join(mx.EXAMPLES, path))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        first = launch(mod, test, arrays)
        second = launch(mod, same.group(1), arrays)
        for check in checks:
            name = check[0]
            opts = dict(o.split("=") for o in check[1:])
            a, b = first[name].numpy(), second[name].numpy()
            if not np.allclose(a, b, rtol=float(opts.get("rtol", 1e-5)), atol=float(opts.get("atol", 1e-6))):
                sys.exit("%s: Warp's %s differs between the two kernels" % (stem, name))
            out = os.path.join(mx.OUT, "%s.warp.%s.npy" % (stem, name))
            np.save(out, a)
            print("wrote", os.path.relpath(out, mx.ROOT), a.dtype, a.shape)


if __name__ == "__main__":
    main()
