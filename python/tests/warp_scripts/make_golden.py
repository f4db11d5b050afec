"""Records the golden outputs of the kern.warp drop-in scripts with real
Warp on the CPU (python/tests/test_warp_dropin.py compares kern against
them).  Run with a python3 that has warp-lang and NumPy:

    python3 python/tests/warp_scripts/make_golden.py

Each script here is run with its one line ``import kern.warp as wp``
changed to ``import warp as wp``, in a fresh process with no CUDA device
visible, and its RESULT dict is written to golden.json with the Warp
version, the date and the machine."""
import datetime
import json
import os
import platform
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = sorted(f for f in os.listdir(HERE)
                 if f.endswith(".py") and f != "make_golden.py")
IMPORT = "import kern.warp as wp"

RUNNER = r"""
import json, runpy, sys
import warp as wp
wp.config.quiet = True
g = runpy.run_path(sys.argv[1], run_name="__main__")
print("RESULT=" + json.dumps(g["RESULT"]))
"""


def warp_text(path):
    text = open(path).read()
    if text.count(IMPORT) != 1:
        raise SystemExit("%s: expected exactly one '%s' line" % (path, IMPORT))
    return text.replace(IMPORT, "import warp as wp")


def run_warp(name, tmpdir, python=None):
    tmp = os.path.join(tmpdir, name)
    with open(tmp, "w") as f:
        f.write(warp_text(os.path.join(HERE, name)))
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", WARP_CACHE_PATH=os.path.join(tmpdir, "cache"))
    out = subprocess.run([python or sys.executable, "-c", RUNNER, tmp], env=env,
                         capture_output=True, text=True, check=True).stdout
    line = [l for l in out.splitlines() if l.startswith("RESULT=")][-1]
    return json.loads(line[len("RESULT="):])


def main():
    import tempfile
    import warp
    golden = {"warp_version": warp.__version__, "device": "cpu",
              "made": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%MZ"),
              "machine": "%s, %s" % (platform.machine(), platform.processor() or platform.node()),
              "scripts": {}}
    with tempfile.TemporaryDirectory() as d:
        for name in SCRIPTS:
            golden["scripts"][name] = run_warp(name, d)
            print("recorded", name)
    with open(os.path.join(HERE, "golden.json"), "w") as f:
        json.dump(golden, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
