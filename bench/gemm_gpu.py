"""Tile GEMM on the GPU (issue #24): kern's tile kernels of bench/gemm/gemm.py
against cuBLAS (torch.matmul) in the same process, on one card.

For each dtype and shape: the kernel's result checked against float32
torch.matmul of the same inputs (over the first count * TILE_K columns,
as the kernel's loop reads), then the median time of 5 batches of
launches (the batch sized to ~0.2 s; CUDA events on one stream, which
kern and PyTorch share), as TFLOP/s and as a fraction of
cuBLAS's.  The fused GEMM + bias + ReLU is timed against torch.matmul
followed by a separate bias + ReLU (cuBLAS then an element-wise kernel),
and against cuBLAS's fused addmm + relu too.  Module build time (the four
kernels of the file, each with its tensor-core kernel): the first
kern.load of a fresh copy of the file with empty kernel caches, kern's
and NVRTC's (cold), and again with kern's filled (warm), each in a new
process, context creation included.

    python3 bench/gemm_gpu.py --json out.json [--sizes 1024,2048,4096,8192]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

p = argparse.ArgumentParser()
p.add_argument("--json", required=True)
p.add_argument("--sizes", default="1024,2048,4096,8192")
p.add_argument("--build-only", action="store_true", help=argparse.SUPPRESS)
a = p.parse_args()

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "gemm", "gemm.py")

import kern  # noqa: E402

if a.build_only:  # a child of the build-time measurement
    t0 = time.perf_counter()
    kern.init(cache_dir=os.environ["GEMM_CACHE"])
    dev = kern.get_device("cuda:0")
    m = kern.load(os.environ["GEMM_SRC"], device=dev)
    m.gemm_f16  # noqa: B018 -- the kernel handle exists
    print("%.1f" % (1e3 * (time.perf_counter() - t0)))
    sys.exit(0)

import torch  # noqa: E402

res = {"date": time.strftime("%Y-%m-%dT%H:%MZ", time.gmtime()), "rows": []}


# NVRTC 12.9+ keeps a cache of its own across processes, keyed by the
# text: the copy of the file gets a new path each run, which kern's CUDA
# names in its first line, so the cold build is cold for NVRTC too.
COPY = os.path.join(tempfile.mkdtemp(prefix="kern-gemm-src-%s-" % os.urandom(4).hex()),
                    "gemm.py")
with open(SRC) as f_in, open(COPY, "w") as f_out:
    f_out.write(f_in.read())


def build_ms(cache):
    env = dict(os.environ, GEMM_CACHE=cache, GEMM_SRC=COPY)
    out = subprocess.run([sys.executable, __file__, "--json", "-", "--build-only"],
                         env=env, capture_output=True, text=True, check=True)
    return float(out.stdout.strip().splitlines()[-1])


cache = tempfile.mkdtemp(prefix="kern-gemm-")
res["build_cold_ms"] = build_ms(cache)
res["build_warm_ms"] = build_ms(cache)

kern.init(cache_dir=cache)
dev = kern.get_device("cuda:0")
res["card"] = dev.model
mod = kern.load(SRC, device=dev)


# kern launches go to PyTorch's stream (kern.Stream wrapping it), so both
# libraries queue on one stream without waiting in between and CUDA events
# on that stream time both alike.
TS = torch.cuda.Stream()  # not the legacy default stream, which has no handle
torch.cuda.set_stream(TS)
KS = kern.Stream(dev, native=TS.cuda_stream)


def timed(fn, sync=None):
    """Seconds per call: the median over 5 batches of CUDA-event time."""
    fn()
    torch.cuda.synchronize()
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    e0.record()
    fn()
    e1.record()
    torch.cuda.synchronize()
    once = e0.elapsed_time(e1) / 1e3
    reps = max(3, int(0.2 / max(once, 1e-6)))
    meds = []
    for _ in range(5):
        e0.record()
        for _ in range(reps):
            fn()
        e1.record()
        torch.cuda.synchronize()
        meds.append(e0.elapsed_time(e1) / 1e3 / reps)
    return statistics.median(meds)


def ksync():
    torch.cuda.synchronize()


tsync = ksync


def check(name, got, want, tol):
    err = (got.double() - want.double()).abs().max().item()
    scale = want.abs().max().item() or 1.0
    ok = err <= tol * scale
    print("check %-16s max |err| %.3g (scale %.3g) %s" % (name, err, scale,
                                                          "ok" if ok else "FAILED"))
    res.setdefault("checks", []).append({"kernel": name, "max_err": err,
                                         "scale": scale, "ok": ok})
    return ok


def launch(kname, tm, tn, M, N, args):
    kern.launch_tiled(getattr(mod, kname), dim=((M + tm - 1) // tm, (N + tn - 1) // tn),
                      inputs=args, device=dev, block_dim=256, stream=KS)


torch.manual_seed(0)
failed = 0
# Correctness first, at shapes that are not multiples of the tiles.
TILES = {"gemm_f16": (128, 256, 64), "gemm_bf16": (128, 256, 64),
         "gemm_f16_f32": (128, 256, 64), "gemm_f32": (128, 128, 32),
         "gemm_f64": (128, 128, 32)}
torch.backends.cuda.matmul.allow_tf32 = False  # float32 is float32 here
for kname, dt in (("gemm_f16", torch.float16), ("gemm_bf16", torch.bfloat16),
                  ("gemm_f16_f32", torch.float16), ("gemm_f32", torch.float32),
                  ("gemm_f64", torch.float64)):
    tm, tn, tk = TILES[kname]
    for M, N, K in ((1000, 776, 296), (512, 512, 512), (2048, 1024, 4096)):
        A = torch.randn(M, K, device="cuda", dtype=dt)
        B = torch.randn(K, N, device="cuda", dtype=dt)
        out_dt = torch.float32 if kname.endswith("f16_f32") else dt
        C = torch.zeros(M, N, device="cuda", dtype=out_dt)
        launch(kname, tm, tn, M, N, [A, B, C])
        ksync()
        Kc = K // tk * tk
        want = A[:, :Kc].double() @ B[:Kc].double()
        tol = {torch.float16: 1e-2, torch.bfloat16: 1e-2, torch.float32: 1e-5,
               torch.float64: 1e-12}[out_dt]
        failed += not check("%s %dx%dx%d" % (kname, M, N, K), C, want, tol)
M, N, K = 1000, 776, 296
A = torch.randn(M, K, device="cuda", dtype=torch.float16)
B = torch.randn(K, N, device="cuda", dtype=torch.float16)
bias = torch.randn(N, device="cuda", dtype=torch.float32)
C = torch.zeros(M, N, device="cuda", dtype=torch.float16)
launch("gemm_bias_relu", 64, 128, M, N, [A, B, bias, C])
ksync()
Kc = K // 64 * 64
failed += not check("gemm_bias_relu", C,
                    torch.relu(A[:, :Kc].float() @ B[:Kc].float() + bias), 1e-2)

sizes = [int(s) for s in a.sizes.split(",")]
shapes = [(s, s, s) for s in sizes]
big = sizes[-1]
shapes += [(big, big, 1024), (big, 1024, big), (1024, big, big)]  # skinny
print("\n%-10s %-18s %12s %12s %8s" % ("dtype", "M x N x K", "kern TF/s",
                                       "cuBLAS TF/s", "ratio"))
for kname, dt, dname in (("gemm_f16", torch.float16, "float16"),
                         ("gemm_bf16", torch.bfloat16, "bfloat16"),
                         ("gemm_f32", torch.float32, "float32"),
                         ("gemm_f64", torch.float64, "float64")):
    tm, tn, _ = TILES[kname]
    for M, N, K in shapes:
        if dt == torch.float64 and M * N * K > 4096 ** 3:
            continue  # float64 at 8192^3 is seconds a call
        A = torch.randn(M, K, device="cuda", dtype=dt)
        B = torch.randn(K, N, device="cuda", dtype=dt)
        C = torch.empty(M, N, device="cuda", dtype=dt)
        tk = timed(lambda: launch(kname, tm, tn, M, N, [A, B, C]), ksync)
        tt = timed(lambda: torch.matmul(A, B, out=C), tsync)
        fl = 2.0 * M * N * K
        row = {"kernel": kname, "dtype": dname, "M": M, "N": N, "K": K,
               "kern_tflops": fl / tk / 1e12, "cublas_tflops": fl / tt / 1e12,
               "ratio": tt / tk}
        res["rows"].append(row)
        print("%-10s %-18s %12.1f %12.1f %8.3f" % (dname, "%dx%dx%d" % (M, N, K),
                                                   row["kern_tflops"],
                                                   row["cublas_tflops"], row["ratio"]))

# The fused kernel against cuBLAS + a separate element-wise kernel.
for s in sizes:
    M = N = K = s
    A = torch.randn(M, K, device="cuda", dtype=torch.float16)
    B = torch.randn(K, N, device="cuda", dtype=torch.float16)
    bias = torch.randn(N, device="cuda", dtype=torch.float32)
    C = torch.empty(M, N, device="cuda", dtype=torch.float16)
    bias16 = bias.half()
    tk = timed(lambda: launch("gemm_bias_relu", 64, 128, M, N, [A, B, bias, C]), ksync)
    tsep = timed(lambda: torch.relu_(torch.matmul(A, B, out=C).add_(bias16)), tsync)
    tfused = timed(lambda: torch.relu_(torch.addmm(bias16, A, B, out=C)), tsync)
    fl = 2.0 * M * N * K
    row = {"kernel": "gemm_bias_relu", "M": M, "N": N, "K": K,
           "kern_tflops": fl / tk / 1e12, "torch_matmul_then_bias_relu_tflops": fl / tsep / 1e12,
           "torch_addmm_relu_tflops": fl / tfused / 1e12,
           "ratio_vs_separate": tsep / tk, "ratio_vs_addmm": tfused / tk}
    res["rows"].append(row)
    print("fused %dx%dx%d: kern %.1f TF/s, matmul+bias+relu %.1f (%.3fx), addmm+relu %.1f (%.3fx)"
          % (M, N, K, row["kern_tflops"], row["torch_matmul_then_bias_relu_tflops"],
             row["ratio_vs_separate"], row["torch_addmm_relu_tflops"], row["ratio_vs_addmm"]))

# Warp's own tile_matmul on the same card, where Warp is importable (the
# issue's reference): gemm_f16 of bench/gemm/gemm.py as Warp runs it, at
# a few tile shapes and block sizes (Warp's best is the figure), 8192^3
# float16; its module build is timed as Warp reports it (first launch).
def warp_reference():
    try:
        import warp as wp
    except ImportError:
        print("warp: not available")
        res["warp"] = "not available"
        return
    wp.config.quiet = True
    wp.init()
    # gemm_f16 alone: a Warp module builds every kernel of its file, and
    # Warp 1.19's tile_matmul takes no bfloat16 (its dispatch raises)
    full = open(SRC).read()
    text = (full[:full.index("@wp.kernel")] +
            full[full.index("@wp.kernel\ndef gemm_f16("):full.index("@wp.kernel\ndef gemm_bf16(")])
    M = N = K = 8192
    A = torch.randn(M, K, device="cuda", dtype=torch.float16)
    B = torch.randn(K, N, device="cuda", dtype=torch.float16)
    C = torch.empty(M, N, device="cuda", dtype=torch.float16)
    wa, wb, wc = wp.from_torch(A), wp.from_torch(B), wp.from_torch(C)
    out = []
    for tm, tn, tk, bd in ((64, 64, 64, 128), (128, 128, 64, 256), (64, 128, 64, 128)):
        d = tempfile.mkdtemp(prefix="warp-gemm-")
        name = "warp_gemm_%d_%d_%d_%d" % (tm, tn, tk, bd)
        with open(os.path.join(d, name + ".py"), "w") as f:
            f.write(text.replace("TILE_M = wp.constant(128)", "TILE_M = wp.constant(%d)" % tm)
                    .replace("TILE_N = wp.constant(256)", "TILE_N = wp.constant(%d)" % tn)
                    .replace("TILE_K = wp.constant(64)", "TILE_K = wp.constant(%d)" % tk))
        sys.path.insert(0, d)
        m = __import__(name)

        def go():
            wp.launch_tiled(m.gemm_f16, dim=(M // tm, N // tn), inputs=[wa, wb, wc],
                            block_dim=bd, device="cuda:0")
        t0 = time.perf_counter()
        go()
        wp.synchronize()
        build = time.perf_counter() - t0
        ts = []
        for _ in range(3):
            t0 = time.perf_counter()
            for _ in range(3):
                go()
            wp.synchronize()
            ts.append((time.perf_counter() - t0) / 3)
        tf = 2.0 * M * N * K / statistics.median(ts) / 1e12
        ok = (C.float()[:256, :256] - (A[:256].float() @ B[:, :256].float())).abs().max().item()
        print("warp tile_matmul %dx%dx%d block_dim %d: %.1f TFLOP/s, first launch %.1f s, "
              "max |err| (256x256 corner) %.3g" % (tm, tn, tk, bd, tf, build, ok))
        out.append({"tile": [tm, tn, tk], "block_dim": bd, "tflops": tf,
                    "first_launch_s": build, "corner_err": ok})
    res["warp"] = {"version": wp.config.version, "float16_8192": out}


warp_reference()

print("\ncard %s; build cold %.0f ms, warm %.0f ms" % (res["card"], res["build_cold_ms"],
                                                      res["build_warm_ms"]))
with open(a.json, "w") as f:
    json.dump(res, f, indent=1)
sys.exit(1 if failed else 0)
