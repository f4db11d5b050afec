# Repeated reads of one element (Note [shared loads] in src/ir/passes.c):
# the adjoint adds into adj_x[i] once for reads it can prove equal, and
# reads again after a store, through another index variable, or in a
# selection's arm.
# kern-test: shared_loads --adjoint --dim 16 x='arange(float32,16)' y='zeros(float32,16)' out='zeros(float32,16)' adj_x='zeros(float32,16)' adj_y='zeros(float32,16)' adj_out='ones(float32,16)'
# why: the sharing must not change a gradient: a store between two reads, an index copied and shifted, a conditional read
# kern-check: adj_x rtol=2e-5 atol=1e-5
# kern-check: adj_y rtol=2e-5 atol=1e-5
import warp as wp


@wp.kernel
def shared_loads(x: wp.array(dtype=float), y: wp.array(dtype=float), out: wp.array(dtype=float)):
    i = wp.tid()
    a = x[i] * x[i] * 0.01
    y[i] = a * x[i]
    b = x[i] + y[i] * x[i]
    j = i
    c = x[j] * 2.0 + x[i] * x[j]
    q = (i + 3) % 16
    d = x[q] * x[q]
    out[i] = a + b + c + d + (x[i] if a > 0.5 else y[i] * x[i])
