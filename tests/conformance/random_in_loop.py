# Random state threaded through a loop and a user function (state is passed by value to
# functions, so the caller's state does not advance).
# kern-test: random_in_loop --dim 8 out='zeros(float32,8,2)' cnt='zeros(int32,8)'
# kern-check: out
# kern-check: cnt
import warp as wp


@wp.func
def draw(s: wp.uint32) -> float:
    return wp.randf(s)


@wp.kernel
def random_in_loop(out: wp.array2d(dtype=wp.float32), cnt: wp.array(dtype=wp.int32)):
    i = wp.tid()
    s = wp.rand_init(99, i)
    acc = float(0.0)
    hits = int(0)
    for k in range(20):
        r = wp.randf(s)
        acc += r
        if r < 0.5:
            hits += 1
    out[i, 0] = acc
    a = draw(s)
    b = draw(s)
    out[i, 1] = a - b
    cnt[i] = hits
