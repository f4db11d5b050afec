# expect: 11:1: error: 'k' has 2 parameters; this overload gives 1 types
import warp as wp
from typing import Any


@wp.kernel
def k(x: wp.array(dtype=Any), v: Any):
    x[0] = v


wp.overload(k, [wp.array(dtype=float)])
