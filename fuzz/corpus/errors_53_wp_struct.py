# expect: 5:1: error: @wp.struct is not supported yet (second stage of the language)
import warp as wp


@wp.struct
class S:
    x: float
