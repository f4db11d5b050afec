# expect: 4:19: error: division by zero in a constant
import warp as wp

N = wp.constant(1 // 0)
