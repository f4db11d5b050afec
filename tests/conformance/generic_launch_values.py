# A generic kernel launched with the values wp.launch types by themselves:
# NumPy arrays (kern run: .npy files; Warp: wp.array(np.load(f)), the
# file's dtype and all its dimensions), typed vector and matrix values
# (wp.vec3d(...), wp.mat22(...)), a @wp.struct instance (kern run: Params{...})
# and an array of structs.  kern run instantiates the kernel from these
# SPECs (src/cli/spec_generic.c), as wp.launch does from the Python values.
# data/generic_a.npy is np.arange(6, dtype=np.float64).reshape(2, 3) / 4 - 0.5,
# data/generic_b.npy is np.array([3, -7, 12], dtype=np.int16).
# kern-test: generic_launch_values --dim 2,3 a="$DIR/data/generic_a.npy" b="$DIR/data/generic_b.npy" v='wp.vec3d(1.5,-2,0.25)' m='wp.mat22(1,2,3,4)' p='Params{scale=2.5,offset=(1,2,3),n=4}' ps='arange(Params,3)' h='float16(0.75)' out='zeros(float64,2,3)' ov='zeros(vec3d,3)' oi='zeros(int16,3)' oh='zeros(float16,3)'
# kern-check: out
# kern-check: ov
# kern-check: oi
# kern-check: oh
from typing import Any

import warp as wp


@wp.struct
class Params:
    scale: float
    offset: wp.vec3
    n: int


@wp.func
def scaled(x: Any, p: Any):
    return x * type(x)(p.scale)


@wp.kernel
def generic_launch_values(a: wp.array2d(dtype=Any), b: wp.array(dtype=Any), v: Any, m: Any, p: Any,
                          ps: wp.array(dtype=Any), h: Any, out: wp.array2d(dtype=Any),
                          ov: wp.array(dtype=Any), oi: wp.array(dtype=Any), oh: wp.array(dtype=Any)):
    i, j = wp.tid()
    out[i, j] = scaled(a[i, j], p) + type(a[i, j])(m[i % 2, j % 2]) + type(a[i, j])(ps[j].scale)
    if i == 0:
        k = wp.float64(p.n + ps[j].n)
        ov[j] = v * k + wp.vec3d(wp.float64(p.offset[0]), wp.float64(p.offset[1]), wp.float64(ps[j].offset[2]))
        oi[j] = b[j] * type(b[j])(2) + type(b[j])(p.n)
        oh[j] = h * type(h)(j) + h
