# A generic kernel over vector arrays and a 2-d wp.array2d[Any], instantiated by
# an @wp.overload stub and a wp.overload() list; kern run picks the vec3 one.
# kern-test: generic_kernel_vec --dim 2,3 a='arange(vec3,3)' grid='rand(float32,2,3,seed=5)' out='zeros(vec3,2,3)'
# kern-check: out
from typing import Any

import warp as wp


@wp.kernel
def generic_kernel_vec(a: wp.array(dtype=Any), grid: wp.array2d[Any],
                       out: wp.array2d(dtype=Any)):
    i, j = wp.tid()
    row = grid[i]
    out[i, j] = a[j] * row[j] + a[2 - j]


@wp.overload
def generic_kernel_vec(a: wp.array(dtype=wp.vec2), grid: wp.array2d(dtype=float),
                       out: wp.array2d(dtype=wp.vec2)):
    ...


wp.overload(
    generic_kernel_vec,
    [wp.array[wp.vec3], wp.array2d[float], wp.array2d[wp.vec3]],
)
