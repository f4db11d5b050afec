# Golden input: a little of everything the emitters spell differently.
import warp as wp

SCALE = wp.constant(2.0)


@wp.func
def split(v: wp.vec3) -> tuple[float, float]:
    return wp.length(v), wp.dot(v, wp.vec3(1.0, 0.0, 0.0))


@wp.kernel
def mixed(a: wp.array2d(dtype=wp.float32), m: wp.array(dtype=wp.mat33), hist: wp.array(dtype=wp.int32), seed: int):
    i, j = wp.tid()
    s = wp.rand_init(seed, i * 16 + j)
    v = m[i] @ wp.vec3(a[i, j], 1.0, wp.randf(s))
    n, d = split(v)
    if n > SCALE and not wp.isnan(d):
        a[i, j] = n * d
    elif d < 0.0:
        a[i, j] = -d
    else:
        for k in range(3):
            if k == j:
                break
            a[i, j] += float(k)
    wp.atomic_add(hist, j % 4, 1)
    b = hist.shape[0] // 2
    wp.atomic_max(hist, -1, i - b)
