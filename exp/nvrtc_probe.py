import ctypes as C, time, statistics, sys
nv = C.CDLL("/usr/local/cuda/lib64/libnvrtc.so")
src = open("exp/nvrtc_scale.cu", "rb").read()
opts = [b"--gpu-architecture=sm_90", b"-default-device", b"--std=c++17", b"-lineinfo", b"--fmad=false"]
def comp():
    p = C.c_void_p(); nv.nvrtcCreateProgram(C.byref(p), src, b"k.cu", 0, None, None)
    o = (C.c_char_p * 5)(*opts)
    t = time.perf_counter(); r = nv.nvrtcCompileProgram(p, 5, o); t = time.perf_counter() - t
    nv.nvrtcDestroyProgram(C.byref(p)); return 1e3 * t
def show(what):
    print("%-40s %s" % (what, " ".join("%.0f" % comp() for _ in range(4))), flush=True)
show("plain")
import numpy
show("after import numpy")
import kern
show("after import kern")
kern.init()
dev = kern.get_device("cuda:0")
show("after get_device")
kern.zeros(1, device=dev).numpy()
show("after zeros (CUDA context)")
m = kern.load("import warp as wp\n@wp.kernel\ndef k(x: wp.array(dtype=float)):\n    x[wp.tid()] = 1.0\n", device=dev)
show("after kern.load")
import threading
print("threads:", threading.active_count(), flush=True)
import os
print(open("/proc/self/status").read().split("Threads:")[1].split("\n")[0])

# The same text three ways, alternating, for new kernels: NVRTC called
# directly on kern's CUDA for the file, kern.load of the file (cold), and
# kern.load of the text as a string (cold).
import os, tempfile
d = tempfile.mkdtemp()
rows = []
for i in range(5):
    text = ("import warp as wp\n\n@wp.kernel\ndef s%d(x: wp.array(dtype=wp.float32), "
            "y: wp.array(dtype=wp.float32)):\n    i = wp.tid()\n    y[i] = x[i] * %d.5 + 1.0\n" % (i, i))
    path = os.path.join(d, "f%d.py" % i)
    open(path, "w").write(text)
    src = kern.compile_source(path, target="cuda").encode()
    p = C.c_void_p(); nv.nvrtcCreateProgram(C.byref(p), src, b"kern_generated.cu", 0, None, None)
    o = (C.c_char_p * 5)(*opts)
    t = time.perf_counter(); nv.nvrtcCompileProgram(p, 5, o); t_nv = 1e3 * (time.perf_counter() - t)
    nv.nvrtcDestroyProgram(C.byref(p))
    t = time.perf_counter(); kern.load(path, device=dev); t_file = 1e3 * (time.perf_counter() - t)
    t = time.perf_counter(); kern.load(text.replace(".5 +", ".75 +"), device=dev); t_str = 1e3 * (time.perf_counter() - t)
    print("new kernel %d: NVRTC direct %.1f ms, kern.load(file) %.1f ms, kern.load(text) %.1f ms" % (i, t_nv, t_file, t_str), flush=True)
