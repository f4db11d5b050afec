# Long generated lines: fifteen nested index expressions a[(a[...] + 3) % 100] on one
# line and a sum of sixty products on one line (kern once cut generated lines at
# 4,096 bytes, which broke the build of such expressions).
# kern-test: lang_wd_long_line --dim 8 a='rand(int32,100,seed=841)' x='rand(float,8,seed=842)' out='zeros(int32,8)' of='zeros(float,8)'
# kern-check: out
# kern-check: of
import warp as wp


@wp.kernel
def lang_wd_long_line(a: wp.array(dtype=int), x: wp.array(dtype=float), out: wp.array(dtype=int), of: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = a[(a[(a[(a[(a[(a[(a[(a[(a[(a[(a[(a[(a[(a[(a[(i + 3) % 100] + 3) % 100] + 3) % 100] + 3) % 100] + 3) % 100] + 3) % 100] + 3) % 100] + 3) % 100] + 3) % 100] + 3) % 100] + 3) % 100] + 3) % 100] + 3) % 100] + 3) % 100] + 3) % 100]
    of[i] = x[(i + 0) % 8] * 1.0 + x[(i + 1) % 8] * 2.0 + x[(i + 2) % 8] * 3.0 + x[(i + 3) % 8] * 4.0 + x[(i + 4) % 8] * 5.0 + x[(i + 5) % 8] * 6.0 + x[(i + 6) % 8] * 7.0 + x[(i + 7) % 8] * 1.0 + x[(i + 8) % 8] * 2.0 + x[(i + 9) % 8] * 3.0 + x[(i + 10) % 8] * 4.0 + x[(i + 11) % 8] * 5.0 + x[(i + 12) % 8] * 6.0 + x[(i + 13) % 8] * 7.0 + x[(i + 14) % 8] * 1.0 + x[(i + 15) % 8] * 2.0 + x[(i + 16) % 8] * 3.0 + x[(i + 17) % 8] * 4.0 + x[(i + 18) % 8] * 5.0 + x[(i + 19) % 8] * 6.0 + x[(i + 20) % 8] * 7.0 + x[(i + 21) % 8] * 1.0 + x[(i + 22) % 8] * 2.0 + x[(i + 23) % 8] * 3.0 + x[(i + 24) % 8] * 4.0 + x[(i + 25) % 8] * 5.0 + x[(i + 26) % 8] * 6.0 + x[(i + 27) % 8] * 7.0 + x[(i + 28) % 8] * 1.0 + x[(i + 29) % 8] * 2.0 + x[(i + 30) % 8] * 3.0 + x[(i + 31) % 8] * 4.0 + x[(i + 32) % 8] * 5.0 + x[(i + 33) % 8] * 6.0 + x[(i + 34) % 8] * 7.0 + x[(i + 35) % 8] * 1.0 + x[(i + 36) % 8] * 2.0 + x[(i + 37) % 8] * 3.0 + x[(i + 38) % 8] * 4.0 + x[(i + 39) % 8] * 5.0 + x[(i + 40) % 8] * 6.0 + x[(i + 41) % 8] * 7.0 + x[(i + 42) % 8] * 1.0 + x[(i + 43) % 8] * 2.0 + x[(i + 44) % 8] * 3.0 + x[(i + 45) % 8] * 4.0 + x[(i + 46) % 8] * 5.0 + x[(i + 47) % 8] * 6.0 + x[(i + 48) % 8] * 7.0 + x[(i + 49) % 8] * 1.0 + x[(i + 50) % 8] * 2.0 + x[(i + 51) % 8] * 3.0 + x[(i + 52) % 8] * 4.0 + x[(i + 53) % 8] * 5.0 + x[(i + 54) % 8] * 6.0 + x[(i + 55) % 8] * 7.0 + x[(i + 56) % 8] * 1.0 + x[(i + 57) % 8] * 2.0 + x[(i + 58) % 8] * 3.0 + x[(i + 59) % 8] * 4.0
