# Autodiff of loops: a constant range (unrolled, as Warp does) and a
# dynamic range whose body reads arrays and sums into a loop-carried
# variable (Warp's replay in reverse).
# kern-test: loops --adjoint --dim 4 a='arange(float32,4)' w='arange(float32,8)' n=5 out='zeros(float32,4)' adj_a='zeros(float32,4)' adj_w='zeros(float32,8)' adj_n=0 adj_out='ones(float32,4)'
# kern-check: adj_a
# kern-check: adj_w
import warp as wp


@wp.kernel
def loops(a: wp.array(dtype=float), w: wp.array(dtype=float), n: int, out: wp.array(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.5
    p = float(1.0)
    for k in range(3):
        p = p * (x + float(k))
    s = float(0.0)
    for j in range(n):
        t = w[j] * x
        s = s + wp.sin(t) + w[j + 1] * 0.5
    out[i] = p + s
