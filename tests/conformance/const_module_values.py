# Module-level Python values used in kernels, captured when Warp compiles the kernel:
# ints (wrapping to int32 beyond its range, as Warp does), floats (float32), booleans,
# arithmetic on them, a name redefined later in the file (the last value counts),
# wp.constant() of scalars, vectors and matrices, a plain module-level vector, and host
# code kern never evaluates (a list, a string) next to them.
# kern-test: const_module_values --dim 4 out='zeros(float32,4,12)' oi='zeros(int32,4,4)' od='zeros(float64,4)'
# kern-check: out
# kern-check: oi
# kern-check: od
import warp as wp

N = 16
SCALE = 0.25
HALF_N = N // 2
RATIO = N / 3
ENABLED = True
DISABLED = not ENABLED if False else False
BIG = 3000000000
LEVELS = 2
LEVELS = LEVELS * 3
MASK = (1 << 5) - 1
NAMES = ["a", "b"]
DEVICE = "cpu"
AXIS = wp.constant(wp.vec3(0.0, 0.0, 1.0))
SHEAR = wp.constant(wp.mat22(1.0, 0.5, 0.0, 1.0))
UP = wp.vec3(0.0, 1.0, 0.0)
STEP = wp.constant(wp.float64(0.1))
EPS = wp.constant(1.0e-3)


@wp.func
def scaled(x: float) -> float:
    return x * SCALE + float(HALF_N)


@wp.kernel
def const_module_values(out: wp.array2d(dtype=float), oi: wp.array2d(dtype=int), od: wp.array(dtype=wp.float64)):
    i = wp.tid()
    out[i, 0] = float(N) * SCALE
    out[i, 1] = scaled(float(i))
    out[i, 2] = RATIO
    out[i, 3] = 1.0 if ENABLED else 0.0
    out[i, 4] = float(BIG)
    out[i, 5] = AXIS[2] + UP[1]
    out[i, 6] = (SHEAR @ wp.vec2(1.0, float(i)))[0]
    out[i, 7] = EPS * float(i)
    out[i, 8] = wp.dot(AXIS, UP)
    out[i, 9] = SCALE * SCALE + RATIO
    out[i, 10] = float(-N)
    out[i, 11] = float(LEVELS)
    oi[i, 0] = N * i + MASK
    oi[i, 1] = i % HALF_N
    oi[i, 2] = BIG
    oi[i, 3] = LEVELS
    od[i] = STEP * wp.float64(i)
