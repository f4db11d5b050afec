# Comparisons and selections on float16 and bfloat16 values: < <= > >= ==
# != between two halves, wp.where and `x if c else y` choosing halves,
# chained comparisons of the same type, vector equality of vec3h.
# kern-test: ty_half_compare --dim 16 x='rand(float16,16,seed=294)' y='rand(bfloat16,16,seed=295)' flags='zeros(int32,16,3)' oh='zeros(float16,16,2)' ob='zeros(bfloat16,16)'
# kern-check: flags
# kern-check: oh
# kern-check: ob
import warp as wp


@wp.kernel
def ty_half_compare(x: wp.array(dtype=wp.float16), y: wp.array(dtype=wp.bfloat16), flags: wp.array2d(dtype=int),
                    oh: wp.array2d(dtype=wp.float16), ob: wp.array(dtype=wp.bfloat16)):
    i = wp.tid()
    a = x[i]
    b = x[(i + 1) % 16]
    f = 0
    if a < b:
        f = f + 1
    if a <= b:
        f = f + 2
    if a > wp.float16(0.5):
        f = f + 4
    if a == b:
        f = f + 8
    if a != wp.float16(0.25):
        f = f + 16
    if wp.float16(0.1) < a < wp.float16(0.9):
        f = f + 32
    flags[i, 0] = f
    c = y[i]
    d = y[(i + 3) % 16]
    g = 0
    if c < d:
        g = g + 1
    if c >= d:
        g = g + 2
    if c == c:
        g = g + 4
    flags[i, 1] = g
    v = wp.vec3h(a, b, a)
    flags[i, 2] = int(v == wp.vec3h(a, b, b)) + 2 * int(v == wp.vec3h(a, b, a))
    oh[i, 0] = wp.where(a < b, a, b)
    oh[i, 1] = a if a > b else b * wp.float16(2.0)
    ob[i] = wp.where(c < d, d - c, c - d)
