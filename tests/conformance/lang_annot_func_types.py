# Warp type names as @wp.func parameter and return types: wp.float64, wp.int64,
# wp.uint32, wp.vec3d, wp.mat33d, wp.vec4i, bool, and a function of wp.float32.
# kern-test: lang_annot_func_types --dim 4 x='rand(float64,4,seed=91)' k='rand(int64,4,seed=92)' out='zeros(float64,4,6)' oi='zeros(int64,4,2)'
# kern-check: out
# kern-check: oi
import warp as wp


@wp.func
def halve(x: wp.float64) -> wp.float64:
    return x * wp.float64(0.5)


@wp.func
def mix(a: wp.int64, b: wp.uint32) -> wp.int64:
    return a * wp.int64(3) + wp.int64(b)


@wp.func
def spread(x: wp.float64) -> wp.vec3d:
    return wp.vec3d(x, x * x, -x)


@wp.func
def diag(v: wp.vec3d) -> wp.mat33d:
    return wp.mat33d(v[0], wp.float64(0.0), wp.float64(0.0),
                     wp.float64(0.0), v[1], wp.float64(0.0),
                     wp.float64(1.0), wp.float64(0.0), v[2])


@wp.func
def ints(k: wp.int64) -> wp.vec4i:
    j = int(k)
    return wp.vec4i(j, j + 1, j * 2, -j)


@wp.func
def small(x: wp.float32) -> bool:
    return x < wp.float32(0.5)


@wp.kernel
def lang_annot_func_types(x: wp.array(dtype=wp.float64), k: wp.array(dtype=wp.int64),
                          out: wp.array2d(dtype=wp.float64), oi: wp.array2d(dtype=wp.int64)):
    i = wp.tid()
    h = halve(x[i])
    v = spread(h)
    m = diag(v)
    q = ints(k[i])
    out[i, 0] = h
    out[i, 1] = v[1]
    out[i, 2] = wp.determinant(m)
    out[i, 3] = (m * v)[2]
    out[i, 4] = wp.float64(q[0] + q[1] + q[2] * q[3])
    out[i, 5] = wp.where(small(wp.float32(x[i])), wp.float64(1.0), wp.float64(-1.0))
    oi[i, 0] = mix(k[i], wp.uint32(k[i] + wp.int64(7)))
    oi[i, 1] = wp.int64(q[3])
