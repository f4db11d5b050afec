# UB: 10 ** 100 folded to an int64 (found with ub_float_literal_to_int)
import warp as wp
C = wp.constant(10 ** 100)
