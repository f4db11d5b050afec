# Autodiff of wp.curlnoise whose lacunarity and gain are computed from an
# array (Note [noise adjoints] in src/ir/adjoint.c): Warp's adjoint gives
# them no gradient (Warp documents it), so b, which reaches only them,
# gets 0, while the coordinate's gradient flows as in bi_noise_curl.py.
# Forward mode differentiates in them too (python/tests/test_jvp.py): o2
# moves with b only.
# kern-test: bi_noise_curl_octaves --adjoint --dim 16 b='rand(float32,16,seed=291)' p3='rand(vec3,16,seed=292)' p4='rand(vec4,16,seed=293)' o2='zeros(vec2,16)' o3='zeros(vec3,16,2)' adj_b='zeros(float32,16)' adj_p3='zeros(vec3,16)' adj_p4='zeros(vec4,16)' adj_o2='rand(vec2,16,seed=294)' adj_o3='rand(vec3,16,2,seed=295)'
# kern-check: adj_b rtol=0 atol=0
# kern-check: adj_p3
# kern-check: adj_p4
import warp as wp


@wp.kernel
def bi_noise_curl_octaves(
    b: wp.array(dtype=float),
    p3: wp.array(dtype=wp.vec3),
    p4: wp.array(dtype=wp.vec4),
    o2: wp.array(dtype=wp.vec2),
    o3: wp.array2d(dtype=wp.vec3),
):
    i = wp.tid()
    lac = 1.5 + b[i] * 0.3
    gain = 0.3 + b[i] * 0.3
    x3 = (p3[i] - wp.vec3(0.5, 0.5, 0.5)) * 1.5
    o2[i] = wp.curlnoise(wp.rand_init(5, i), wp.vec2(0.3 + float(i) * 0.05, -0.4), wp.uint32(3), lac, gain)
    o3[i, 0] = wp.curlnoise(wp.rand_init(3, i), x3, wp.uint32(2), lac, 0.5)
    x4 = (p4[i] - wp.vec4(0.5, 0.5, 0.5, 0.5)) * 1.5
    o3[i, 1] = wp.curlnoise(wp.rand_init(i * 13), x4, wp.uint32(2), 1.7, gain)
