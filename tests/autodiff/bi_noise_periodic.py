# Autodiff of wp.pnoise in 1 to 4 dimensions (Note [noise adjoints] in
# src/ir/adjoint.c): the gradient of the periodic field in the
# coordinate, as Warp's adjoint computes it; the periods, integers, get
# none.  Small periods (1 to 3, and a period from a parameter) make the
# lattice wrap within the coordinates' range, negative coordinates too.
# kern-test: bi_noise_periodic --adjoint --dim 16 a='rand(float32,16,seed=271)' p2='rand(vec2,16,seed=272)' p3='rand(vec3,16,seed=273)' p4='rand(vec4,16,seed=274)' per=3 out='zeros(float32,16,5)' adj_a='zeros(float32,16)' adj_p2='zeros(vec2,16)' adj_p3='zeros(vec3,16)' adj_p4='zeros(vec4,16)' adj_out='rand(float32,16,5,seed=275)' adj_per=0
# kern-check: adj_a
# kern-check: adj_p2
# kern-check: adj_p3
# kern-check: adj_p4
import warp as wp


@wp.kernel
def bi_noise_periodic(
    a: wp.array(dtype=float),
    p2: wp.array(dtype=wp.vec2),
    p3: wp.array(dtype=wp.vec3),
    p4: wp.array(dtype=wp.vec4),
    per: int,
    out: wp.array2d(dtype=float),
):
    i = wp.tid()
    s = wp.rand_init(4321, i)
    x = (a[i] - 0.5) * 4.0
    out[i, 0] = wp.pnoise(s, x, per) + wp.pnoise(s, x * 1.5, 5) * x
    out[i, 1] = wp.pnoise(s, (p2[i] - wp.vec2(0.5, 0.5)) * 3.0, 2, per)
    q = (p3[i] - wp.vec3(0.5, 0.5, 0.5)) * 3.0
    out[i, 2] = wp.pnoise(s, q, per, 1, 4)
    out[i, 3] = wp.pnoise(s, (p4[i] - wp.vec4(0.5, 0.5, 0.5, 0.5)) * 3.0, 2, 3, per, 5)
    out[i, 4] = wp.pnoise(wp.rand_init(11), wp.vec4(x, q[1], q[2], x * q[0]), 3, 2, 2, 4) * q[2]
