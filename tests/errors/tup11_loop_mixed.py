# expect: 10:22: error: kern indexes a tuple with a loop variable only when its items have one type (this one is tuple(int32, float32, int32)); Warp unrolls the loop, kern does not
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    t = (1, 2.5, 3)
    s = float(0.0)
    for i in range(3):
        s += float(t[i])
    a[0] = s
