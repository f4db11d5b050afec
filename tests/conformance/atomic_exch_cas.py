# atomic_exch and atomic_cas on owned slots (deterministic), returning the old value;
# a counter built from atomic_add return values gives each thread a unique ticket.
# kern-test: atomic_exch_cas --dim 16 own='arange(int32,16)' ownl='arange(int64,16)' cnt='zeros(int32,1)' seen='zeros(int32,16)' old='zeros(int32,16,3)' oldl='zeros(int64,16)'
# kern-check: own
# kern-check: ownl
# kern-check: cnt
# kern-check: seen
# kern-check: old
# kern-check: oldl
import warp as wp


@wp.kernel
def atomic_exch_cas(own: wp.array(dtype=wp.int32), ownl: wp.array(dtype=wp.int64), cnt: wp.array(dtype=wp.int32),
                    seen: wp.array(dtype=wp.int32), old: wp.array2d(dtype=wp.int32), oldl: wp.array(dtype=wp.int64)):
    i = wp.tid()
    old[i, 0] = wp.atomic_exch(own, i, i * 10)
    # succeeds for even i (slot holds i*10 == expected), fails for odd i
    expect = i * 10
    if i % 2 == 1:
        expect = -1
    old[i, 1] = wp.atomic_cas(own, i, expect, 777)
    old[i, 2] = own[i]
    oldl[i] = wp.atomic_cas(ownl, i, wp.int64(i), wp.int64(i) * wp.int64(10000000000))
    ticket = wp.atomic_add(cnt, 0, 1)
    wp.atomic_add(seen, ticket, 1)
