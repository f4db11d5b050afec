# wp.constant vectors and matrices indexed with loop variables and run-time values
# (unrolled and dynamic loops), a constant matrix row taken whole, and a module-level
# int constant as a dynamic loop bound mixed with a run-time start.
# kern-test: lang_const_vec_loop_index --dim 5 k='rand(int32,5,seed=1031)' out='zeros(float,5,4)'
# kern-check: out
import warp as wp

WEIGHTS = wp.constant(wp.vec4(0.1, 0.2, 0.3, 0.4))
TABLE = wp.constant(wp.mat33(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0))
LEN = 4


@wp.kernel
def lang_const_vec_loop_index(k: wp.array(dtype=int), out: wp.array2d(dtype=float)):
    i = wp.tid()
    s = float(0.0)
    for j in range(4):
        s += WEIGHTS[j] * float(j + i)
    out[i, 0] = s
    t = float(0.0)
    for j in range(k[i] % 3, LEN):
        t += WEIGHTS[j]
    out[i, 1] = t
    r = k[i] % 3
    row = TABLE[r]
    out[i, 2] = row[0] + row[2] * 10.0
    out[i, 3] = TABLE[r, (r + 1) % 3] + WEIGHTS[k[i] % 4]
