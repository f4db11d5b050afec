# Tiles (issue #24): wp.tile_stack and tile_stack_push / _pop / _count /
# _clear, where a block is one thread (Warp's CPU resolves block_dim to 1:
# the launch asks for blocks of 8, each runs as its one thread, lane 0).
# Covered: push returning the slot (-1 for has_value=False and for a full
# stack, whose count stays at capacity), count after pushes, pops and
# clear, pop in LIFO order, pop of an empty stack (dtype's zero and slot
# -1, the count staying 0), push again after clear, pushes in a loop and
# Warp's `while count > 0: pop` idiom, two stacks side by side, and stacks
# of float32, vec3, float16 and a struct.  On CUDA and OpenCL a block's
# threads share one stack (tests/errors/tile_threads_gpu.sh,
# tile_threads_block.py), so with blocks of 8 what this file stores would
# depend on block_dim: only the C and Vulkan targets run it.
# kern-targets: c vulkan
# kern-test: tile_stack --dim 4 --tiled --block-dim 8 data='arange(int32,4)' ints='zeros(int32,4,24)' floats='zeros(float32,4,8)' vecs='zeros(vec3,4,3)' halves='zeros(float16,4,3)' recs='zeros(Rec,4,2)'
# kern-check: ints
# kern-check: floats
# kern-check: vecs
# kern-check: halves
# kern-check: recs
import warp as wp

CAP = wp.constant(3)


@wp.struct
class Rec:
    a: wp.int32
    w: wp.float32


@wp.kernel
def tile_stack(data: wp.array(dtype=wp.int32), ints: wp.array2d(dtype=wp.int32),
               floats: wp.array2d(dtype=float), vecs: wp.array2d(dtype=wp.vec3),
               halves: wp.array2d(dtype=wp.float16), recs: wp.array2d(dtype=Rec)):
    i, lane = wp.tid()
    d = data[i]
    s = wp.tile_stack(capacity=CAP, dtype=wp.int32)
    ints[i, 0] = wp.tile_stack_count(s)
    ints[i, 1] = wp.tile_stack_push(s, d * 10, True)
    ints[i, 2] = wp.tile_stack_push(s, d * 10 + 1, d % 2 == 0)
    ints[i, 3] = wp.tile_stack_push(s, 7, False)
    ints[i, 4] = wp.tile_stack_count(s)
    # fill it: the pushes past capacity drop their values
    for k in range(3):
        ints[i, 5 + k] = wp.tile_stack_push(s, 100 + k, True)
    ints[i, 8] = wp.tile_stack_count(s)
    v, slot = wp.tile_stack_pop(s)
    ints[i, 9] = v
    ints[i, 10] = slot
    v, slot = wp.tile_stack_pop(s)
    ints[i, 11] = v * 100 + slot
    ints[i, 12] = wp.tile_stack_count(s)
    wp.tile_stack_clear(s)
    ints[i, 13] = wp.tile_stack_count(s)
    # pop of an empty stack: zero and -1, the count stays 0
    v, slot = wp.tile_stack_pop(s)
    ints[i, 14] = v
    ints[i, 15] = slot
    ints[i, 16] = wp.tile_stack_count(s)
    # after clear the next push starts at slot 0
    ints[i, 17] = wp.tile_stack_push(s, d + 5, True)
    # Warp's idiom: drain with `while count > 0`
    total = int(0)
    n = int(0)
    while wp.tile_stack_count(s) > 0:
        v, slot = wp.tile_stack_pop(s)
        if slot >= 0:
            total = total + v * (slot + 1)
            n = n + 1
    ints[i, 18] = total
    ints[i, 19] = n
    ints[i, 20] = lane
    ints[i, 21] = wp.block_dim()

    f = wp.tile_stack(capacity=4, dtype=float)
    t = wp.tile_stack(capacity=2, dtype=wp.int32)
    for k in range(d + 2):
        wp.tile_stack_push(f, float(k) * 1.5 + float(d), k != 1)
        wp.tile_stack_push(t, k, True)
    ints[i, 22] = wp.tile_stack_count(f) * 10 + wp.tile_stack_count(t)
    for k in range(5):
        x, sl = wp.tile_stack_pop(f)
        floats[i, k] = x + float(sl) * 0.25
    y, sl2 = wp.tile_stack_pop(t)
    ints[i, 23] = y * 10 + sl2

    vs = wp.tile_stack(capacity=2, dtype=wp.vec3)
    wp.tile_stack_push(vs, wp.vec3(float(d), 2.0, 3.0), True)
    wp.tile_stack_push(vs, wp.vec3(1.0, float(d) * 0.5, -1.0), d > 1)
    for k in range(3):
        vv, vsl = wp.tile_stack_pop(vs)
        vecs[i, k] = vv * float(vsl + 2)

    hs = wp.tile_stack(capacity=2, dtype=wp.float16)
    wp.tile_stack_push(hs, wp.float16(float(d) + 0.5), True)
    for k in range(3):
        hv, hsl = wp.tile_stack_pop(hs)
        halves[i, k] = hv + wp.float16(float(hsl))

    rs = wp.tile_stack(capacity=4, dtype=Rec)
    r = Rec()
    r.a = d
    r.w = float(d) * 0.25
    wp.tile_stack_push(rs, r, d < 3)
    for k in range(2):
        rv, rsl = wp.tile_stack_pop(rs)
        rv.a = rv.a * 10 + rsl
        recs[i, k] = rv
