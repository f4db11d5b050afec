# break and continue in nested loops: a continue in the inner loop, a break out of the
# inner loop only (the outer goes on), a break in a while inside a for, and a flag
# set before an outer break.
# kern-test: lang_ctrl_break_continue --dim 6 a='rand(int32,6,8,seed=531)' out='zeros(int32,6,4)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_ctrl_break_continue(a: wp.array2d(dtype=int), out: wp.array2d(dtype=int)):
    i = wp.tid()
    s = int(0)
    for j in range(4):
        for k in range(8):
            if a[i, k] % 3 == 0:
                continue
            if a[i, k] > 80 - j * 10:
                break
            s += a[i, k] * (j + 1)
    out[i, 0] = s
    found = int(-1)
    for j in range(8):
        hit = bool(False)
        for k in range(j + 1, 8):
            if a[i, j] + a[i, k] == 100 or a[i, j] == a[i, k]:
                hit = True
                break
        if hit:
            found = j
            break
    out[i, 1] = found
    c = int(0)
    for j in range(8):
        v = int(a[i, j])
        while v > 0:
            if v % 7 == 3:
                break
            v = v // 2
            c += 1
        if j == 5:
            continue
        c += 100
    out[i, 2] = c
    last = int(0)
    for j in range(8):
        if j % 2 == 1:
            continue
        last = a[i, j]
    out[i, 3] = last
