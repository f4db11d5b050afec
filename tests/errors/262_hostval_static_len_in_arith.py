# expect: 8:22: error: wp.static() needs an expression kern can evaluate at compile time (numbers, booleans, module-level constants and arithmetic on them)
import warp as wp


@wp.kernel
def k(o: wp.array(dtype=int)):
    v = wp.vec4(1.0, 2.0, 3.0, 4.0)
    o[0] = wp.static(len(v) * 10)
