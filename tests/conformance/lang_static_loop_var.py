# wp.static() of a loop variable: Warp unrolls a loop of constant range() bounds whose
# body evaluates wp.static() of its variable, each copy seeing that trip's value (a
# module-level name of the same name is hidden by the loop variable), also in nested
# loops, a nested loop reusing the variable's name, and a negative step.  (After the
# loops Warp 1.19 evaluates wp.static(j) with the module-level j; kern refuses that.)
# Also wp.static(len(v)) of a vector or matrix variable: its type's length.
# kern-test: lang_static_loop_var --dim 2 out='zeros(int32,2,24)'
# kern-check: out
import warp as wp

j = 999
k = 888
TABLE = {"scale": 3}


@wp.kernel
def lang_static_loop_var(out: wp.array2d(dtype=int)):
    t = wp.tid()
    for j in range(3):
        out[t, j] = wp.static(j * 10) + t
    for j in range(2):
        for k in range(2):
            out[t, 3 + j * 2 + k] = wp.static(j * 10 + k * wp.static(TABLE["scale"]))
    for j in range(2):
        for j in range(3, 5):
            out[t, 4 + j] = wp.static(j)
    for j in range(11, 3, -3):
        out[t, j] = wp.static(j) + 100
    acc = int(0)
    for j in range(4):
        acc += wp.static(1 << j)
    out[t, 12] = acc
    v = wp.vec4(1.0, 2.0, 3.0, 4.0)
    m = wp.mat33()
    out[t, 13] = wp.static(len(v)) * 10 + wp.static(len(m))
