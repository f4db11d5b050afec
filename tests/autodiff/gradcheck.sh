#!/bin/sh
# kern gradcheck (tools/kern.c, issue #26): passes on kernels whose adjoint
# and tangent are the derivative (gradcheck/ok64.py, float64), fails where
# the adjoint is not the derivative (loop_carried.py: Warp's gradient of a
# product carried through a dynamic loop, which the Warp goldens check is
# what kern computes), names a refused construct at its position, and
# answers --help and bad usage.
# usage: gradcheck.sh KERN_TOOL DIR   (DIR: tests/autodiff)
kern=$1
dir=$2
out=${TMPDIR:-/tmp}/kern_gradcheck.$$
trap 'rm -f "$out"' EXIT
fail() { echo "FAIL: $*"; cat "$out"; exit 1; }

"$kern" gradcheck "$dir/gradcheck/ok64.py" mix >"$out" 2>&1 || fail "mix: exit $?"
grep -q '^x  *adjoint  *8 .* ok$' "$out" || fail "mix: no passing row for x"
grep -q '^v  *adjoint  *24 .* ok$' "$out" || fail "mix: no passing row for v (vec3d)"
grep -q '^s  *tangent  *1 .* ok$' "$out" || fail "mix: the value s not checked by the tangent"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "mix: no tangent row"
grep -q '^gradcheck: passed$' "$out" || fail "mix: not passed"

"$kern" gradcheck "$dir/gradcheck/ok64.py" sumsq --dim 5 n=5 --seed 3 >"$out" 2>&1 ||
  fail "sumsq: exit $?"

# several results (Note [several results]): both modes are the derivative
for k in multi_results multi_vecmat multi_struct; do
  "$kern" gradcheck "$dir/$k.py" $k --dim 8 >"$out" 2>&1 || fail "$k: exit $?"
  grep -q '^a  *adjoint  *8 .* ok$' "$out" || fail "$k: no passing row for a"
  grep -q '^(random v)  *tangent .* ok$' "$out" || fail "$k: no tangent row"
done

# zero adjoints through infinite partials stay zero, not NaN
"$kern" gradcheck "$dir/gradcheck/zero_adjoint.py" kz --dim 4 >"$out" 2>&1 ||
  fail "zero_adjoint: exit $?"
grep -q nan "$out" && fail "zero_adjoint: NaN"

# the adjoint is Warp's, not the derivative: the check must fail on a,
# while the tangent (forward mode is exact) passes
"$kern" gradcheck "$dir/loop_carried.py" loop_carried --dim 3 n=3 >"$out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "loop_carried: exit $rc, want 1"
grep -q '^a  *adjoint  *3 .* FAIL$' "$out" || fail "loop_carried: a's row is not FAIL"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "loop_carried: the tangent should pass"
grep -q '^gradcheck: FAILED$' "$out" || fail "loop_carried: no FAILED line"

# a tolerance too tight for float32 differences fails even a right gradient
"$kern" gradcheck "$dir/arith.py" arith --dim 4 --rtol 0 --atol 0 >"$out" 2>&1
[ $? -eq 1 ] || fail "arith with zero tolerances passed"
"$kern" gradcheck "$dir/arith.py" arith --dim 4 >"$out" 2>&1 || fail "arith: exit $?"

# the decompositions (Note [linalg adjoints]): Warp's closed-form adjoints
# and their transposes are the derivatives (float64, distinct values)
for k in svd3k svd2k qr3k eig3k; do
  "$kern" gradcheck "$dir/gradcheck/linalg64.py" $k >"$out" 2>&1 || fail "$k: exit $?"
  grep -q '^m  *adjoint .* ok$' "$out" || fail "$k: no passing row for m"
  grep -q '^(random v)  *tangent .* ok$' "$out" || fail "$k: no tangent row"
done

