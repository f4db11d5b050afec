# A generic kernel with no wp.overload() in the file: wp.launch
# instantiates it for its inputs' types (here a 2-d float64 array, a vec3
# array and a Python float, which is float32), and kern run does the same
# from the SPECs (kern_module_instantiate_types), so the kernel that runs
# is generic_launch[array(dtype=float64,ndim=2),array(dtype=vec3),float32].
# kern-test: generic_launch --dim 3,4 a='rand(float64,3,4,seed=7)' v='arange(vec3,3)' s=1.5 out='zeros(float64,3,4)' ov='zeros(vec3,3)'
# kern-check: out
# kern-check: ov
from typing import Any

import warp as wp


@wp.func
def twice(x: Any):
    return x + x


@wp.kernel
def generic_launch(a: wp.array2d(dtype=Any), v: wp.array(dtype=Any), s: Any, out: wp.array2d(dtype=Any),
                   ov: wp.array(dtype=Any)):
    i, j = wp.tid()
    out[i, j] = twice(a[i, j]) * type(a[i, j])(s) + type(a[i, j])(j)
    if j == 0:
        ov[i] = twice(v[i]) * s
