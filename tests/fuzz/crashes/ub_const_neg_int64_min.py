# UB: negating INT64_MIN in a constant
import warp as wp
C = wp.constant(-(-9223372036854775808))
