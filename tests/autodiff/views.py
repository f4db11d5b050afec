# Autodiff through array views (Warp's x[i] of a 2-d array, a slice of a
# view): the adjoint of a view is the same view of the adjoint array
# (Note [adjoint views] in src/ir/adjoint.c).  Rows are read and stored
# through views, an element is also read directly beside them, and a
# slice of a view with a start is read.
# kern-test: views --adjoint --dim 6 x='rand(float32,4,6,seed=71)' z='rand(float32,3,4,7,seed=72)' y='zeros(float32,4,6)' w='zeros(float32,6)' r=2 adj_x='zeros(float32,4,6)' adj_z='zeros(float32,3,4,7)' adj_y='full(float32,4,6,1.5)' adj_w='arange(float32,6)' adj_r=0
# kern-check: adj_x
# kern-check: adj_z
# kern-check: adj_y
import warp as wp


@wp.kernel
def views(x: wp.array2d(dtype=float), z: wp.array3d(dtype=float), y: wp.array2d(dtype=float),
          w: wp.array(dtype=float), r: int):
    i = wp.tid()
    xr = x[r]
    yr = y[r]
    yr[i] = xr[i] * xr[i] + wp.sin(x[r, i])
    zs = z[1]
    zc = zs[:, 1:]
    w[i] = zc[r, i] * 3.0 + zc[0, i] * xr[i]
