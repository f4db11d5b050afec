# expect: 11:1: error: this overload leaves parameter 'v' of 'k' generic
import warp as wp
from typing import Any


@wp.kernel
def k(x: wp.array(dtype=Any), v: Any):
    x[0] = v


wp.overload(k, {"x": wp.array(dtype=float)})
