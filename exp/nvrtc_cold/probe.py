"""What a cold CUDA build costs at NVRTC's floor (issue #14's 50 ms target).

Compiles each FILE[:OPTION,OPTION...] five times as a text new to NVRTC's
own cache (CUDA 12.9+ caches compiled programs across processes, so every
compile gets a fresh `__device__ int k_salt_N;` line) and prints the median
wall and CPU time; the first line is the first compile in the process, of a
trivial kernel.  An option list with PTX compiles for compute_90 instead of
sm_90.  The .cu files beside it are the exact texts measured (2026-11-26,
bench/NOTES.md "The floor under a cold build"): kern's production and compact
CUDA for a one-line kernel, the compact one without its 64-bit tid division,
and a trivial kernel.  Usage:
  python3 probe.py triv.cu prod.cu compact.cu:--minimal,--Ofast-compile=mid
"""
import ctypes as C, statistics, sys, time, os
nv = None
for name in ("libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"):
    try: nv = C.CDLL(name); break
    except OSError: pass
base = [b"--gpu-architecture=sm_90", b"-default-device", b"--std=c++17", b"-lineinfo", b"--fmad=false"]
salt = [int.from_bytes(os.urandom(3), "little")]
def comp(src, opts):
    salt[0] += 1
    src = (b"__device__ int k_salt_%d;\n" % salt[0]) + src
    p = C.c_void_p()
    assert nv.nvrtcCreateProgram(C.byref(p), src, b"k.cu", 0, None, None) == 0
    o = (C.c_char_p * len(opts))(*opts)
    w, c = time.perf_counter(), time.process_time()
    r = nv.nvrtcCompileProgram(p, len(opts), o)
    w, c = time.perf_counter() - w, time.process_time() - c
    nv.nvrtcDestroyProgram(C.byref(p))
    if r: raise SystemExit("compile failed %r" % opts)
    return 1e3*w, 1e3*c
t = comp(b'extern "C" __global__ void q(int *p){p[threadIdx.x]=1;}', base)
print("first trivial in process: wall %.1f cpu %.1f" % t)
for f in sys.argv[1:]:
    name, _, extra = f.partition(":")
    src = open(name, "rb").read()
    opts = base + [e.encode() for e in extra.split(",") if e]
    if "PTX" in extra:
        opts = [b"--gpu-architecture=compute_90"] + base[1:] + [e.encode() for e in extra.split(",") if e and e != "PTX"]
    ts = [comp(src, opts) for _ in range(5)]
    print("%-50s wall %6.1f cpu %6.1f" % (f[-50:], statistics.median(x[0] for x in ts), statistics.median(x[1] for x in ts)))
