# wp.atomic_min / atomic_max on int32, float32, float64; the returned old value on an owned slot.
# kern-test: atomic_min_max --dim 40 x='rand(float32,40,seed=38)' k='rand(int32,40,seed=39)' mn='full(float32,1,10)' mx='full(float32,1,-10)' mni='full(int32,1,1000)' mxi='full(int32,1,-1000)' mxd='zeros(float64,1)' own='full(int32,40,50)' old='zeros(int32,40,2)'
# kern-check: mn
# kern-check: mx
# kern-check: mni
# kern-check: mxi
# kern-check: mxd
# kern-check: own
# kern-check: old
import warp as wp


@wp.kernel
def atomic_min_max(x: wp.array(dtype=wp.float32), k: wp.array(dtype=wp.int32), mn: wp.array(dtype=wp.float32),
                   mx: wp.array(dtype=wp.float32), mni: wp.array(dtype=wp.int32), mxi: wp.array(dtype=wp.int32),
                   mxd: wp.array(dtype=wp.float64), own: wp.array(dtype=wp.int32), old: wp.array2d(dtype=wp.int32)):
    i = wp.tid()
    wp.atomic_min(mn, 0, x[i])
    wp.atomic_max(mx, 0, x[i])
    wp.atomic_min(mni, 0, k[i] - 50)
    wp.atomic_max(mxi, 0, k[i] - 50)
    wp.atomic_max(mxd, 0, wp.float64(x[i]) * wp.float64(3.0))
    old[i, 0] = wp.atomic_min(own, i, k[i])
    old[i, 1] = wp.atomic_max(own, i, i)
