# expect: 8:12: error: recursive call of 'down' is not supported
import warp as wp
from typing import Any


@wp.func
def down(a: Any):
    return down(a)


@wp.kernel
def k(x: wp.array(dtype=float)):
    x[0] = down(1.0)
