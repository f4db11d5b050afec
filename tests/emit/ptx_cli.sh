#!/bin/sh
# ptx_cli.sh KERN ROOT -- `kern compile --target ptx [--sm N]` (issue #14):
# PTX for a covered module, for the SM asked; a module outside the PTX
# tier's subset exits 1 with "path:line:col: the PTX tier does not cover
# ..."; --sm without --target ptx and a bad --sm are usage errors (2).
set -u
KERN=$1; ROOT=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/kern_ptx_cli.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
n=0; failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
bad() { n=$((n + 1)); echo "not ok $n - $1"; failed=$((failed + 1)); }

if "$KERN" compile --target ptx "$ROOT/examples/saxpy.py" >"$T/a.ptx" 2>"$T/err" &&
   grep -q '^\.target sm_90$' "$T/a.ptx" && grep -q '^\.visible \.entry kern_k_saxpy($' "$T/a.ptx"; then
  ok "saxpy as PTX for sm_90 by default"
else bad "saxpy as PTX"; cat "$T/err"; fi

if "$KERN" compile -t ptx --sm 80 "$ROOT/examples/saxpy.py" >"$T/b.ptx" 2>"$T/err" &&
   grep -q '^\.version 7\.0$' "$T/b.ptx" && grep -q '^\.target sm_80$' "$T/b.ptx"; then
  ok "--sm 80 gives .version 7.0, .target sm_80"
else bad "--sm 80"; cat "$T/err"; fi

printf 'import warp as wp\n\n@wp.kernel\ndef k(x: wp.array(dtype=float)):\n    i = wp.tid()\n    x[i] = wp.sin(x[i])\n' >"$T/s.py"
"$KERN" compile --target ptx "$T/s.py" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 1 ] && [ ! -s "$T/out" ] &&
   grep -q "s.py:6:5: the PTX tier does not cover wp.sin" "$T/err"; then
  ok "a module outside the subset: exit 1 and the position"
else bad "refusal (rc $rc)"; cat "$T/err"; fi

# Tiles and wp.block_dim() are left to NVRTC (issue #24): refused by name.
"$KERN" compile --target ptx "$ROOT/tests/conformance/tile_matmul.py" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 1 ] && grep -q "tile_matmul.py:[0-9]*:[0-9]*: the PTX tier does not cover tiles (issue #24)" "$T/err"; then
  ok "a tile kernel is refused, naming tiles"
else bad "tile refusal (rc $rc)"; cat "$T/err"; fi
"$KERN" compile --target ptx "$ROOT/tests/conformance/launch_tid_fold.py" >"$T/out" 2>"$T/err"; rc=$?
if [ $rc -eq 1 ] && grep -q "the PTX tier does not cover wp.block_dim" "$T/err"; then
  ok "wp.block_dim() is refused"
else bad "block_dim refusal (rc $rc)"; cat "$T/err"; fi

# wp.cast of a 16-bit float (Note [16-bit cast] in src/emit/extra.c): the
# PTX tier has neither wp.cast nor 16-bit float values, so such a kernel
# is refused, at the cast or at the 16-bit value, and NVRTC builds it.
printf 'import warp as wp\n\n@wp.kernel\ndef k(o: wp.array(dtype=wp.int16), x: wp.array(dtype=float)):\n    i = wp.tid()\n    o[i] = wp.cast(wp.float16(x[i]), wp.int16)\n' >"$T/c1.py"
printf 'import warp as wp\n\n@wp.kernel\ndef k(o: wp.array(dtype=float), x: wp.array(dtype=wp.int16)):\n    i = wp.tid()\n    o[i] = float(wp.cast(x[i], wp.float16))\n' >"$T/c2.py"
"$KERN" compile --target ptx "$T/c1.py" >"$T/out" 2>"$T/err"; rc=$?
"$KERN" compile --target ptx "$T/c2.py" >>"$T/out" 2>>"$T/err"; rc2=$?
if [ $rc -eq 1 ] && [ $rc2 -eq 1 ] && [ ! -s "$T/out" ] &&
   grep -q "c1.py:6:5: the PTX tier does not cover wp.cast$" "$T/err" &&
   grep -q "c2.py:6:5: the PTX tier does not cover values of type float16$" "$T/err"; then
  ok "wp.cast from and to float16 is refused with its position"
else bad "16-bit cast refusal (rc $rc, $rc2)"; cat "$T/err"; fi

"$KERN" compile --target cuda --sm 90 "$ROOT/examples/saxpy.py" >/dev/null 2>"$T/err"; rc=$?
if [ $rc -eq 2 ] && grep -q -- "--sm is for --target ptx" "$T/err"; then
  ok "--sm needs --target ptx"
else bad "--sm with cuda (rc $rc)"; fi

"$KERN" compile --target ptx --sm x9 "$ROOT/examples/saxpy.py" >/dev/null 2>"$T/err"; rc=$?
if [ $rc -eq 2 ]; then ok "a bad --sm is a usage error"; else bad "bad --sm (rc $rc)"; fi

# --expand (Note [expansion] in src/ir/expand.c): the C of the expanded
# IR, saying so on its first line; a refused module says what and where;
# other targets are a usage error.
printf 'import warp as wp\n\n@wp.kernel\ndef k(x: wp.array(dtype=wp.vec3), o: wp.array(dtype=float)):\n    i = wp.tid()\n    o[i] = wp.dot(x[i], wp.cross(x[i], x[i]))\n' >"$T/v.py"
if "$KERN" compile --expand "$T/v.py" >"$T/v.c" 2>"$T/err" &&
   head -n 1 "$T/v.c" | grep -q "expanded into scalar IR" &&
   ! grep -q "k_dot_\|k_cross_" "$T/v.c"; then
  ok "--expand: scalar C, no vector helpers"
else bad "--expand"; cat "$T/err"; fi
printf 'import warp as wp\n\n@wp.kernel\ndef k(o: wp.array(dtype=float)):\n    i = wp.tid()\n    o[i] = float(wp.intersect_tri_tri(wp.vec3(0.0), wp.vec3(1.0), wp.vec3(2.0), wp.vec3(3.0), wp.vec3(0.0), wp.vec3(1.0)))\n' >"$T/d.py"
if "$KERN" compile --expand "$T/d.py" >"$T/d.c" 2>"$T/err" &&
   head -n 1 "$T/d.c" | grep -q "d.py:6:5: the expansion does not cover wp.intersect_tri_tri"; then
  ok "--expand: a refusal names what and where, and the C is still emitted"
else bad "--expand refusal"; head -n 1 "$T/d.c"; cat "$T/err"; fi
"$KERN" compile --expand --target cuda "$T/v.py" >/dev/null 2>"$T/err"; rc=$?
if [ $rc -eq 2 ] && grep -q -- "--expand is for --target c" "$T/err"; then
  ok "--expand needs --target c"
else bad "--expand with cuda (rc $rc)"; fi

echo "1..$n"
[ $failed -eq 0 ]
