# expect: 11:23: error: array(dtype=float32, ndim=2) does not instantiate parameter 'a' (array(dtype=Any)) of 'fill'
import warp as wp
from typing import Any


@wp.kernel
def fill(a: wp.array(dtype=Any), v: Any):
    a[wp.tid()] = v


wp.overload(fill, [wp.array2d(dtype=float), float])
