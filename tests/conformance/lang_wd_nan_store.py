# Stores of NaN: a constant NaN (wp.tanh(1.0 % 0.0), wp.nan) and run-time NaNs (x % 0.0,
# sqrt of a negative, 0/0) stored to arrays and read back, the NaN-ness kept as ints
# (kern's OpenCL once dropped a store of a constant NaN); no NaN is compared.
# kern-test: lang_wd_nan_store --dim 4 x='rand(float,4,seed=861)' y='zeros(float,4,5)' out='zeros(int32,4,5)' of='zeros(float,4)'
# kern-check: out
# kern-check: of
import warp as wp


@wp.kernel
def lang_wd_nan_store(x: wp.array(dtype=float), y: wp.array2d(dtype=float), out: wp.array2d(dtype=int),
                      of: wp.array(dtype=float)):
    i = wp.tid()
    y[i, 0] = wp.tanh(1.0 % 0.0)
    y[i, 1] = wp.nan
    y[i, 2] = x[i] % 0.0
    y[i, 3] = wp.sqrt(-x[i] - 1.0)
    z = x[i] - x[i]
    y[i, 4] = z / z
    for j in range(5):
        out[i, j] = int(wp.isnan(y[i, j])) * (j + 1)
    of[i] = wp.where(wp.isnan(y[i, 2]), x[i], -1.0)
