"""Loss curves of Warp's differentiable examples, under Warp and kern.warp.

Runs one of Warp 1.19's shipped optimisation examples, unmodified, with
small arguments and reads the loss it prints each iteration
("Iteration 00003 loss: 0.516831").  Three uses:

  curve.py check NAME [--device D] [--graphs]
      runs the example on kern.warp (python3 -m kern.warp) and compares
      its curve with the golden NAME.json recorded with real Warp 1.19 on
      the CPU (--graphs: through the example's CUDA-graph loop, graphs.py,
      on any device); exit 0 agrees, 1 differs, 77 skipped (no Warp example tree,
      no Pillow or NumPy, or the device is absent)
  curve.py record NAME
      runs it under real Warp (``import warp`` must give Warp) on the CPU
      and writes NAME.json
  curve.py compare NAME --device D [--warp-path DIR]
      runs it under real Warp (DIR first on PYTHONPATH) and under kern.warp
      on device D and compares the two curves

The example file is found in $KERN_WARP_DIR (a directory holding warp/),
/opt/kern-warp-1.19.0 (CI extracts the warp-lang 1.19.0 wheel there,
.ci/run) or an installed warp-lang (found without importing it).  See
README.md for the tolerance.
"""
import importlib.util
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))

# The examples and their small arguments (the device is added per run).
EXAMPLES = {
    "fluid_checkpoint": (
        "optim/example_fluid_checkpoint.py",
        ["--headless", "--num-frames", "6", "--segment-size", "3",
         "--pressure-iterations", "4", "--train-iters", "10"]),
    "fluid_checkpoint_custom_backward": (
        "optim/example_fluid_checkpoint_custom_backward.py",
        ["--headless", "--num-frames", "6", "--segment-size", "3",
         "--pressure-iterations", "4", "--train-iters", "10"]),
}

# Largest |kern - Warp| allowed at any iteration (README.md says why).
TOLERANCE = 3e-5

LINE = re.compile(r"^Iteration (\d+) loss: ([-+0-9.eEinfa]+)\s*$")


def skip(why):
    print("skipped: " + why)
    sys.exit(77)


def examples_dirs():
    """Candidate warp/examples directories, in order of preference."""
    cands = []
    if os.environ.get("KERN_WARP_DIR"):
        cands.append(os.environ["KERN_WARP_DIR"])
    cands.append("/opt/kern-warp-1.19.0")
    out = [os.path.join(c, "warp", "examples") for c in cands]
    spec = importlib.util.find_spec("warp")   # finds, does not import
    if spec is not None and spec.submodule_search_locations:
        out += [os.path.join(loc, "examples")
                for loc in spec.submodule_search_locations]
    return out


def example_file(name):
    """The example's path and arguments: from the first candidate holding
    both the example and its asset (assets/nvidia_logo.png)."""
    rel, args = EXAMPLES[name]
    tried = []
    for d in examples_dirs():
        path = os.path.join(d, rel)
        if (os.path.isfile(path)
                and os.path.isfile(os.path.join(d, "assets", "nvidia_logo.png"))):
            return path, args
        tried.append(d)
    skip("no Warp example tree with %s and assets/nvidia_logo.png (looked in "
         "%s): set KERN_WARP_DIR, extract the warp-lang 1.19.0 wheel into "
         "/opt/kern-warp-1.19.0 (.ci/run) or install warp-lang"
         % (rel, ", ".join(tried)))


def parse(out):
    return [float(m.group(2)) for m in map(LINE.match, out.splitlines()) if m]


def run(cmd, env, what):
    p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                       timeout=600)
    curve = parse(p.stdout)
    if p.returncode != 0 or not curve:
        sys.stderr.write(p.stdout[-4000:] + p.stderr[-4000:])
        sys.stderr.write("%s: exit %d, %d loss lines: %s\n"
                         % (what, p.returncode, len(curve), " ".join(cmd)))
        sys.exit(1)
    return curve


def kern_env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.join(REPO, "python")] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    return env


def run_kern(path, args, device, graphs=False):
    if graphs:      # the example's CUDA-graph loop, on any device (graphs.py)
        cmd = [sys.executable, os.path.join(HERE, "graphs.py"), path]
    else:
        cmd = [sys.executable, "-m", "kern.warp", path]
    return run(cmd + ["--device", device] + args, kern_env(), "kern.warp")


def compare(want, got, label):
    if len(want) != len(got):
        print("%s: %d iterations, the reference has %d" % (label, len(got), len(want)))
        return 1
    worst = 0.0
    print("iter  reference   kern.warp   |diff|")
    for i, (w, g) in enumerate(zip(want, got)):
        d = abs(w - g)
        worst = max(worst, d)
        print("%4d  %.6f  %.6f  %.1e%s" % (i, w, g, d, "  <-- over" if d > TOLERANCE else ""))
    drop_w, drop_g = want[0] - want[-1], got[0] - got[-1]
    print("%s: largest difference %.1e (tolerance %.0e); descent over the run "
          "%.6f (reference) vs %.6f (kern.warp)" % (label, worst, TOLERANCE, drop_w, drop_g))
    return 0 if worst <= TOLERANCE else 1


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=("check", "record", "compare"))
    ap.add_argument("name", choices=sorted(EXAMPLES))
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--warp-path", default=None,
                    help="compare: a directory whose warp/ is real Warp")
    ap.add_argument("--graphs", action="store_true",
                    help="check: run the example's CUDA-graph training loop "
                    "(capture, capture_launch) on the device (graphs.py)")
    a = ap.parse_args(argv)
    for mod in ("numpy", "PIL"):
        if importlib.util.find_spec(mod) is None:
            skip("the example needs %s (Debian: python3-%s)"
                 % (mod, "pil" if mod == "PIL" else "numpy"))
    golden = os.path.join(HERE, a.name + ".json")
    path, args = example_file(a.name)
    if a.mode == "record":
        cmd = [sys.executable, path, "--device", "cpu"] + args
        curve = run(cmd, dict(os.environ), "Warp")
        import warp
        rec = {"example": EXAMPLES[a.name][0], "warp_version": warp.__version__,
               "device": "cpu", "args": args, "loss": curve,
               "recorded_with": "python3 tests/autodiff/examples/curve.py record %s" % a.name}
        with open(golden, "w") as f:
            json.dump(rec, f, indent=1)
            f.write("\n")
        print("wrote %s: %d iterations" % (golden, len(curve)))
        return 0
    if a.mode == "check":
        sys.path.insert(0, os.path.join(REPO, "python"))
        import kern
        try:
            kern.get_device(a.device)
        except kern.Error as e:
            skip("device %s: %s" % (a.device, e))
        with open(golden) as f:
            rec = json.load(f)
        if rec["args"] != args:
            print("%s was recorded with %s, the check runs %s: record it again"
                  % (golden, rec["args"], args))
            return 1
        got = run_kern(path, args, a.device, a.graphs)
        return compare(rec["loss"], got, "%s%s on %s vs Warp %s cpu"
                       % (a.name, " (graphs)" if a.graphs else "", a.device,
                          rec["warp_version"]))
    env = dict(os.environ)
    if a.warp_path:
        env["PYTHONPATH"] = os.pathsep.join([a.warp_path] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    want = run([sys.executable, path, "--device", a.device] + args, env, "Warp")
    got = run_kern(path, args, a.device)
    return compare(want, got, "%s on %s, kern.warp vs Warp" % (a.name, a.device))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
