# Autodiff of wp.curlnoise in 2, 3 and 4 dimensions (Note [noise
# adjoints] in src/ir/adjoint.c): Warp's adjoint is the transposed
# Jacobian of the summed octaves in the coordinate, from the fields'
# analytic Hessians.  Default and explicit octaves, lacunarity and gain
# (constants here: bi_noise_curl_octaves.py takes them from an array),
# several seeds.
# kern-test: bi_noise_curl --adjoint --dim 16 p2='rand(vec2,16,seed=282)' p3='rand(vec3,16,seed=283)' p4='rand(vec4,16,seed=284)' o2='zeros(vec2,16,2)' o3='zeros(vec3,16,4)' adj_p2='zeros(vec2,16)' adj_p3='zeros(vec3,16)' adj_p4='zeros(vec4,16)' adj_o2='rand(vec2,16,2,seed=285)' adj_o3='rand(vec3,16,4,seed=286)'
# kern-check: adj_p2
# kern-check: adj_p3
# kern-check: adj_p4
import warp as wp


@wp.kernel
def bi_noise_curl(
    p2: wp.array(dtype=wp.vec2),
    p3: wp.array(dtype=wp.vec3),
    p4: wp.array(dtype=wp.vec4),
    o2: wp.array2d(dtype=wp.vec2),
    o3: wp.array2d(dtype=wp.vec3),
):
    i = wp.tid()
    s = wp.rand_init(2468, i)
    x2 = (p2[i] - wp.vec2(0.5, 0.5)) * 3.0
    o2[i, 0] = wp.curlnoise(s, x2)
    o2[i, 1] = wp.curlnoise(wp.rand_init(5), x2 * 0.5, wp.uint32(3), 2.0, 0.5)
    x3 = (p3[i] - wp.vec3(0.5, 0.5, 0.5)) * 3.0
    o3[i, 0] = wp.curlnoise(s, x3)
    o3[i, 1] = wp.curlnoise(wp.rand_init(77, i), x3 * 0.5, wp.uint32(2), 1.5, 0.6) * x3[0]
    x4 = (p4[i] - wp.vec4(0.5, 0.5, 0.5, 0.5)) * 3.0
    o3[i, 2] = wp.curlnoise(s, x4)
    o3[i, 3] = wp.curlnoise(wp.rand_init(i * 13), x4 * 0.5, wp.uint32(3), 2.0, 0.4)
