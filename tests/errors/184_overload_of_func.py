# expect: 11:1: error: wp.overload() of 'f', which is not a kernel in this file (kern instantiates generic functions per call)
import warp as wp
from typing import Any


@wp.func
def f(x: Any):
    return x


wp.overload(f, [float])
