# expect: 7:5: error: 'g' returns int32 here but is declared to return float32
import warp as wp


@wp.func
def g(x: float) -> float:
    return 1
