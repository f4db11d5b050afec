#!/bin/sh
# shared_loads_test.sh KERN -- Note [shared loads] (src/ir/passes.c): the
# adjoint of `x[i] * x[i]` adds into adj_x as often as that of `x[i] * 2`
# (once per emitted loop body), and the sum of squares' adjoint, the
# benchmark's (bench/autodiff_cost.py), has no negative-index wrap left on
# the thread index.  The gradients themselves: tests/autodiff/shared_loads.py.
set -eu
KERN=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cat >"$T/k.py" <<'PY'
import warp as wp

@wp.kernel
def sq(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i] * x[i])

@wp.kernel
def twice(x: wp.array(dtype=float), loss: wp.array(dtype=float)):
    i = wp.tid()
    wp.atomic_add(loss, 0, x[i] * 2.0)

@wp.kernel
def stored(x: wp.array(dtype=float), y: wp.array(dtype=float)):
    i = wp.tid()
    a = x[i]
    y[i] = a
    y[i] = y[i] + x[i]
PY
for t in c cuda; do
  "$KERN" compile "$T/k.py" --target $t --adjoint sq -o "$T/sq.$t"
  "$KERN" compile "$T/k.py" --target $t --adjoint twice -o "$T/twice.$t"
  "$KERN" compile "$T/k.py" --target $t --adjoint stored -o "$T/stored.$t"
  n_sq=$(grep -c 'k_atomic_add_f32(&p2_adj_x_d' "$T/sq.$t" || true)
  n_tw=$(grep -c 'k_atomic_add_f32(&p2_adj_x_d' "$T/twice.$t" || true)
  [ "$n_tw" -ge 1 ] || fail "$t: no atomic on adj_x in the adjoint of x[i] * 2"
  [ "$n_sq" -eq "$n_tw" ] || fail "$t: x[i] * x[i] adds into adj_x $n_sq times, x[i] * 2 $n_tw"
  grep -q '< ((int32_t)0)) ?' "$T/sq.$t" && fail "$t: the adjoint wraps the thread index"
  # a store between the reads: x[i] is read (and its adjoint added) twice
  n_st=$(grep -c 'k_atomic_add_f32(&p2_adj_x_d' "$T/stored.$t" || true)
  [ "$n_st" -eq $((2 * n_tw)) ] || fail "$t: reads of x[i] around a store: $n_st adds, want $((2 * n_tw))"
done
echo "ok: one add into adj_x for x[i] * x[i] ($n_sq per file), two around a store"
