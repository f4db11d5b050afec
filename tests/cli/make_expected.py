# Regenerates the expected .npy files of cli_test.sh with NumPy.  They are
# committed, so the test itself needs no Python; run this only after
# changing a case:  python3 make_expected.py  (from tests/cli).
import numpy as np

MASK = (1 << 64) - 1


def splitmix(seed):
    """The rand() SPEC generator of `kern run --help`, bit for bit."""
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        yield z ^ (z >> 31)


def rand(dtype, n, seed=0):
    g = splitmix(seed)
    draws = [next(g) for _ in range(n)]
    if np.dtype(dtype).kind == "f":
        return np.array([(z >> 11) * 2.0**-53 for z in draws]).astype(dtype)
    if np.dtype(dtype).kind == "b":
        return np.array([z & 1 for z in draws]).astype(dtype)
    return np.array([z % 100 for z in draws]).astype(dtype)


# scale: y = x * s with x=arange(float32,8), s=2
np.save("expected_scale.npy", np.arange(8, dtype=np.float32) * 2)
# copy64: y = x with x=rand(float64,5,seed=7)
np.save("expected_rand_f64_seed7.npy", rand(np.float64, 5, seed=7))
# scale with s=1 and x=rand(float32,6): the default seed is 0
np.save("expected_rand_f32_seed0.npy", rand(np.float32, 6))
# fill_int: a[i] = v with v=-0x10
np.save("expected_fill_int.npy", np.full(5, -16, dtype=np.int32))
# add_vec: a=arange(vec3,4), b=1,2,3
np.save("expected_add_vec.npy",
        np.arange(12, dtype=np.float32).reshape(4, 3) + np.float32([1, 2, 3]))
# grid: m[i, j] = i * 10 + j over --dim 3,4
np.save("expected_grid.npy",
        np.fromfunction(lambda i, j: i * 10 + j, (3, 4), dtype=np.float32))
# a Fortran-order file, which kern must refuse with a message saying so
np.save("fortran_order.npy",
        np.asfortranarray(np.arange(8, dtype=np.float32).reshape(2, 4)))
