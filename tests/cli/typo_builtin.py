# A misspelled builtin: the checker suggests the nearest one (tests/cli).
import warp as wp


@wp.kernel
def root(x: wp.array(dtype=wp.float32)):
    i = wp.tid()
    x[i] = wp.sqtr(x[i])
