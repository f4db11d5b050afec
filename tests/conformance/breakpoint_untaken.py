# wp.breakpoint() compiles on every backend and costs nothing until it is
# reached (Warp's CPU build then traps with SIGTRAP; tests/cli checks
# kern run does the same); here no thread reaches it.
# kern-test: breakpoint_untaken --dim 4 out='zeros(int32,4)' n=10
# kern-check: out
import warp as wp


@wp.kernel
def breakpoint_untaken(out: wp.array(dtype=int), n: int):
    i = wp.tid()
    if i >= n:
        wp.breakpoint()
    out[i] = i * 3 + 1
