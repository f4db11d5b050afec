#!/bin/sh
# structs_test.sh -- @wp.struct arguments of `kern run` (src/cli/spec_struct.c):
# a struct value {field=value,...}, an array of structs read from a .npy file
# of records that NumPy saved from Warp's numpy_dtype() (records.npy, made by
# make_records.py with real Warp, as are the expected outputs), saved back as
# records NumPy reads, and the errors, each naming the parameter and field.
#
#   sh structs_test.sh KERN_BINARY NPYCMP_BINARY DIR
set -u
KERN=$1; NPYCMP=$2; D=$3
T=$(mktemp -d "${TMPDIR:-/tmp}/kern_structs.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
KERN_CACHE_DIR=$T/cache KERN_DEVICE=cpu
export KERN_CACHE_DIR KERN_DEVICE
K=$D/kernels.py
n=0; failed=0; desc=
fail() {
  failed=$((failed + 1)); echo "not ok $n - $desc: $1"
  [ -s "$T/err" ] && sed 's/^/#   stderr: /' "$T/err"
}
check() {
  desc=$1; want=$2; shift 2; n=$((n + 1))
  "$@" >"$T/out" 2>"$T/err"; rc=$?
  if [ "$rc" -ne "$want" ]; then fail "exit status $rc, expected $want"; else echo "ok $n - $desc"; fi
}
err_has() { grep -F -e "$1" "$T/err" >/dev/null || fail "stderr lacks '$1'"; }
out_has() { grep -F -e "$1" "$T/out" >/dev/null || fail "stdout lacks '$1'"; }

B='b={a=5,d=1.5,inner={v=(7,8,9)}}'
check "records in, records out, as Warp leaves them" 0 "$KERN" run "$K" shift --dim 3 \
  "$B" "items=$D/records.npy" 'out=zeros(float32,3)' \
  --save "items=$T/items.npy" --save "out=$T/out.npy"
check "the saved records equal Warp's" 0 "$NPYCMP" "$D/expected_items.npy" "$T/items.npy"
check "the plain output equals Warp's" 0 "$NPYCMP" "$D/expected_out.npy" "$T/out.npy"
check "a changed record is found" 1 "$NPYCMP" "$D/records.npy" "$T/items.npy"
out_has "field 'd'"
check "dotted names and wp.vec3(...) spellings" 0 "$KERN" run "$K" shift --dim 3 \
  'b={a=5,d=1.5,inner.v=wp.vec3(7,8,9)}' "items=$D/records.npy" 'out=zeros(float32,3)' \
  --save "items=$T/items2.npy"
check "... give the same records" 0 "$NPYCMP" "$D/expected_items.npy" "$T/items2.npy"
check "arrays of structs print as records" 0 "$KERN" run "$K" shift --dim 2 \
  "$B" 'items=arange(Body,2)' 'out=zeros(float32,2)'
out_has "items = [(0, 2.5, ([8, 3, 4], 10), True),"

check "unknown field" 1 "$KERN" run "$K" shift --dim 1 'b={a=1,mass=2}' \
  'items=zeros(Body,1)' 'out=zeros(float32,1)'
err_has "parameter 'b': struct 'Body' has no field 'mass' (its fields: a, d, inner, inner.v, inner.k, on)"
check "a vector field given as a number" 1 "$KERN" run "$K" shift --dim 1 \
  'b={inner={v=1}}' 'items=zeros(Body,1)' 'out=zeros(float32,1)'
err_has "parameter 'b.inner.v' (vec3): needs 3 comma-separated components"
check "an out-of-range field" 1 "$KERN" run "$K" shift --dim 1 'b={a=300}' \
  'items=zeros(Body,1)' 'out=zeros(float32,1)'
err_has "parameter 'b.a' (int8)"
check "not a struct SPEC" 1 "$KERN" run "$K" shift --dim 1 'b=1,2' \
  'items=zeros(Body,1)' 'out=zeros(float32,1)'
err_has "is not a struct SPEC; write {field=value,...} (struct 'Body')"
check "another struct's name in a generator" 1 "$KERN" run "$K" shift --dim 1 'b={}' \
  'items=zeros(Inner,1)' 'out=zeros(float32,1)'
err_has "'zeros(Inner,1)' makes elements of 'Inner' but the parameter holds struct 'Body'"
check "plain numbers for an array of structs" 1 "$KERN" run "$K" shift --dim 1 'b={}' \
  "items=$D/expected_out.npy" 'out=zeros(float32,1)'
err_has "holds float32, not records of struct 'Body'"
check "records whose field types differ" 1 "$KERN" run "$K" shift --dim 1 'b={}' \
  "items=$D/wrong_type.npy" 'out=zeros(float32,1)'
err_has "records of 19 bytes but struct 'Body' has 40"
check "records for a plain array" 1 "$KERN" run "$K" shift --dim 1 'b={}' \
  'items=zeros(Body,1)' "out=$D/records.npy"
err_has "parameter 'out'"
check "--save of an array field the SPEC lacks" 1 "$KERN" run "$K" shift --dim 1 'b={}' \
  'items=zeros(Body,1)' 'out=zeros(float32,1)' --save "b.xs=$T/x.npy"
err_has "gives no array field 'b.xs'"

echo "1..$n"
[ "$failed" -eq 0 ] || { echo "# $failed of $n checks failed"; exit 1; }
echo "# all $n checks passed"
