# expect: 11:12: error: 'TABLE' (line 5) is a module-level value kern cannot evaluate at compile time; kernels can use module-level numbers, booleans, wp.constant() values and arithmetic on them; numpy.linspace is not evaluated at compile time (of numpy, only its scalar types and sqrt, abs, fabs, floor, ceil and trunc are)
import warp as wp
import numpy as np

TABLE = np.linspace(0.0, 1.0, 8)


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = TABLE
