# expect: 13:9: error: the fixed-size arrays of kernel 'k' take 327680 bytes together; kern allows at most 262144 bytes of them per kernel on every target, the functions it calls included (they live on the thread's stack, in CUDA's local memory of 512 KiB a thread or in OpenCL's private memory)
import warp as wp


@wp.kernel
def k(a: wp.array2d(dtype=wp.vec2d), b: wp.array2d(dtype=wp.vec2d)):
    t = wp.tile_load(a, shape=(64, 64))
    u = wp.tile_load(b, shape=(64, 64))
    v = t + u
    w = t - u
    wp.tile_store(a, v)
    wp.tile_store(b, w)
    x = -t
    wp.tile_store(a, x)
