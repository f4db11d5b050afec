# expect: 11:12: error: 'S' (line 5) is a module-level value kern cannot evaluate at compile time; kernels can use module-level numbers, booleans, wp.constant() values and arithmetic on them; numpy.sin is not evaluated at compile time (of numpy, only its scalar types and sqrt, abs, fabs, floor, ceil and trunc are); use math.sin
import numpy as np
import warp as wp

S = float(np.sin(0.5))


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = S
