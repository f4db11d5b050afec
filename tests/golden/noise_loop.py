# A body with a heavy builtin (Note [heavy bodies] in src/ir/passes.c):
# Perlin noise is compute-bound, so its grid-stride loop is not unrolled
# (no `#pragma unroll 4` in the CUDA and OpenCL below), which keeps
# NVRTC's time down.
import warp as wp


@wp.kernel
def noise_loop(x: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    s = wp.rand_init(7)
    out[i] = wp.noise(s, x[i] * 3.0)
