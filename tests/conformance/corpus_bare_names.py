# Builtins written without the `wp.` prefix, which Warp looks up among its
# builtins when the module does not define the name (Warp's own tests write
# expect_eq(...), vec3(...), dot(...) so), and Warp's types module
# (wp.types.vector(...), wp.types.matrix(...)) as a constructor. A local
# variable or @wp.func of the same name still wins. (A bare tid() Warp does
# not resolve.)
# kern-test: corpus_bare_names --dim 4 x='arange(float32,4)' out='zeros(float32,4,5)'
# kern-check: out
import warp as wp


@wp.func
def length(v: wp.vec3) -> float:
    # shadows the builtin wp.length for bare calls
    return v[0] + v[1] + v[2]


@wp.kernel
def corpus_bare_names(x: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    v = vec3(x[i], 1.0, 2.0)
    m = mat22(1.0, 2.0, 3.0, x[i])
    expect_eq(v[1], 1.0)
    out[i, 0] = dot(v, v) + sqrt(x[i])
    out[i, 1] = length(v)
    out[i, 2] = wp.length(v)
    w = wp.types.vector(x[i], 3.0, dtype=float)
    n = wp.types.matrix(1.0, 2.0, 3.0, 4.0, shape=(2, 2), dtype=float)
    out[i, 3] = w[0] * w[1] + n[1, 0] + m[1, 1]
    sin = 2.0
    out[i, 4] = sin * x[i]
