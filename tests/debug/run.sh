#!/bin/sh
# Debug mode (KERN_DEBUG / --debug): every out-of-bounds access in
# tests/debug/oob.py fails the launch with the kernel, the source position,
# the index and the shape, and leaves the arrays untouched.
# usage: run.sh KERN NPYCMP DIR BACKEND
set -u
KERN=$1; NPYCMP=$2; DIR=$3; BACKEND=${4:-cpu}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kern-debug.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export KERN_CACHE_DIR="$tmp/cache"
"$KERN" devices 2>/dev/null | grep -q "^$BACKEND: available" || { echo "skip: no $BACKEND device"; exit 77; }
fail=0
# expect KERNEL DIM "ARGS" "MESSAGE"
expect() {
  kernel=$1; dim=$2; args=$3; msg=$4
  # shellcheck disable=SC2086
  out=$("$KERN" run "$DIR/oob.py" "$kernel" --dim "$dim" $args --backend "$BACKEND" --debug --quiet 2>&1)
  rc=$?
  if [ $rc -ne 1 ] || ! printf '%s' "$out" | grep -qF -- "$msg"; then
    echo "FAIL $kernel: exit $rc, expected 1 and a message containing: $msg"
    echo "  got: $out"; fail=1
  else
    echo "ok   $kernel: $msg"
  fi
}
# Each launch has exactly one faulting index, so the first fault recorded
# is the same however the work is spread over threads.
expect read_past_end 6 "x=arange(float32,7) y=zeros(float32,6)" \
  "oob.py:8:12: kernel 'read_past_end': index 7 is out of bounds for axis 0 of array 'x' (length 7, shape (7,))"
expect write_past_end 3 "x=ones(float32,4) y=zeros(float32,4)" \
  "oob.py:14:5: kernel 'write_past_end': index 6 is out of bounds for axis 0 of array 'y' (length 4, shape (4,))"
expect atomic_past_end 2 "x=zeros(int32,2,3) n=3" \
  "oob.py:20:8: kernel 'atomic_past_end': index 3 is out of bounds for axis 1 of array 'x' (length 3, shape (2, 3))"
expect in_function 1 "x=ones(float32,4) y=zeros(float32,4)" \
  "oob.py:31:12: kernel 'in_function': index 10 is out of bounds for axis 0 of array 'a'"
# run-time indices into vectors and matrices (idx is 0, 1, 2, 3)
I4='idx=arange(int32,4) out=zeros(float32,4)'
expect vec_read 4 "$I4" \
  "oob.py:40:14: kernel 'vec_read': index 3 is out of bounds for axis 0 of vector 'v' (length 3, shape (3,))"
expect vec_read 1 "idx=full(int32,1,1000000) out=zeros(float32,1)" \
  "oob.py:40:14: kernel 'vec_read': index 1000000 is out of bounds for axis 0 of vector 'v' (length 3, shape (3,))"
expect vec_write 4 "$I4" \
  "oob.py:47:5: kernel 'vec_write': index 3 is out of bounds for axis 0 of vector 'v' (length 3, shape (3,))"
expect mat_row 4 "$I4" \
  "oob.py:55:14: kernel 'mat_row': index 3 is out of bounds for axis 0 of matrix 'm' (length 3, shape (3, 3))"
expect mat_col 4 "$I4" \
  "oob.py:63:14: kernel 'mat_col': index 3 is out of bounds for axis 1 of matrix 'm' (length 3, shape (3, 3))"
expect mat_whole_row 4 "$I4" \
  "oob.py:70:9: kernel 'mat_whole_row': index 2 is out of bounds for axis 0 of matrix 'm' (length 2, shape (2, 2))"
expect elem_of_array 4 "x=zeros(vec3,2) $I4" \
  "oob.py:77:14: kernel 'elem_of_array': index 3 is out of bounds for axis 0 of a vec3 vector (length 3, shape (3,))"
# views: the sub-array's row, then an index into a slice (idx is 0..3)
expect subarray_row 4 "x=zeros(float32,3,2) $I4" \
  "oob.py:85:9: kernel 'subarray_row': index 3 is out of bounds for axis 0 of array 'x' (length 3, shape (3, 2))"
expect view_index 4 "x=zeros(float32,8) $I4" \
  "oob.py:93:14: kernel 'view_index': index 3 is out of bounds for axis 0 of array 's' (length 3)"
# a fixed-size local array (wp.zeros in the kernel); idx is 0..3
expect fixed_array_store 4 "$I4" \
  "oob.py:100:5: kernel 'fixed_array_store': index 3 is out of bounds for axis 1 of array 'arr' (length 3"
# Sharded launches (--device B:0,0 and B:0,0,0; issue 23 item 4) check the
# same way: the replicated input is shorter than the grid, so the last
# shard reads past its end; the sharded output's shape is the global one.
for list in "$BACKEND:0,0" "$BACKEND:0,0,0"; do
  for run in 1 2 3; do
    out=$("$KERN" run "$DIR/oob.py" read_past_end --dim 6 x="arange(float32,7)" \
      y="zeros(float32,6)" --device "$list" --quiet 2>&1)
    rc=$?
    want="oob.py:8:12: kernel 'read_past_end': index 7 is out of bounds for axis 0 of array 'x' (length 7, shape (7,))"
    if [ $rc -ne 1 ] || ! printf '%s' "$out" | grep -qF -- "$want"; then
      echo "FAIL sharded $list run $run: exit $rc, expected 1 and: $want"
      echo "  got: $out"; fail=1
    fi
  done
  out=$("$KERN" run "$DIR/oob.py" write_past_end --dim 3 x="ones(float32,3)" \
    y="zeros(float32,6)" --device "$list" --quiet 2>&1)
  rc=$?
  want="oob.py:14:5: kernel 'write_past_end': index 6 is out of bounds for axis 0 of array 'y' (length 6, shape (6,))"
  if [ $rc -ne 1 ] || ! printf '%s' "$out" | grep -qF -- "$want"; then
    echo "FAIL sharded $list write: exit $rc, expected 1 and: $want"
    echo "  got: $out"; fail=1
  else
    echo "ok   sharded $list: $want"
  fi
done
# in bounds, the checked indices give the values
out=$("$KERN" run "$DIR/oob.py" vec_read --dim 3 idx="arange(int32,4)" out="zeros(float32,4)" \
  --backend "$BACKEND" --debug 2>&1)
printf '%s' "$out" | grep -qF "out = [1. 2. 3. 0.]" || { echo "FAIL vec_read in bounds: $out"; fail=1; }
# the same kernels stay silent and correct when in bounds, and no element
# was written by a faulting launch (y stays zero where the store was skipped)
"$KERN" run "$DIR/oob.py" write_past_end --dim 2 x="ones(float32,4)" y="zeros(float32,6)" \
  --backend "$BACKEND" --debug --quiet --save y="$tmp/y.npy" || { echo "FAIL: in-bounds launch failed"; fail=1; }
[ $fail -eq 0 ] && echo "debug mode ($BACKEND): all reports correct"
exit $fail
