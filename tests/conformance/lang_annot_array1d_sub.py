# Subscript annotations for 1-d arrays of every element kind: wp.array[float],
# wp.array[wp.int32], wp.array1d[wp.vec2], wp.array[wp.mat22], wp.array[wp.uint8] and
# wp.array[bool], read and written in one kernel.
# kern-test: lang_annot_array1d_sub --dim 6 x='rand(float,6,seed=11)' k='arange(int32,6)' v='rand(vec2,6,seed=12)' m='rand(mat22,6,seed=13)' u='rand(uint8,6,seed=14)' b='rand(bool,6,seed=15)' out='zeros(float,6)' ov='zeros(vec2,6)' om='zeros(mat22,6)' ou='zeros(uint8,6)'
# kern-check: out
# kern-check: ov
# kern-check: om
# kern-check: ou
import warp as wp


@wp.kernel
def lang_annot_array1d_sub(
    x: wp.array[float],
    k: wp.array[wp.int32],
    v: wp.array1d[wp.vec2],
    m: wp.array[wp.mat22],
    u: wp.array[wp.uint8],
    b: wp.array[bool],
    out: wp.array[float],
    ov: wp.array1d[wp.vec2],
    om: wp.array[wp.mat22],
    ou: wp.array[wp.uint8],
):
    i = wp.tid()
    s = x[i] * float(k[i] + 1)
    if b[i]:
        s = -s
    out[i] = s
    ov[i] = m[i] * v[i] + wp.vec2(s, 1.0)
    om[i] = wp.transpose(m[i]) * x[i]
    ou[i] = u[i] * wp.uint8(3) + wp.uint8(k[i])
