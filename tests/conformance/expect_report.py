# wp.expect_eq, wp.expect_neq and wp.expect_near (scalars, vectors, matrices, bool, a
# default and a keyword tolerance) that fail and that hold, wp.print and print() of
# strings, scalars, vectors, matrices and bool, and len() of arrays, vectors and matrices. What
# the kernel prints is compared with what Warp printed (expected/expect_report.stdout).
# kern-test: expect_report --dim 1 x='arange(float32,4)' n='arange(int32,4)' out='zeros(int32,4)'
# kern-check: out
# kern-stdout
import warp as wp


@wp.kernel
def expect_report(x: wp.array(dtype=float), n: wp.array(dtype=int), out: wp.array(dtype=int)):
    i = wp.tid()
    wp.expect_eq(n[1], 1)
    wp.expect_eq(n[2] + 1, 4)
    wp.expect_neq(x[1], 1.0)
    wp.expect_eq(wp.vec3(1.0, 2.0, 3.0), wp.vec3(x[1], x[2], 3.5))
    wp.expect_eq(wp.uint32(7), wp.uint32(8))
    wp.expect_eq(x[0] > 0.5, True)
    wp.expect_near(x[2], 2.00001)
    wp.expect_near(x[2], 2.5, 0.25)
    wp.expect_near(wp.vec2(x[1], x[2]), wp.vec2(1.0, 2.75), tolerance=0.5)
    wp.expect_near(wp.mat22(x[1], x[2], x[3], 0.0), wp.mat22(1.0, 2.0, 3.0, 0.0))
    wp.expect_neq(wp.mat22(1.0, 2.0, 3.0, 4.0), wp.mat22(1.0, 2.0, 3.0, 4.0))
    wp.expect_eq(wp.float64(x[3]), wp.float64(2.5))
    wp.expect_eq(wp.int64(n[3]), wp.int64(-3))
    wp.print("a string, 100% of it")
    print("and\ttabs")
    wp.print(x[3])
    wp.print(wp.vec3i(1, 2, 3))
    wp.print(n[2] == 2)
    print(wp.mat22(0.5, 1.0, 1.5, 2.0))
    out[i] = len(x) + len(wp.vec3(0.0)) * 10 + len(wp.mat22()) * 100
