# expect: 8:14: error: operands of + have different types: float32 and int32 (Warp does not convert implicitly; use a constructor such as wp.float32(x))
import warp as wp
from typing import Any


@wp.func
def add(a: Any, b: Any):
    return a + b


@wp.kernel
def k(x: wp.array(dtype=float)):
    x[0] = add(1.0, 2)
