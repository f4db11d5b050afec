"""Cold kern.load of new files from Python, and the same through the C API in
this process (bench/python_timer.c's kpt_load_seconds, when --timer names
it), alternating: the cold-build figure of issue #14, separated from what
the machine adds.  With --touch GB, first writes and frees that much memory
in a child process, so that the guest's pages are backed before anything
is timed (a freshly booted VM backs each page on first touch, which NVRTC,
allocating ~100 MB a compile, pays on every new page it gets).
Usage: python3 exp/cold_load.py [--touch GB] [--timer libpython_timer.so]
       [--cuda-tier auto|nvrtc|ptx]
"""
import argparse, ctypes as C, os, statistics, subprocess, sys, tempfile, time

p = argparse.ArgumentParser()
p.add_argument("--touch", type=float, default=0)
p.add_argument("--timer")
p.add_argument("--n", type=int, default=7)
p.add_argument("--cuda-tier", default="auto", choices=["auto", "nvrtc", "ptx"],
               help="kern.init(cuda_tier=...): auto (default) starts on kern's "
               "PTX, nvrtc waits for NVRTC (Note [PTX tier])")
a = p.parse_args()
if a.touch:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c",
                    "import numpy as np; x = np.ones(int(%g * 2**30) // 8); print(x[-1])" % a.touch],
                   check=True, capture_output=True)
    print("touched %.0f GB in %.1f s" % (a.touch, time.perf_counter() - t0))
import kern  # noqa: E402

d = tempfile.mkdtemp()
t0 = time.perf_counter()
kern.init(cache_dir=tempfile.mkdtemp(), cuda_tier=a.cuda_tier)
dev = kern.get_device("cuda:0")
kern.zeros(1, device=dev).numpy()
print("context + device: %.1f ms" % (1e3 * (time.perf_counter() - t0)))
timer = None
if a.timer:
    timer = C.CDLL(a.timer)
    timer.kpt_load_seconds.restype = C.c_double
    timer.kpt_load_seconds.argtypes = [C.c_void_p, C.c_int, C.c_char_p]


SALT = int.from_bytes(os.urandom(3), "little")  # new to NVRTC's own cache too


def new_file(i):
    path = os.path.join(d, "c%d.py" % i)
    with open(path, "w") as f:
        f.write("import warp as wp\n\n@wp.kernel\ndef s%d(x: wp.array(dtype=wp.float32), "
                "y: wp.array(dtype=wp.float32)):\n    i = wp.tid()\n    y[i] = x[i] * %d.5 + %d.0\n"
                % (i, i, SALT))
    return path


py, cc = [], []
for i in range(a.n):
    path = new_file(2 * i)
    t0 = time.perf_counter()
    kern.load(path, device=dev)
    py.append(1e3 * (time.perf_counter() - t0))
    if timer:
        cc.append(1e3 * timer.kpt_load_seconds(kern._runtime.ctx(), dev.index,
                                               new_file(2 * i + 1).encode()))
print("Python kern.load of a new file: first %.1f ms, median %.1f ms (%s)"
      % (py[0], statistics.median(py), " ".join("%.0f" % x for x in py)))
if cc:
    print("C kern_module_load_file, same process: first %.1f ms, median %.1f ms (%s)"
          % (cc[0], statistics.median(cc), " ".join("%.0f" % x for x in cc)))
