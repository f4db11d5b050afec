# float16 atomics on vector arrays and 2-d arrays: wp.atomic_add and
# wp.atomic_sub on vec2h and vec4h elements, `+=` on a 2-d float16 array,
# with small integer values (exact in any order).
# kern-test: ty_half_atomics_vec --dim 32 x='rand(int32,32,seed=181)' a2='zeros(vec2h,3)' a4='zeros(vec4h,2)' g='zeros(float16,4,4)'
# kern-check: a2
# kern-check: a4
# kern-check: g
import warp as wp


@wp.kernel
def ty_half_atomics_vec(x: wp.array(dtype=int), a2: wp.array(dtype=wp.vec2h), a4: wp.array(dtype=wp.vec4h),
                        g: wp.array2d(dtype=wp.float16)):
    i = wp.tid()
    v = wp.float16(float(x[i] % 8 - 3))
    wp.atomic_add(a2, i % 3, wp.vec2h(v, wp.float16(1.0)))
    wp.atomic_sub(a4, i % 2, wp.vec4h(v, -v, wp.float16(2.0), wp.float16(float(i % 4))))
    g[i % 4, (i // 4) % 4] += v
