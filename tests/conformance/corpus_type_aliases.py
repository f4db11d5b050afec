# Module-level names bound to types, as Warp's tests write them: Warp's custom
# vector and matrix types (wp.types.vector(length=3, dtype=...),
# wp.types.matrix(shape=(2, 3), dtype=...), length/shape and dtype positional, a wp.constant
# length), and plain aliases (V = wp.vec3); each used as a constructor, as an
# array's dtype (the alias), as a @wp.func annotation and in wp.types.vector(...) calls.
# kern-test: corpus_type_aliases --dim 4 x='arange(float32,4)' vs='zeros(vec3,4)' out='zeros(float32,4,5)'
# kern-check: vs
# kern-check: out
import warp as wp

LEN = wp.constant(3)
vec3f_type = wp.types.vector(length=LEN, dtype=wp.float32)
vec3b_type = wp.types.vector(length=3, dtype=bool)
vec3b_pos = wp.types.vector(3, wp.bool)
mat22b_pos = wp.types.matrix((2, 2), dtype=bool)
vec2i_type = wp.types.vector(2, dtype=wp.int32)
mat23 = wp.types.matrix(shape=(2, 3), dtype=float)
V = wp.vec3
V2 = V


@wp.func
def total(v: vec3f_type, m: mat23) -> float:
    return v[0] + v[1] + v[2] + m[1, 2]


@wp.kernel
def corpus_type_aliases(x: wp.array(dtype=float), vs: wp.array(dtype=V), out: wp.array2d(dtype=float)):
    i = wp.tid()
    v = vec3f_type(x[i], 2.0, 3.0)
    vs[i] = v + V2(1.0, 1.0, 1.0)
    b = vec3b_type(True, False, x[i] > 1.5)
    m = mat23(1.0, 2.0, 3.0, 4.0, 5.0, x[i])
    out[i, 0] = total(v, m)
    bp = vec3b_pos(b[2], True, False)
    mb = mat22b_pos(bp[0], False, False, True)
    out[i, 1] = float(b[2]) + float(mb[0, 0]) * 10.0
    n = vec2i_type(3, 4)
    out[i, 2] = float(n[0] * n[1])
    z = wp.types.vector(length=3, dtype=float)
    out[i, 3] = wp.length(z + V(x[i], 0.0, 0.0))
    out[i, 4] = m[0, 1] + mat23()[1, 1]
