# Bit operators on integer vectors, componentwise as in Warp: & | ^ << >> and
# ~ on vec3i, the augmented forms on a local (&=, ^=), and unsigned vectors.
# kern-test: vec_bitops --dim 8 vi='rand(vec3i,8,seed=61)' o='zeros(vec3i,8,8)'
# kern-check: o
import warp as wp


@wp.kernel
def vec_bitops(vi: wp.array(dtype=wp.vec3i), o: wp.array2d(dtype=wp.vec3i)):
    i = wp.tid()
    v = vi[i] - wp.vec3i(50, 20, 0)
    w = wp.vec3i(3, 5, 6 + i)
    o[i, 0] = v & w
    o[i, 1] = v | w
    o[i, 2] = v ^ w
    o[i, 3] = v << wp.vec3i(1, 2, 3)
    o[i, 4] = v >> wp.vec3i(1, 2, 3)
    o[i, 5] = ~v
    u = v
    u &= w
    u ^= wp.vec3i(1, 1, 1)
    o[i, 6] = u
    x = wp.vec2ui(wp.uint32(5 + i), wp.uint32(12))
    x ^= wp.vec2ui(wp.uint32(3), wp.uint32(3))
    x = x << wp.vec2ui(wp.uint32(30), wp.uint32(1))
    o[i, 7] = wp.vec3i(int(x[0] >> wp.uint32(28)), int(x[1]), int((~x)[0] & wp.uint32(255)))
