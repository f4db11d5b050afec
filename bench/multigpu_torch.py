"""PyTorch references for the multi-GPU figures (issue #15).

Measured the way kern's examples are (examples/multigpu/, Note [fair
baseline] in mg_common.h): host time from the first call to the end of the
work, the best of REPS after three warm-up calls.

  * the sum of squares of N float64 on one GPU: torch.dot(x, x) and .item();
  * the same sharded over P processes, one GPU each (torch.distributed with
    NCCL): a local dot of the process's half, one all_reduce of the scalar,
    .item() -- PyTorch's idiomatic data-parallel reduction;
  * all_reduce of 1 GB of float32, as a second view of NCCL's bus bandwidth.

Usage: python multigpu_torch.py [N] [P]   (defaults 1e9 and every GPU)
Prints lines "RESULT torch_... key=value ..." that bench/multigpu_gpu.sh reads.
"""
import os
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

REPS = int(os.environ.get("KERN_EXAMPLE_REPS", "10"))


def timed(fn, reps=REPS):
    for _ in range(3):
        fn()
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        fn()
        ts.append((time.perf_counter() - t0) * 1e3)
    return min(ts)


def init(n, dev):
    # The same values as examples/multigpu/sum_of_squares.c.
    return (torch.arange(n, device=dev, dtype=torch.int64) % 1000).to(torch.float64) * 0.001


def worker(rank, world, n, q):
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29533")
    torch.cuda.set_device(rank)
    dev = torch.device("cuda", rank)
    dist.init_process_group("nccl", rank=rank, world_size=world, device_id=dev)
    per = n // world
    lo = rank * per
    hi = n if rank == world - 1 else lo + per
    x = (torch.arange(lo, hi, device=dev, dtype=torch.int64) % 1000).to(torch.float64) * 0.001
    out = {}

    def sharded():
        t = torch.dot(x, x)
        dist.all_reduce(t)
        out["v"] = t.item()

    ms = timed(sharded)
    big = torch.ones(1 << 28, device=dev, dtype=torch.float32)

    def allreduce():
        dist.all_reduce(big)
        torch.cuda.synchronize(dev)

    ar_ms = timed(allreduce)
    if rank == 0:
        q.put((ms, out["v"], ar_ms))
    dist.barrier()
    dist.destroy_process_group()


def main():
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10**9
    world = int(sys.argv[2]) if len(sys.argv) > 2 else torch.cuda.device_count()
    name = torch.cuda.get_device_name(0)
    x = init(n, "cuda:0")
    res = {}

    def one():
        res["v"] = torch.dot(x, x).item()

    one_ms = timed(one)
    print(f"torch {torch.__version__} on {world} x {name}: one GPU sum of squares of {n} float64: "
          f"{one_ms:.3f} ms ({res['v']:.10g})")
    print(f"RESULT torch_one_gpu n={n} ms={one_ms:.4f}")
    del x
    torch.cuda.empty_cache()
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    procs = [ctx.Process(target=worker, args=(r, world, n, q)) for r in range(world)]
    for p in procs:
        p.start()
    ms, v, ar_ms = q.get(timeout=600)
    for p in procs:
        p.join()
    gb = (1 << 28) * 4
    busbw = gb / (ar_ms * 1e-3) * 2 * (world - 1) / world / 1e9
    print(f"torch sharded over {world} GPUs (local dot + all_reduce): {ms:.3f} ms ({v:.10g}), "
          f"{one_ms / ms:.2f}x one GPU")
    print(f"torch all_reduce 1 GB float32: {ar_ms:.3f} ms, bus {busbw:.1f} GB/s")
    print(f"RESULT torch_sharded n={n} gpus={world} ms={ms:.4f} speedup={one_ms / ms:.3f}")
    print(f"RESULT torch_all_reduce_1024MB gpus={world} ms={ar_ms:.4f} busbw={busbw:.2f}")


if __name__ == "__main__":
    main()
