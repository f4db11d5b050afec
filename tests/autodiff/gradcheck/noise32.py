# kern gradcheck kernels (gradcheck.sh): Perlin noise, whose adjoints
# (Warp's analytic gradient and, for curlnoise, its Jacobian from the
# fields' Hessians; Note [noise adjoints] in src/ir/adjoint.c) are the
# derivatives in the coordinate, in float32 (noise has no float64 form).
# curlk's lacunarity and gain are constants: Warp gives them no gradient.
import warp as wp


@wp.kernel
def noisek(x: wp.array(dtype=float), v: wp.array(dtype=wp.vec4), out: wp.array2d(dtype=float)):
    i = wp.tid()
    s = wp.rand_init(7, i)
    p = v[i] * 2.0
    out[i, 0] = wp.noise(s, x[i] * 2.0) + wp.pnoise(s, x[i] * 3.0, 2)
    out[i, 1] = wp.noise(s, wp.vec2(p[0], x[i])) + wp.pnoise(s, wp.vec2(p[1], p[2]), 3, 1)
    out[i, 2] = wp.noise(s, wp.vec3(p[0], p[1], p[2])) * wp.pnoise(s, wp.vec3(p[3], x[i], p[0]), 2, 3, 4)
    out[i, 3] = wp.noise(s, p) + wp.pnoise(s, p, 3, 2, 2, 5)


@wp.kernel
def curlk(v: wp.array(dtype=wp.vec4), o2: wp.array(dtype=wp.vec2), o3: wp.array2d(dtype=wp.vec3)):
    i = wp.tid()
    s = wp.rand_init(11, i)
    p = v[i] * 1.5
    o2[i] = wp.curlnoise(s, wp.vec2(p[0], p[1]), wp.uint32(2), 2.0, 0.5)
    o3[i, 0] = wp.curlnoise(s, wp.vec3(p[1], p[2], p[3]))
    o3[i, 1] = wp.curlnoise(s, p, wp.uint32(2), 1.7, 0.6)
