# expect: 7:14: error: generic (typing.Any) parameters are not supported yet
import warp as wp
from typing import Any


@wp.func
def twice(x: Any):
    return x + x
