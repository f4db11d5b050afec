"""What the driver's PTX JIT costs for a new text (issue #14: could kern
emit PTX itself and skip NVRTC on the load path?).

Loads each PTX file five times through cuModuleLoadDataEx, each time a text
new to the driver's compute cache (a salted `.global .u32 k_salt_N;` line;
CUDA_CACHE_DISABLE=1 as well), and prints the median wall ms.  The first
line is the first PTX load in the process (the JIT compiler's start-up).
With --nvrtc FILE.cu it also times NVRTC to PTX (compute_90) + the driver
JIT, the whole load path without a cubin.  The .ptx files are nvcc 13.0's
-ptx output for ../nvrtc_cold/*.cu (sm_90, --fmad=false).
Usage: CUDA_CACHE_DISABLE=1 python3 probe.py triv.ptx compact.ptx prod.ptx [--nvrtc ../nvrtc_cold/compact.cu]
"""
import ctypes as C, statistics, sys, time, os
cu = C.CDLL("libcuda.so.1")
def ck(r, what):
    if r: raise SystemExit("%s failed: %d" % (what, r))
ck(cu.cuInit(0), "cuInit")
dev = C.c_int(); ck(cu.cuDeviceGet(C.byref(dev), 0), "cuDeviceGet")
ctx = C.c_void_p(); ck(cu.cuDevicePrimaryCtxRetain(C.byref(ctx), dev), "retain")
ck(cu.cuCtxSetCurrent(ctx), "setcurrent")
salt = [int.from_bytes(os.urandom(3), "little")]
def salted(ptx):
    salt[0] += 1
    i = ptx.index(b".address_size 64") + len(b".address_size 64")
    return ptx[:i] + (b"\n.global .u32 k_salt_%d;\n" % salt[0]) + ptx[i:]
def load(ptx, opt=None):
    m = C.c_void_p()
    src = salted(ptx) + b"\0"
    if opt is None:
        w = time.perf_counter(); ck(cu.cuModuleLoadDataEx(C.byref(m), src, 0, None, None), "load"); w = time.perf_counter() - w
    else:
        keys = (C.c_int * 1)(7)  # CU_JIT_OPTIMIZATION_LEVEL
        vals = (C.c_void_p * 1)(opt)
        w = time.perf_counter(); ck(cu.cuModuleLoadDataEx(C.byref(m), src, 1, keys, vals), "load"); w = time.perf_counter() - w
    cu.cuModuleUnload(m)
    return 1e3 * w
args = sys.argv[1:]
nvrtc = None
if "--nvrtc" in args:
    k = args.index("--nvrtc"); nvrtc = args[k + 1]; del args[k:k + 2]
triv = open(os.path.join(os.path.dirname(__file__) or ".", "triv.ptx"), "rb").read()
print("first PTX load in process (trivial): %.1f ms" % load(triv))
for f in args:
    ptx = open(f, "rb").read()
    for opt in (None, 0, 1):
        ts = [load(ptx, opt) for _ in range(5)]
        print("%-14s O%-4s median %6.1f ms  (%s)" % (f, "dflt" if opt is None else opt, statistics.median(ts), " ".join("%.1f" % t for t in ts)))
if nvrtc:
    nv = None
    for name in ("libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"):
        try: nv = C.CDLL(name); break
        except OSError: pass
    src0 = open(nvrtc, "rb").read()
    opts = [b"--gpu-architecture=compute_90", b"-default-device", b"--std=c++17", b"-lineinfo", b"--fmad=false", b"--minimal"]
    ts = []
    for _ in range(6):
        salt[0] += 1
        src = (b"__device__ int k_salt_%d;\n" % salt[0]) + src0
        p = C.c_void_p()
        w = time.perf_counter()
        ck(nv.nvrtcCreateProgram(C.byref(p), src, b"k.cu", 0, None, None), "create")
        o = (C.c_char_p * len(opts))(*opts)
        ck(nv.nvrtcCompileProgram(p, len(opts), o), "compile")
        n = C.c_size_t(); nv.nvrtcGetPTXSize(p, C.byref(n)); buf = C.create_string_buffer(n.value); nv.nvrtcGetPTX(p, buf)
        m = C.c_void_p(); ck(cu.cuModuleLoadDataEx(C.byref(m), buf, 0, None, None), "load")
        ts.append(1e3 * (time.perf_counter() - w))
        nv.nvrtcDestroyProgram(C.byref(p)); cu.cuModuleUnload(m)
    print("NVRTC PTX + driver JIT, %s: first %.1f, median of rest %.1f ms (%s)" % (nvrtc, ts[0], statistics.median(ts[1:]), " ".join("%.1f" % t for t in ts)))
