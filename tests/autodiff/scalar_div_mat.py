# A scalar divided by a matrix (Warp's div(s, m): s / m[i, j] component by
# component) and by a vector, differentiated through the expansion into
# scalar IR: both operands get their gradients.
# kern-test: scalar_div_mat --adjoint --dim 3 m='rand(mat22,3,seed=91)' s='rand(float32,3,seed=92)' y='zeros(mat22,3)' z='zeros(vec3,3)' adj_m='zeros(mat22,3)' adj_s='zeros(float32,3)' adj_y='rand(mat22,3,seed=93)' adj_z='ones(vec3,3)'
# kern-check: adj_m
# kern-check: adj_s
import warp as wp


@wp.kernel
def scalar_div_mat(m: wp.array(dtype=wp.mat22), s: wp.array(dtype=float), y: wp.array(dtype=wp.mat22),
                   z: wp.array(dtype=wp.vec3)):
    i = wp.tid()
    d = m[i] + wp.mat22(1.0, 1.0, 1.0, 1.0)
    y[i] = (s[i] + 0.5) / d
    z[i] = 2.0 / wp.vec3(d[0, 0], d[1, 1], s[i] + 1.0)
