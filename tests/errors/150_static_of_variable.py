# expect: 8:28: error: wp.static() needs an expression kern can evaluate at compile time (numbers, booleans, module-level constants and arithmetic on them); 'i' is a variable
import warp as wp


@wp.kernel
def k(a: wp.array(dtype=float)):
    i = wp.tid()
    a[i] = wp.static(float(i) * 2.0)
