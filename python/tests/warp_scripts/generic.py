# A generic kernel (typing.Any) with wp.overload (called with a list, a
# dict and as a decorator), typed scalars and a
# module-level alias of a vector type.
from typing import Any

import numpy as np

import kern.warp as wp

RESULT = {}

V2 = wp.vec2d


@wp.kernel
def scale(a: wp.array(dtype=Any), s: Any):
    i = wp.tid()
    a[i] = a[i] * s


@wp.kernel
def spin(out: wp.array(dtype=V2), angle: wp.float64):
    i = wp.tid()
    c = wp.cos(angle * wp.float64(i))
    s = wp.sin(angle * wp.float64(i))
    out[i] = V2(c, s)


wp.overload(scale, [wp.array(dtype=wp.float64), wp.float64])
wp.overload(scale, {"a": wp.array(dtype=wp.int32), "s": wp.int32})


# the decorator form: a stub named as the kernel, its annotations the types;
# the name stays bound to the kernel
before = scale


@wp.overload
def scale(a: wp.array(dtype=wp.float32), s: wp.float32):
    ...


a = wp.array(np.linspace(0.0, 1.0, 9), dtype=wp.float64)
wp.launch(scale, dim=9, inputs=[a, wp.float64(1.0 / 3.0)])
b = wp.array(np.arange(5, dtype=np.int32), dtype=wp.int32)
wp.launch(scale, dim=5, inputs=[b, wp.int32(-7)])
f = wp.array(np.arange(4, dtype=np.float32) - 1.5, dtype=wp.float32)
wp.launch(scale, dim=4, inputs=[f, wp.float32(2.5)])
c = wp.zeros(5, dtype=V2)
wp.launch(spin, dim=5, inputs=[c, wp.float64(0.3)])
RESULT["a"] = a.numpy().tolist()
RESULT["b"] = b.numpy().tolist()
RESULT["c"] = c.numpy().tolist()
RESULT["f"] = f.numpy().tolist()
RESULT["overload_keeps_kernel"] = [1 if scale is before else 0]
