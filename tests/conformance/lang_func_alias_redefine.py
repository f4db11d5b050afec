# An alias made before a @wp.func is defined again with the same signature
# keeps the body it was made from, as Python binds the name at that line;
# the function's own name and an alias made after the redefinition call the
# new body (generic and concrete functions, and a chain of aliases).
# kern-test: lang_func_alias_redefine --dim 1 ai='zeros(int32,4)' af='zeros(float32,5)'
# kern-check: ai
# kern-check: af
from typing import Any

import warp as wp


@wp.func
def power_of(x: Any):
    return x * x


early = power_of
chained = early


@wp.func
def power_of(x: Any):
    return x * x * x


late = power_of


@wp.func
def offset(x: float):
    return x + 1.0


offset_before = offset


@wp.func
def offset(x: float):
    return x + 10.0


@wp.kernel
def lang_func_alias_redefine(ai: wp.array(dtype=wp.int32), af: wp.array(dtype=float)):
    ai[0] = power_of(3)
    ai[1] = early(3)
    ai[2] = late(3)
    ai[3] = chained(3)
    af[0] = power_of(1.5)
    af[1] = early(1.5)
    af[2] = late(1.5)
    af[3] = offset(2.0)
    af[4] = offset_before(2.0)
