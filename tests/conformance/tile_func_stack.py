# Tiles (issue #24): a tile stack as a @wp.func parameter
# (`s: wp.tile_stack(capacity=C, dtype=T)`), where a block is one thread
# (Warp's CPU resolves block_dim to 1).  Warp passes the stack by
# reference: pushes, pops and clears in the function are the caller's.
# Covered: pushes in a function, a pop in a function returning the value
# and slot, the count read in a function, a function passing the stack on
# to another, two stacks of different types passed to one function, and
# a function called twice with two stacks of the same type.  On CUDA and
# OpenCL a push in a @wp.func is refused (the block's threads exchange
# values in a kernel's own body only, tests/errors/tile_threads_gpu.sh),
# so only the C and Vulkan targets take this file.
# kern-targets: c vulkan
# kern-test: tile_func_stack --dim 3 --tiled --block-dim 8 data='arange(int32,3)' ints='zeros(int32,3,12)' vecs='zeros(vec3,3,2)'
# kern-check: ints
# kern-check: vecs
import warp as wp

CAP = wp.constant(4)


@wp.func
def push_two(s: wp.tile_stack(capacity=CAP, dtype=int), v: int):
    wp.tile_stack_push(s, v, True)
    wp.tile_stack_push(s, v + 1, v % 2 == 0)


@wp.func
def push_via(s: wp.tile_stack(capacity=CAP, dtype=int), v: int):
    push_two(s, v * 100)
    return wp.tile_stack_count(s)


@wp.func
def pop_sum(s: wp.tile_stack(capacity=CAP, dtype=int)):
    a, sa = wp.tile_stack_pop(s)
    b, sb = wp.tile_stack_pop(s)
    return a * 10 + b + sa * 1000 + sb * 10000


@wp.func
def move_top(s: wp.tile_stack(capacity=CAP, dtype=int), t: wp.tile_stack(capacity=2, dtype=wp.vec3)):
    v, slot = wp.tile_stack_pop(s)
    return wp.tile_stack_push(t, wp.vec3(float(v), float(slot), 0.5), slot >= 0)


@wp.kernel
def tile_func_stack(data: wp.array(dtype=wp.int32), ints: wp.array2d(dtype=wp.int32),
                    vecs: wp.array2d(dtype=wp.vec3)):
    i, lane = wp.tid()
    d = data[i]
    s = wp.tile_stack(capacity=CAP, dtype=int)
    u = wp.tile_stack(capacity=CAP, dtype=int)
    t = wp.tile_stack(capacity=2, dtype=wp.vec3)
    push_two(s, d)
    ints[i, 0] = wp.tile_stack_count(s)
    ints[i, 1] = push_via(s, d + 1)
    ints[i, 2] = wp.tile_stack_count(s)
    ints[i, 3] = pop_sum(s)
    ints[i, 4] = wp.tile_stack_count(s)
    push_two(u, 7)
    ints[i, 5] = move_top(s, t)
    ints[i, 6] = move_top(u, t)
    ints[i, 7] = move_top(u, t)
    ints[i, 8] = wp.tile_stack_count(s) * 100 + wp.tile_stack_count(u) * 10 + wp.tile_stack_count(t)
    ints[i, 9] = pop_sum(u)
    wp.tile_stack_clear(s)
    ints[i, 10] = push_via(s, d)
    ints[i, 11] = pop_sum(s)
    for k in range(2):
        v, slot = wp.tile_stack_pop(t)
        vecs[i, k] = v
