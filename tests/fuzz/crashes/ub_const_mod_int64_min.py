# UB: INT64_MIN % -1 in a constant
import warp as wp
C = wp.constant(-9223372036854775808 % -1)
