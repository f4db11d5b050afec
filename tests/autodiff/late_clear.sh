#!/bin/sh
# Note [late clears] in src/ir/adjoint.c: in the adjoint's CUDA for
# late_clear.py the stores clearing adj_w and adj_y come after the atomics
# into adj_x (saxpy's adjoint ran 3.8x slower with them before, on an
# H200), and adj_z's clear stays before the atomic into adj_z that follows
# it in the reverse sweep (moving it would lose that gradient; the
# goldens check the values, this the order).
#   late_clear.sh EMIT_ADJOINT DIR
set -eu
emit=$1; dir=$2
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
"$emit" cuda "$out" "$dir/late_clear.py" >/dev/null
f="$out/late_clear.cu"
# the first grid-stride loop (the 1-D one) of the adjoint kernel
body=$(awk '/__global__ void kern_k_late_clear_adj/{k=1} k && /for \(int64_t k_t/{n++} k && n==1{print}' "$f")
line() { printf '%s\n' "$body" | grep -n -- "$1" | cut -d: -f1 | head -n "${2:-1}" | tail -n1; }
lastx=$(printf '%s\n' "$body" | grep -n 'k_atomic_add_f32(&p[0-9]*_adj_x_d' | tail -n1 | cut -d: -f1)
cw=$(line '_adj_w_d\[.*\] = 0.0f')
cy=$(line '_adj_y_d\[.*\] = 0.0f')
cz=$(line '_adj_z_d\[.*\] = 0.0f')
az=$(line 'k_atomic_add_f32(&p[0-9]*_adj_z_d')
fail=0
for v in lastx cw cy cz az; do
  eval "x=\$$v"; [ -n "$x" ] || { echo "FAIL: no line for $v in $f"; fail=1; }
done
[ "$fail" = 0 ] || { cat "$f"; exit 1; }
[ "$cw" -gt "$lastx" ] || { echo "FAIL: adj_w cleared at $cw, before the last adj_x atomic ($lastx)"; fail=1; }
[ "$cy" -gt "$lastx" ] || { echo "FAIL: adj_y cleared at $cy, before the last adj_x atomic ($lastx)"; fail=1; }
[ "$cz" -lt "$az" ] || { echo "FAIL: adj_z cleared at $cz, after the atomic into adj_z ($az)"; fail=1; }
[ "$fail" = 0 ] && echo "ok: clears after the atomics (w $cw, y $cy > x $lastx), adj_z's before its atomic ($cz < $az)"
exit $fail
