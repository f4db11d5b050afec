# expect: 11:50: error: 'k' has no parameter 'w'
import warp as wp
from typing import Any


@wp.kernel
def k(x: wp.array(dtype=Any), v: Any):
    x[0] = v


wp.overload(k, {"x": wp.array(dtype=float), "w": float})
