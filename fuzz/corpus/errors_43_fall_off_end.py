# expect: 6:5: error: 'g' returns float32 on some paths but can reach its end without returning
import warp as wp


@wp.func
def g(x: float) -> float:
    if x > 0.0:
        return x
