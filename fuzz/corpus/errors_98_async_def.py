# expect: 6:1: error: expected 'def' after the decorator, found 'async'
import warp as wp


@wp.kernel
async def k(a: wp.array(dtype=float)):
    pass
