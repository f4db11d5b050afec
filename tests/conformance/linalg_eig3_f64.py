# wp.eig3 on float64 matrices (8 Jacobi sweeps), both forms: random
# symmetric matrices, a diagonal one and one with a repeated eigenvalue.
# kern-test: linalg_eig3_f64 --dim 8 a='rand(mat33d,8,seed=38)' oq='zeros(mat33d,8)' od='zeros(vec3d,8)' od2='zeros(vec3d,8)'
# kern-check: oq
# kern-check: od
# kern-check: od2
import warp as wp


@wp.kernel
def linalg_eig3_f64(a: wp.array(dtype=wp.mat33d), oq: wp.array(dtype=wp.mat33d), od: wp.array(dtype=wp.vec3d),
                    od2: wp.array(dtype=wp.vec3d)):
    i = wp.tid()
    r = a[i]
    m = r + wp.transpose(r)
    if i == 0:
        m = wp.mat33d(wp.float64(-1.0), wp.float64(0.0), wp.float64(0.0), wp.float64(0.0), wp.float64(5.0),
                      wp.float64(0.0), wp.float64(0.0), wp.float64(0.0), wp.float64(2.0))
    if i == 1:
        m = wp.mat33d(wp.float64(4.0), wp.float64(1.0), wp.float64(1.0), wp.float64(1.0), wp.float64(4.0),
                      wp.float64(1.0), wp.float64(1.0), wp.float64(1.0), wp.float64(4.0))
    Q, d = wp.eig3(m)
    oq[i] = Q
    od[i] = d
    q = wp.mat33d()
    e = wp.vec3d()
    wp.eig3(m * wp.float64(2.0), q, e)
    od2[i] = e
