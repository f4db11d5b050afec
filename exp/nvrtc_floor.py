"""NVRTC's own time for kern's emitted CUDA against a trivial kernel, with
the CUDA backend's options: where a cold kern.load's time goes.  Wall and
CPU time per compile (median of 5 after one warm-up), for each .cu named,
as emitted and with extra options.  Usage:
  python3 exp/nvrtc_floor.py [--arch sm_90] FILE.cu ...

The nvrtc_*.cu files beside it are the exact texts measured on 2026-11-26
(bench/NOTES.md): kern's emitted CUDA for a scale kernel and for
examples/sum_of_squares.py, the scale kernel without its 16-byte vector
path, and a trivial kernel.  They are copies of generated code on purpose,
kept so that the figures can be rerun on the same bytes; `kern compile
--target cuda FILE.py` makes today's version.
"""
import ctypes as C, statistics, sys, time

args = sys.argv[1:]
arch = "sm_90"
if args and args[0] == "--arch":
    arch, args = args[1], args[2:]
for name in ("libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"):
    try:
        nv = C.CDLL(name)
        break
    except OSError:
        nv = None
base = [b"--gpu-architecture=" + arch.encode(), b"-default-device", b"--std=c++17",
        b"-lineinfo", b"--fmad=false"]


def comp(src, opts):
    p = C.c_void_p()
    assert nv.nvrtcCreateProgram(C.byref(p), src, b"k.cu", 0, None, None) == 0
    o = (C.c_char_p * len(opts))(*opts)
    w, c = time.perf_counter(), time.process_time()
    r = nv.nvrtcCompileProgram(p, len(opts), o)
    w, c = time.perf_counter() - w, time.process_time() - c
    nv.nvrtcDestroyProgram(C.byref(p))
    if r:
        raise SystemExit("compile failed (%d) with %r" % (r, opts))
    return 1e3 * w, 1e3 * c


variants = [("as the backend", []), ("--split-compile=0", [b"--split-compile=0"]),
            ("PTX only", None)]
comp(b'extern "C" __global__ void q(){}', base)
for f in args:
    src = open(f, "rb").read()
    for label, extra in variants:
        opts = base + extra if extra is not None else \
            [b"--gpu-architecture=" + arch.replace("sm_", "compute_").encode()] + base[1:]
        t = [comp(src, opts) for _ in range(5)]
        print("%-28s %-20s wall %7.1f ms  cpu %7.1f ms" % (
            f.split("/")[-1], label, statistics.median(x[0] for x in t),
            statistics.median(x[1] for x in t)))
