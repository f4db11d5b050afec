# `a[i] += v` and `a[i] -= v` on array elements are atomic in Warp: many threads update
# the same slots; the final values are order-independent (ints, exactly representable floats).
# kern-test: augassign_array_atomic --dim 64 acc='zeros(int32,4)' accf='zeros(float32,2)' accv='zeros(vec2,1)' acc2='zeros(int64,2,2)' own='ones(float32,64)'
# kern-check: acc
# kern-check: accf
# kern-check: accv
# kern-check: acc2
# kern-check: own
import warp as wp


@wp.kernel
def augassign_array_atomic(acc: wp.array(dtype=wp.int32), accf: wp.array(dtype=wp.float32),
                           accv: wp.array(dtype=wp.vec2), acc2: wp.array2d(dtype=wp.int64),
                           own: wp.array(dtype=wp.float32)):
    i = wp.tid()
    acc[i % 4] += i
    acc[0] -= 1
    accf[0] += 0.25
    accf[1] -= float(i)
    accv[0] += wp.vec2(1.0, 0.5)
    acc2[i % 2, (i // 2) % 2] += wp.int64(i)
    own[i] *= 3.0
    own[i] += 0.5
