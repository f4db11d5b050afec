# Autodiff of the scalar builtins with rules added later: the error
# functions, copysign and float mod, in float32.
# kern-test: math_extra --adjoint --dim 16 a='arange(float32,16)' b='arange(float32,16)' out='zeros(float32,16,7)' adj_a='zeros(float32,16)' adj_b='zeros(float32,16)' adj_out='ones(float32,16,7)'
# why: Warp's adj_erf, adj_erfc, adj_erfinv, adj_erfcinv (from the result), adj_copysign (the sign bits), adj_mod (a only)
# kern-check: adj_a rtol=2e-5 atol=1e-5
# kern-check: adj_b rtol=2e-5 atol=1e-5
import warp as wp


@wp.kernel
def math_extra(a: wp.array(dtype=float), b: wp.array(dtype=float), out: wp.array2d(dtype=float)):
    i = wp.tid()
    x = a[i] * 0.06 - 0.45
    y = b[i] * 0.2 - 1.5
    out[i, 0] = wp.erf(x * 2.0) * y + wp.erfc(y)
    out[i, 1] = wp.erfinv(x) * 3.0 + wp.erfinv(y * 0.5)
    out[i, 2] = wp.erfcinv(x + 1.0) * y
    out[i, 3] = wp.copysign(x * 3.0, y) + wp.copysign(y, x)
    out[i, 4] = wp.copysign(y * y, -0.0) + wp.copysign(x, 0.0)
    out[i, 5] = wp.mod(y * 3.0, 0.7) + wp.mod(2.5, x + 1.0)
    out[i, 6] = (x * 5.0) % (y + 2.0)
