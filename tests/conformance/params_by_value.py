# Scalars, vectors and matrices passed by value as kernel parameters.
# kern-test: params_by_value --dim 4 f=1.25 d=-0.5 n=-3 u=250 b=false v=1,2,3 vi=4,5 m=1,2,3,4 md=1,0,0,0,2,0,0,0,3 out='zeros(float32,4,4)' od='zeros(float64,4,2)' oi='zeros(int32,4,3)'
# kern-check: out
# kern-check: od
# kern-check: oi
import warp as wp


@wp.kernel
def params_by_value(f: wp.float32, d: wp.float64, n: wp.int32, u: wp.uint8, b: wp.bool, v: wp.vec3, vi: wp.vec2i,
                    m: wp.mat22, md: wp.mat33d, out: wp.array2d(dtype=wp.float32),
                    od: wp.array2d(dtype=wp.float64), oi: wp.array2d(dtype=wp.int32)):
    i = wp.tid()
    x = float(i)
    out[i, 0] = f * x + v.z
    out[i, 1] = (m @ wp.vec2(x, 1.0))[0]
    out[i, 2] = v[i % 3]
    out[i, 3] = 1.0 if b else -1.0
    od[i, 0] = d * wp.float64(i)
    od[i, 1] = md[i % 3, i % 3]
    oi[i, 0] = n * i
    oi[i, 1] = vi.x * vi[1] + i
    oi[i, 2] = int(u) + i
