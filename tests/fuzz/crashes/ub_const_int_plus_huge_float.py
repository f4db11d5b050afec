# UB: an int-typed constant expression with a huge float value
import warp as wp
I = wp.constant(1)
C = wp.constant(I + 1e300)
