# Control flow: if/elif/else, for with continue and break, while.
# kern-test: control_flow --dim 100 n='arange(int32,100)' cls='zeros(int32,100)' total='zeros(int32,100)' steps='zeros(int32,100)'
# kern-check: cls
# kern-check: total
# kern-check: steps
import warp as wp


@wp.kernel
def control_flow(n: wp.array(dtype=wp.int32), cls: wp.array(dtype=wp.int32), total: wp.array(dtype=wp.int32),
                 steps: wp.array(dtype=wp.int32)):
    i = wp.tid()
    v = n[i]

    # classify into four bands
    c = 0
    if v < 25:
        c = 1
    elif v < 50:
        c = 2
    elif v < 75:
        c = 3
    else:
        c = 4
    cls[i] = c

    # sum of the odd numbers below v, stopping as soon as the sum passes 500
    s = int(0)             # int(...) makes a variable a loop may change (Warp's rule)
    for k in range(v):
        if k % 2 == 0:
            continue
        s += k
        if s > 500:
            break
    total[i] = s

    # Collatz: steps from v + 1 down to 1
    x = v + 1
    count = int(0)
    while x != 1:
        if x % 2 == 0:
            x = x // 2
        else:
            x = 3 * x + 1
        count += 1
    steps[i] = count
