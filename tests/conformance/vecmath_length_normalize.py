# length, length_sq, normalize (incl. the zero vector, which Warp normalizes to zero).
# kern-test: vecmath_length_normalize --dim 6 a='arange(vec3,6)' b='rand(vec2d,6,seed=32)' ol='zeros(float32,6,2)' on='zeros(vec3,6)' od='zeros(float64,6,2)' ond='zeros(vec2d,6)'
# why: length/normalize use sqrt and division, which may be computed with different (but correctly rounded or 1-ulp) instructions.
# kern-check: ol rtol=2e-6
# kern-check: on rtol=2e-6
# kern-check: od
# kern-check: ond
import warp as wp


@wp.kernel
def vecmath_length_normalize(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec2d), ol: wp.array2d(dtype=wp.float32),
                             on: wp.array(dtype=wp.vec3), od: wp.array2d(dtype=wp.float64),
                             ond: wp.array(dtype=wp.vec2d)):
    i = wp.tid()
    v = a[i] - wp.vec3(0.0, 1.0, 2.0)    # zero vector for i == 0
    ol[i, 0] = wp.length(v)
    ol[i, 1] = wp.length_sq(v)
    on[i] = wp.normalize(v)
    od[i, 0] = wp.length(b[i])
    od[i, 1] = wp.length_sq(b[i])
    ond[i] = wp.normalize(b[i])
