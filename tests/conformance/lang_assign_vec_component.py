# Augmented assignment on vector components of locals: v[0] += a, v.y -= b, v[k] *= c
# with a run-time index, v.z /= d, integer vector components //= and %= , and
# whole-vector augmented ops.
# kern-test: lang_assign_vec_component --dim 5 x='rand(float,5,seed=601)' k='rand(int32,5,seed=602)' ov='zeros(vec3,5)' oi='zeros(vec3i,5)'
# kern-check: ov
# kern-check: oi
import warp as wp


@wp.kernel
def lang_assign_vec_component(x: wp.array(dtype=float), k: wp.array(dtype=int), ov: wp.array(dtype=wp.vec3),
                              oi: wp.array(dtype=wp.vec3i)):
    i = wp.tid()
    v = wp.vec3(1.0, 2.0, 3.0)
    v[0] += x[i]
    v.y -= x[i] * 2.0
    j = k[i] % 3
    v[j] *= 3.0
    v.z /= 4.0
    v += wp.vec3(x[i])
    v *= 0.5
    ov[i] = v
    w = wp.vec3i(k[i], k[i] + 7, -k[i])
    w[0] //= 4
    w.y %= 5
    w[2] -= i
    w[j] += 100
    oi[i] = w
