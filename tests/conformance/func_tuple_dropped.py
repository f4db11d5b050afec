# A @wp.func returning several values called as a statement (every result
# dropped) and for its values: its array write must still happen, and the
# dropped results must not disturb the kept ones (vulkan: Note [vulkan tuple
# results] in src/emit/common.c).
# kern-test: tuple_dropped --dim 8 x='arange(int32,8)' log='zeros(int32,8)' o='zeros(int32,8)' ov='zeros(vec3,8)'
# kern-check: log
# kern-check: o
# kern-check: ov
import warp as wp


@wp.func
def bump(k: int, log: wp.array(dtype=int), i: int):
    log[i] = k * 3 + 1
    if k % 2 == 0:
        return k + 1, wp.vec3(float(k), 2.0, 3.0)
    return k - 1, wp.vec3(-1.0, float(k) * 0.5, 0.0)


@wp.kernel
def tuple_dropped(x: wp.array(dtype=int), log: wp.array(dtype=int),
                  o: wp.array(dtype=int), ov: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    bump(x[i], log, i)
    a, v = bump(x[i] + 1, log, i)
    o[i] = a
    ov[i] = v
    bump(a, log, i)