# tiles (Note [tile adjoints]), launched tiled: float64 matmul, sums and
# tile_atomic_add through loops kern runs forward in the replay; both
# modes are the derivative
"$kern" gradcheck "$dir/tile_reduce.py" tile_reduce --tiled --dim 2 \
  a='rand(float64,6,20,seed=61)' b='rand(float64,20,3,seed=62)' \
  out='zeros(float64,6,3)' acc='zeros(float64,3,3)' red='zeros(float64,6)' \
  >"$out" 2>&1 || fail "tile_reduce: exit $?"
grep -q '^a  *adjoint  *120 .* ok$' "$out" || fail "tile_reduce: no passing row for a"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "tile_reduce: no tangent row"

# tiles of vectors and matrices (tile_vec.py, float32: gradcheck's loose
# defaults), and a local array of vectors stored a difference, then
# updated with -= (fixed_update's vector form)
"$kern" gradcheck "$dir/tile_vec.py" tile_vec --tiled --dim 2 \
  a='rand(vec3,8,seed=71)' b='rand(vec3,8,seed=72)' m='rand(mat33,8,seed=73)' \
  out='zeros(vec3,8)' s='zeros(float32,8)' tot='zeros(vec3,2)' \
  >"$out" 2>&1 || fail "tile_vec: exit $?"
for p in a b m; do
  grep -q "^$p  *adjoint .* ok$" "$out" || fail "tile_vec: no passing row for $p"
done
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "tile_vec: no tangent row"
# constants, casts, reshapes, views and the indices of tile_argmax /
# tile_argmin (piecewise constant: no gradient through them)
"$kern" gradcheck "$dir/tile_shape.py" tile_shape --tiled --dim 2 \
  a='rand(float32,8,seed=81)' out='zeros(float32,8)' out2='zeros(float32,8)' \
  out3='zeros(float32,4)' >"$out" 2>&1 || fail "tile_shape: exit $?"
grep -q '^a  *adjoint  *8 .* ok$' "$out" || fail "tile_shape: no passing row for a"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "tile_shape: no tangent row"
# @wp.funcs taking and returning tiles (Note [returned tiles])
"$kern" gradcheck "$dir/tile_func_tiles.py" tile_func_tiles --tiled --dim 2 \
  a='rand(float32,8,seed=91)' b='rand(float32,8,seed=92)' out='zeros(float32,8)' \
  tot='zeros(float32,2)' >"$out" 2>&1 || fail "tile_func_tiles: exit $?"
grep -q '^a  *adjoint  *8 .* ok$' "$out" || fail "tile_func_tiles: no passing row for a"
grep -q '^b  *adjoint  *8 .* ok$' "$out" || fail "tile_func_tiles: no passing row for b"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "tile_func_tiles: no tangent row"
# the indexed loads, stores and atomics, tile_dot, tile_axpy, tile_randf
"$kern" gradcheck "$dir/tile_indexed.py" tile_indexed --tiled --dim 2 \
  a='rand(float32,6,5,seed=101)' idx='arange(int32,4)' out='zeros(float32,8,5)' \
  sc='zeros(float32,6,5)' acc='zeros(float32,6,3)' d='zeros(float32,2)' \
  >"$out" 2>&1 || fail "tile_indexed: exit $?"
grep -q '^a  *adjoint  *30 .* ok$' "$out" || fail "tile_indexed: no passing row for a"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "tile_indexed: no tangent row"
# wp.tile_assign and a slice assigned, overwriting parts of a tile
"$kern" gradcheck "$dir/tile_assign.py" tile_assign --tiled --dim 2 \
  a='rand(float32,8,seed=111)' out='zeros(float32,16)' \
  >"$out" 2>&1 || fail "tile_assign: exit $?"
grep -q '^a  *adjoint  *8 .* ok$' "$out" || fail "tile_assign: no passing row for a"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "tile_assign: no tangent row"
"$kern" gradcheck "$dir/gradcheck/vec_sub64.py" vsub --dim 4 \
  a='rand(vec3d,4,seed=1)' b='rand(vec3d,4,seed=2)' out='zeros(vec3d,4)' \
  >"$out" 2>&1 || fail "vsub: exit $?"
