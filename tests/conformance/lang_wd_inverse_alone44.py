# wp.inverse of a constructed mat44 (float32) and mat33d as the only matrix operations of
# a kernel, stored straight to arrays (kern once called an undeclared zero-matrix
# helper in this situation); the matrices depend on the thread and on an input.
# kern-test: lang_wd_inverse_alone44 --dim 3 x='rand(float,3,seed=801)' o4='zeros(mat44,3)' o3='zeros(mat33d,3)'
# kern-check: o4
# kern-check: o3
import warp as wp


@wp.kernel
def lang_wd_inverse_alone44(x: wp.array(dtype=float), o4: wp.array(dtype=wp.mat44), o3: wp.array(dtype=wp.mat33d)):
    i = wp.tid()
    s = x[i] + 1.0
    o4[i] = wp.inverse(wp.mat44(s, 1.0, 0.0, 0.0, 0.0, 2.0, float(i), 0.0, 0.0, 0.0, 4.0, 1.0, 1.0, 0.0, 0.0, 3.0))
    o3[i] = wp.inverse(wp.mat33d(wp.float64(s), wp.float64(0.5), wp.float64(0.0),
                                 wp.float64(0.0), wp.float64(2.0), wp.float64(i),
                                 wp.float64(1.0), wp.float64(0.0), wp.float64(3.0)))
