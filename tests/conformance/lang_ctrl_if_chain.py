# Long if/elif/else chains with nested ifs inside branches, conditions on floats, ints
# and bools combined with and/or/not, and variables assigned in every branch.
# kern-test: lang_ctrl_if_chain --dim 8 x='rand(float,8,seed=561)' k='rand(int32,8,seed=562)' b='rand(bool,8,seed=563)' out='zeros(int32,8,2)'
# kern-check: out
import warp as wp


@wp.kernel
def lang_ctrl_if_chain(x: wp.array(dtype=float), k: wp.array(dtype=int), b: wp.array(dtype=bool),
                       out: wp.array2d(dtype=int)):
    i = wp.tid()
    v = x[i]
    n = k[i]
    r = int(0)
    if v < 0.2:
        r = 1
    elif v < 0.4 and n > 50:
        r = 2
    elif v < 0.4:
        if b[i]:
            r = 3
        else:
            r = 4
    elif not b[i] or n < 10:
        r = 5
    elif v > 0.9:
        r = 6
    else:
        r = 7
    out[i, 0] = r
    q = int(0)
    if n > 30:
        if n > 60:
            if n > 90:
                q = 3
            else:
                q = 2
        else:
            q = 1
    else:
        q = -1 if b[i] else -2
    out[i, 1] = q
