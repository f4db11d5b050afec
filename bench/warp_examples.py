"""Runs Warp's own examples (the copies installed with warp-lang) under
kern.warp with the one line ``import warp as wp`` changed to
``import kern.warp as wp``, and under Warp itself, on the CPU, and compares
a state array after a few steps (issue #25, "Show").  Needs a python3 with
warp-lang and NumPy (the examples' other ``import warp.*`` lines, such as
warp.render, load real Warp for names they do not use headless):

    PYTHONPATH=python python3 bench/warp_examples.py

Prints, per example, "agrees" with the largest difference, or the error
kern.warp raised (a refusal names the feature).  docs/python.md lists the
results."""
import os
import subprocess
import sys
import tempfile

# example, constructor call, step calls, state array to compare
CASES = [
    ("example_wave", "Example(stage_path=None)", "example.step()", 5, "sim_grid0"),
    ("example_fluid", "Example()", "example.step()", 3, "rho0"),
    ("example_graph_capture", "Example()", "example.step()", 3, "pixel_values"),
    ("example_fdtd_3d", "Example()", "example.step()", 3, "e_x"),
    ("example_raymarch", "Example(height=64, width=128)", "example.render()", 1, "pixels"),
    ("example_dem", "Example(stage_path=None)", "example.step()", 2, "x"),
    ("example_sph", "Example(stage_path=None)", "example.step()", 2, "x"),
    ("example_mesh", "Example(stage_path=None)", "example.step()", 2, "positions"),
    ("example_raycast", "Example()", "example.render()", 1, "pixels"),
]

RUN = r"""
import sys, importlib.util, numpy as np
spec = importlib.util.spec_from_file_location(sys.argv[1], sys.argv[2])
m = importlib.util.module_from_spec(spec)
sys.modules[sys.argv[1]] = m
spec.loader.exec_module(m)
wp = m.wp
wp.config.quiet = True
with wp.ScopedDevice("cpu"):
    example = eval("m." + sys.argv[3])
    for _ in range(int(sys.argv[5])):
        exec(sys.argv[4])
    wp.synchronize()
    np.save(sys.argv[7], getattr(example, sys.argv[6]).numpy())
"""


def main():
    import numpy as np
    import warp.examples
    src = os.path.join(os.path.dirname(warp.examples.__file__), "core")
    tmp = tempfile.mkdtemp()
    for name, ctor, step, n, attr in CASES:
        text = open(os.path.join(src, name + ".py")).read()
        res = {}
        for flavour, line in (("warp", "import warp as wp"),
                              ("kern", "import kern.warp as wp")):
            path = os.path.join(tmp, "%s_%s.py" % (name, flavour))
            with open(path, "w") as f:
                f.write(text.replace("\nimport warp as wp\n", "\n%s\n" % line, 1))
            out = os.path.join(tmp, "%s_%s.npy" % (name, flavour))
            env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
            r = subprocess.run([sys.executable, "-c", RUN, "%s_%s" % (name, flavour),
                                path, ctor, step, str(n), attr, out],
                               capture_output=True, text=True, env=env, timeout=900)
            if r.returncode:
                last = [l for l in r.stderr.splitlines() if l.strip()][-1:]
                res[flavour] = "error: " + (last[0] if last else "rc %d" % r.returncode)
            else:
                res[flavour] = np.load(out)
        w, k = res["warp"], res["kern"]
        if isinstance(w, str):
            print("%-22s Warp itself failed: %s" % (name, w))
        elif isinstance(k, str):
            print("%-22s kern.warp: %s" % (name, k))
        elif w.shape != k.shape:
            print("%-22s DIFFERS: shapes %s and %s" % (name, w.shape, k.shape))
        else:
            d = np.nanmax(np.abs(w.astype(np.float64) - k.astype(np.float64))) if w.size else 0.0
            scale = np.nanmax(np.abs(w.astype(np.float64))) if w.size else 0.0
            ok = np.allclose(k, w, rtol=1e-4, atol=1e-4 * max(scale, 1.0), equal_nan=True)
            print("%-22s %s after %d x %s: %s, max |difference| %.3g (max |value| %.3g)"
                  % (name, "agrees" if ok else "DIFFERS", n, step, attr, d, scale))


if __name__ == "__main__":
    main()