grep -q '^a  *adjoint .* ok$' "$out" || fail "vsub: no passing row for a"
grep -q '^b  *adjoint .* ok$' "$out" || fail "vsub: no passing row for b"

# not differentiable: the construct at its position
"$kern" gradcheck "$dir/gradcheck/ok64.py" atomk >"$out" 2>&1
[ $? -eq 1 ] || fail "atomk: exit not 1"
grep -q 'ok64.py:36:5: error: autodiff of the value an atomic returns' "$out" ||
  fail "atomk: no positioned refusal"

# Perlin noise (Note [noise adjoints]): both modes are the derivative in
# the coordinate; float32, so a step of 1e-3 (curlnoise's adjoint is a
# second derivative of the field)
"$kern" gradcheck "$dir/gradcheck/noise32.py" noisek --dim 8 'out=zeros(float32,8,4)' \
  --eps 1e-3 --rtol 5e-3 --atol 5e-3 >"$out" 2>&1 || fail "noisek: exit $?"
grep -q '^x  *adjoint  *8 .* ok$' "$out" || fail "noisek: no passing row for x"
grep -q '^v  *adjoint  *32 .* ok$' "$out" || fail "noisek: no passing row for v"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "noisek: no tangent row"
"$kern" gradcheck "$dir/gradcheck/noise32.py" curlk --dim 8 'o3=zeros(vec3,8,2)' \
  --eps 1e-3 --rtol 5e-3 --atol 5e-3 >"$out" 2>&1 || fail "curlk: exit $?"
grep -q '^v  *adjoint  *32 .* ok$' "$out" || fail "curlk: no passing row for v"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "curlk: no tangent row"

# the error functions, copysign and mod: adjoint and tangent
"$kern" gradcheck "$dir/gradcheck/ok64.py" erfs --dim 6 >"$out" 2>&1 || fail "erfs: exit $?"
grep -q '^x  *adjoint  *6 .* ok$' "$out" || fail "erfs: no passing row for x"
grep -q '^y  *adjoint  *6 .* ok$' "$out" || fail "erfs: no passing row for y"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "erfs: no tangent row"
# the spatial and quaternion builtins the expansion writes out: adjoint
# (v, vec3) and tangent against differences in float32
"$kern" gradcheck "$dir/spatial_extra.py" spatial_extra --dim 4 'out=zeros(float32,4,7)' >"$out" 2>&1 ||
  fail "spatial_extra: exit $?"
grep -q '^v  *adjoint  *12 .* ok$' "$out" || fail "spatial_extra: no passing row for v"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "spatial_extra: no tangent row"
"$kern" gradcheck "$dir/vec_extra.py" vec_extra --dim 4 'out=zeros(float32,4,5)' >"$out" 2>&1 ||
  fail "vec_extra: exit $?"
grep -q '^v  *adjoint  *12 .* ok$' "$out" || fail "vec_extra: no passing row for v"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "vec_extra: no tangent row"
"$kern" gradcheck "$dir/xform_extra.py" xform_extra --dim 4 'out=zeros(float32,4,3)' >"$out" 2>&1 ||
  fail "xform_extra: exit $?"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "xform_extra: no tangent row"
"$kern" gradcheck "$dir/gradcheck/ok64.py" xcopy --dim 5 >"$out" 2>&1 || fail "xcopy: exit $?"
grep -q '^v  *adjoint  *15 .* ok$' "$out" || fail "xcopy: no passing row for v"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "xcopy: no tangent row"

# arrays of structs (Note [gradcheck slots] in tools/kern.c): each float
# scalar of each element's fields is checked, nested structs' too
"$kern" gradcheck "$dir/aos_read.py" aos_read --dim 4 "a=rand(P,4,seed=3)" >"$out" 2>&1 ||
  fail "aos_read: exit $?"
