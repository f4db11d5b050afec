# wp.qr3 on float64 matrices, both forms: random matrices, an upper
# triangular one with a negative pivot and a singular one.
# kern-test: linalg_qr3_f64 --dim 8 a='rand(mat33d,8,seed=36)' oq='zeros(mat33d,8)' orr='zeros(mat33d,8)' orr2='zeros(mat33d,8)'
# kern-check: oq
# kern-check: orr
# kern-check: orr2
import warp as wp


@wp.kernel
def linalg_qr3_f64(a: wp.array(dtype=wp.mat33d), oq: wp.array(dtype=wp.mat33d), orr: wp.array(dtype=wp.mat33d),
                   orr2: wp.array(dtype=wp.mat33d)):
    i = wp.tid()
    h = wp.float64(0.5)
    m = a[i] - wp.mat33d(h, h, h, h, h, h, h, h, h)
    if i == 0:
        m = wp.mat33d(wp.float64(-1.0), wp.float64(2.0), wp.float64(0.0), wp.float64(0.0), wp.float64(-3.0),
                      wp.float64(1.0), wp.float64(0.0), wp.float64(0.0), wp.float64(2.0))
    if i == 1:
        m = wp.mat33d(wp.float64(1.0), wp.float64(2.0), wp.float64(3.0), wp.float64(2.0), wp.float64(4.0),
                      wp.float64(6.0), wp.float64(0.0), wp.float64(0.0), wp.float64(1.0))
    Q, R = wp.qr3(m)
    oq[i] = Q
    orr[i] = R
    q = wp.mat33d()
    r = wp.mat33d()
    wp.qr3(m * wp.float64(-1.0), q, r)
    orr2[i] = r
