# Autodiff through fixed-size local arrays (wp.zeros() in a kernel; Note
# [adjoint fixed arrays] in src/ir/adjoint.c) whose values enter the
# result linearly, so Warp's gradient (whose replay reads the arrays as
# zeros) is the derivative: a float array stored from the inputs and
# added into in a loop Warp does not unroll, a 2-d int array of indices
# (which the replay also reads as zeros, as Warp's), and a @wp.func
# summing the array.
# kern-test: fixed_linear --adjoint --dim 5 x='arange(float32,5)' w='rand(float32,3,seed=81)' n=4 y='zeros(float32,5)' adj_x='zeros(float32,5)' adj_w='zeros(float32,3)' adj_n=0 adj_y='arange(float32,5)'
# kern-check: adj_x
# kern-check: adj_w
# kern-check: adj_y
import warp as wp


@wp.func
def fsum(t: wp.array(dtype=float), c: float) -> float:
    s = float(0.0)
    for j in range(4):
        s += t[j] * c
    return s


@wp.kernel
def fixed_linear(x: wp.array(dtype=float), w: wp.array(dtype=float), n: int, y: wp.array(dtype=float)):
    i = wp.tid()
    t = wp.zeros(shape=4, dtype=float)
    idx = wp.zeros(shape=(2, 3), dtype=int)
    for k in range(3):
        idx[1, k] = (i + k) % 3
        t[k] = x[i] * w[idx[1, k]]
    for k in range(n):
        t[k % 4] += x[i] * 2.0 + w[k % 3]
    y[i] = fsum(t, 3.0) + t[2] - t[idx[1, 1]] * 0.5