grep -q '^a  *adjoint  *36 .* ok$' "$out" || fail "aos_read: no passing row for a"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "aos_read: no tangent row"
"$kern" gradcheck "$dir/aos_2d.py" aos_2d --dim 2,3 "a=rand(Q,2,3,seed=5)" "b=zeros(Q,2,3)" \
  >"$out" 2>&1 || fail "aos_2d: exit $?"
grep -q '^b  *adjoint  *18 .* ok$' "$out" || fail "aos_2d: no passing row for b"
"$kern" gradcheck "$dir/gradcheck/aos_arrfield.py" hold --dim 2 "a=zeros(H,2)" >"$out" 2>&1 &&
  fail "aos_arrfield: passed"
grep -q "no array of structs with an array field (xs)" "$out" ||
  fail "aos_arrfield: not refused by name"

# fixed-size local arrays used linearly (Note [adjoint fixed arrays])
"$kern" gradcheck "$dir/gradcheck/ok64.py" fixed64 --dim 5 n=6 >"$out" 2>&1 ||
  fail "fixed64: exit $?"
grep -q '^x  *adjoint  *5 .* ok$' "$out" || fail "fixed64: no passing row for x"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "fixed64: no tangent row"

# structs (Note [struct leaves]): locals, a nested field, a copy, a
# @wp.func taking one, and a struct value held fixed; a component store
# into a struct's field is refused at its position
"$kern" gradcheck "$dir/gradcheck/ok64.py" structk --dim 5 'g={w=1.5,p=(0.5,-1,2),inner={k=0.75}}' >"$out" 2>&1 ||
  fail "structk: exit $?"
grep -q '^x  *adjoint  *5 .* ok$' "$out" || fail "structk: no passing row for x"
grep -q '^v  *adjoint  *15 .* ok$' "$out" || fail "structk: no passing row for v"
grep -q '^(random v)  *tangent .* ok$' "$out" || fail "structk: no tangent row"
"$kern" gradcheck "$dir/gradcheck/ok64.py" structk >"$out" 2>&1
[ $? -eq 1 ] || fail "structk without g: exit not 1"
grep -q "parameter 'g': give it as g={...}" "$out" || fail "structk: no message for g"
"$kern" gradcheck "$dir/gradcheck/ok64.py" structcomp >"$out" 2>&1
[ $? -eq 1 ] || fail "structcomp: exit not 1"
grep -q "ok64.py:94:7: error: autodiff of an assignment to a component of a struct's field" "$out" ||
  fail "structcomp: no positioned refusal"

# what must be given, bad usage, help
"$kern" gradcheck "$dir/gradcheck/ok64.py" sumsq >"$out" 2>&1
[ $? -eq 1 ] || fail "sumsq without n: exit not 1"
grep -q "parameter 'n': give it as n=VALUE" "$out" || fail "sumsq: no message for n"
"$kern" gradcheck "$dir/gradcheck/ok64.py" sumsq n=2 m=3 >"$out" 2>&1
[ $? -eq 1 ] || fail "unknown parameter: exit not 1"
grep -q "'m=3': sumsq has no such parameter" "$out" || fail "no message for m"
"$kern" gradcheck "$dir/gradcheck/ok64.py" mix --eps 0 >"$out" 2>&1
[ $? -eq 2 ] || fail "--eps 0: exit not 2"
"$kern" gradcheck "$dir/gradcheck/ok64.py" >"$out" 2>&1
[ $? -eq 2 ] || fail "no KERNEL: exit not 2"
"$kern" gradcheck --help >"$out" 2>&1 || fail "--help: exit $?"
grep -q 'central finite differences' "$out" || fail "--help says nothing of differences"
grep -q -- '--rtol' "$out" || fail "--help lacks --rtol"
"$kern" help gradcheck >"$out" 2>&1 || fail "kern help gradcheck"
echo "gradcheck: all checks passed"
