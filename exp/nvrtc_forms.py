#!/usr/bin/env python3
"""nvrtc_forms.py -- what NVRTC costs per kernel for a batch of kern synth pairs.

Reads DIR/pairs.jsonl (kern synth output), builds one NVRTC program of the
first N records' CUDA the way kern synth's --validate compile does (each
module in a namespace; a compact module's guarded helpers at file scope,
see Note [compact CUDA] in src/emit/cuda.c) and compiles it with the given
options, printing CPU milliseconds per kernel (process time, which counts
NVRTC's own threads).  Used for the NVRTC table in bench/NOTES.md; not part
of any test.

  python3 exp/nvrtc_forms.py DIR N [--trivial] -- OPTION...

--trivial replaces the records with N copies of a kernel that stores one
constant (the floor: what NVRTC needs per kernel whatever the kernel does).
"""
import ctypes
import json
import sys
import time

MARK = "// kern: end of shared helpers\n"
TRIVIAL = """
extern "C" __global__ void kern_k_%d(int *p) { p[threadIdx.x] = %d; }
"""


def batch(path, n, trivial):
    if trivial:
        return "".join(TRIVIAL % (i, i) for i in range(n))
    out = []
    with open(path) as f:
        for i, line in enumerate(f):
            if i == n:
                break
            cu = json.loads(line)["source"]["cuda"]
            k = cu.find(MARK)
            if k >= 0:
                out.append(cu[:k + len(MARK)])
                cu = cu[k + len(MARK):]
            out.append("namespace synth_%d {\n%s\n}\n" % (i, cu))
    return "".join(out)


def main():
    args = sys.argv[1:]
    k = args.index("--")
    head, opts = args[:k], args[k + 1:]
    trivial = "--trivial" in head
    head = [a for a in head if a != "--trivial"]
    d, n = head[0], int(head[1])
    src = batch(d + "/pairs.jsonl", n, trivial).encode()
    lib = ctypes.CDLL("libnvrtc.so")
    prog = ctypes.c_void_p()
    assert lib.nvrtcCreateProgram(ctypes.byref(prog), src, b"b.cu", 0, None, None) == 0
    arr = (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])
    t0 = time.process_time()
    w0 = time.time()
    rc = lib.nvrtcCompileProgram(prog, len(opts), arr)
    cpu = time.process_time() - t0
    wall = time.time() - w0
    if rc != 0:
        size = ctypes.c_size_t()
        lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetProgramLog(prog, log)
        print(log.value.decode()[:3000])
    print("rc %d  kernels %d  cpu %.2f s  wall %.2f s  %.2f ms/kernel  %.0f kernels/s/core"
          % (rc, n, cpu, wall, 1000 * cpu / n, n / cpu))


main()
