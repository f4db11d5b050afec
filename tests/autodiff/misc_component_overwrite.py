# Autodiff of a vector, matrix or quaternion component assigned more than
# once (issue #26): kern gives the derivative, which is Warp 1.19's
# gradient with wp.config.enable_vector_component_overwrites = True (set
# below; kern reads no wp.config and always behaves so).  Warp's default
# instead passes the component's last adjoint to every assignment of it
# (docs/language.md, the autodiff section).
# kern-test: misc_component_overwrite --adjoint --dim 4 a='rand(float32,4,seed=3)' out='zeros(float32,4,4)' adj_a='zeros(float32,4)' adj_out='ones(float32,4,4)'
# why: the goldens are Warp's with component overwrites enabled, whose gradient is the derivative
# kern-check: adj_a rtol=1e-5 atol=1e-6
import warp as wp

wp.config.enable_vector_component_overwrites = True


@wp.kernel
def misc_component_overwrite(a: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    v = a[i] + 0.5
    # a matrix element assigned twice with a read of it between
    m = wp.mat22(0.0)
    m[1, 1] = 2.0
    m[0, 0] = v * 0.5
    m[0, 0] = m[0, 0] + 1.5
    out[i, 0] = m[0, 0] * m[1, 1]
    # a vector component overwritten without a read
    w = wp.vec2(0.0)
    w[0] = v * 0.5
    w[0] = v * 3.0
    out[i, 1] = w[0] * 2.0 + w[1]
    # a sum carried in a component by an unrolled loop
    u = wp.vec3(0.0)
    for k in range(3):
        u[1] = u[1] + v * float(k + 1)
    out[i, 2] = u[1] * u[1]
    # a quaternion component: a product of its old value
    q = wp.quat(0.0, 0.0, 0.0, 1.0)
    q[0] = v * 0.5
    q[0] = q[0] * v
    out[i, 3] = q[0] + q[3]
