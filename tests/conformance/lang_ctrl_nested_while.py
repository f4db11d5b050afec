# Nested while loops with break and continue at both levels, a while inside a for
# and a for inside a while, with counters declared as Warp requires (int(0)).
# kern-test: lang_ctrl_nested_while --dim 6 a='rand(int32,6,seed=1131)' out='zeros(int32,6,3)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_ctrl_nested_while(a: wp.array(dtype=int), out: wp.array2d(dtype=int)):
    i = wp.tid()
    n = a[i]
    outer = int(0)
    total = int(0)
    while outer < 6:
        outer += 1
        if outer == 2:
            continue
        inner = int(0)
        while True:
            inner += 1
            if inner % 4 == 3:
                continue
            if inner > outer + n % 5:
                break
            total += inner * outer
        if total > 150:
            break
    out[i, 0] = total
    out[i, 1] = outer
    hits = int(0)
    for j in range(5):
        w = int(n + j)
        while w > 1:
            w = w // 3
            hits += 1
            if hits > 12:
                break
    k = int(0)
    while k < n % 7:
        for j in range(k):
            hits += j
        k += 1
    out[i, 2] = hits
